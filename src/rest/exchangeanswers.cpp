#include "exchangeanswers_p.h"

#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

namespace DataClient::detail {

QString request(const QByteArray &method, const QUrl &url)
{
    return QString::fromLatin1(method) + u' ' + url.toString(QUrl::FullyEncoded);
}

Response readReply(QNetworkReply *reply, const QByteArray &method, QByteArray body)
{
    Response response;
    response.method = method;
    response.url = reply->url();
    response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    response.statusText = QString::fromUtf8(
        reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray());
    const auto pairs = reply->rawHeaderPairs();
    for (const auto &pair : pairs)
        response.headers.append(pair);
    response.body = std::move(body);
    response.networkError = reply->error();
    if (response.networkError != QNetworkReply::NoError)
        response.errorString = reply->errorString();
    return response;
}

// The body length the head announced, when it can be compared with what arrived: not for a
// body Qt decompressed (its Content-Length counts the compressed bytes), nor for answers that
// never have a body.
std::optional<qint64> announcedLength(const Response &answer)
{
    if (answer.method == "HEAD" || answer.status == 204 || answer.status == 304
        || answer.hasHeader("content-encoding") || !answer.hasHeader("content-length")) {
        return std::nullopt;
    }
    bool ok = false;
    const qint64 length = answer.header("content-length").trimmed().toLongLong(&ok);
    return ok ? std::optional<qint64>(length) : std::nullopt;
}

NetworkError noAnswer(NetworkError::Kind kind, const Response &seen, const QString &what)
{
    QString message = QStringLiteral("%1 failed: %2").arg(request(seen.method, seen.url), what);
    message += seen.status > 0
        ? QStringLiteral(" (status %1 was received, but not the whole answer; nothing is "
                         "stored)")
              .arg(seen.status)
        : QStringLiteral(" (status 0, no HTTP answer)");
    return NetworkError(kind, 0, message)
        .withStatus(0, seen.errorString)
        .withRequest(seen.method, seen.url)
        .withNetworkError(seen.networkError, seen.errorString);
}

NetworkError tooLarge(const Response &seen, qint64 limit, qint64 bodyRead)
{
    const QString why = bodyRead > 0
        ? QStringLiteral("more than that arrived (%1 bytes of the body, decoded), and the rest "
                         "was not read")
              .arg(bodyRead)
        : QStringLiteral("its Content-Length announces %1 bytes; it was not read")
              .arg(QString::fromLatin1(seen.header("content-length").trimmed()));
    return NetworkError(NetworkError::Kind::TooLarge, seen.status,
                        QStringLiteral("%1: the answer is larger than maxResponseBytes (%2 bytes): "
                                       "%3 (raise the endpoint's maxResponseBytes if it is "
                                       "expected)")
                            .arg(request(seen.method, seen.url))
                            .arg(limit)
                            .arg(why))
        .withStatus(seen.status, seen.statusText)
        .withRequest(seen.method, seen.url);
}

} // namespace DataClient::detail
