// Test helper: one HTTP call with QNetworkAccessManager, waited for with a QSignalSpy, returning
// what the tests assert on (status, headers, parsed JSON).
#pragma once

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QSignalSpy>

#include <memory>

struct HttpAnswer
{
    bool finished = false;
    int status = 0;
    QByteArray body;
    QList<QNetworkReply::RawHeaderPair> headers;

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return value;
        }
        return {};
    }
    QJsonObject object() const { return QJsonDocument::fromJson(body).object(); }
    QJsonArray array() const { return QJsonDocument::fromJson(body).array(); }
    //! The "error" text of a JSON error body.
    QString error() const { return object().value(QLatin1String("error")).toString(); }
};

//! Sends one request and waits (up to 5 s) for its answer.
inline HttpAnswer httpCall(QNetworkAccessManager &network, const QUrl &url, const QByteArray &verb,
                           const QByteArray &body = {})
{
    QNetworkRequest request(url);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    std::unique_ptr<QNetworkReply> reply(network.sendCustomRequest(request, verb, body));
    HttpAnswer answer;
    if (!reply->isFinished()) {
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        if (!finished.wait(5000))
            return answer;
    }
    answer.finished = true;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    answer.headers = reply->rawHeaderPairs();
    return answer;
}

inline QByteArray toJson(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

//! The "id" values of a JSON array of objects, as integers.
inline QList<int> idsOf(const QJsonArray &items)
{
    QList<int> ids;
    for (const QJsonValue &item : items)
        ids.append(item.toObject().value(QLatin1String("id")).toInt());
    return ids;
}
