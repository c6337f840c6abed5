// Fixture, MockRequest, MockReply: matching a request and describing both in failure messages.
#include <DataClient/restendpoint.h>
#include <DataClient/testing/fixture.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonParseError>
#include <QtCore/QUrlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace DataClient::Testing {

namespace {

QJsonValue parseJson(const QByteArray &bytes)
{
    if (bytes.trimmed().isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    // A scalar body ("5", "\"x\"") is valid JSON too: parse it inside an array.
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson('[' + bytes + ']', &error);
    if (error.error != QJsonParseError::NoError || document.array().size() != 1)
        return QJsonValue(QJsonValue::Undefined);
    return document.array().first();
}

QByteArray jsonBytes(const QJsonValue &value)
{
    if (value.isUndefined())
        return {};
    const QByteArray wrapped = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

//! Query items sorted, so that "?b=1&a=2" and "?a=2&b=1" compare equal.
QList<std::pair<QString, QString>> sortedQuery(const QUrl &url)
{
    const auto items = QUrlQuery(url).queryItems(QUrl::FullyDecoded);
    QList<std::pair<QString, QString>> sorted(items.begin(), items.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

bool sameUrl(const QUrl &a, const QUrl &b)
{
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port() == b.port()
        && a.path() == b.path() && sortedQuery(a) == sortedQuery(b);
}

//! A path pattern: ":name" segments match any one segment.
bool pathMatches(const QString &pattern, const QString &path)
{
    const QStringList want = pattern.split(u'/');
    const QStringList got = path.split(u'/');
    if (want.size() != got.size())
        return false;
    for (qsizetype i = 0; i < want.size(); ++i) {
        if (want[i].startsWith(u':') ? got[i].isEmpty() : want[i] != got[i])
            return false;
    }
    return true;
}

QString paramText(const QVariant &value)
{
    return value.toString();
}

} // namespace

QByteArray MockRequest::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QJsonValue MockRequest::json() const
{
    return parseJson(body);
}

QString MockRequest::toString() const
{
    QString text = QString::fromLatin1(method) + u' ' + url.toString(QUrl::FullyEncoded);
    if (!body.isEmpty())
        text += u' ' + QString::fromUtf8(body.left(500));
    return text;
}

MockReply MockReply::json(const QJsonValue &value, int status)
{
    MockReply reply;
    reply.status = status;
    reply.body = jsonBytes(value);
    if (!reply.body.isEmpty())
        reply.headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
    return reply;
}

MockReply MockReply::failure(QNetworkReply::NetworkError error, const QString &errorString)
{
    MockReply reply;
    reply.status = 0;
    reply.error = error;
    reply.errorString
        = errorString.isEmpty() ? QStringLiteral("MockNetwork: simulated failure") : errorString;
    return reply;
}

int Fixture::effectiveStatus() const
{
    if (status != 0)
        return status;
    return error ? 500 : 200;
}

bool Fixture::isError() const
{
    return networkError != QNetworkReply::NoError || error || effectiveStatus() >= 400;
}

MockReply Fixture::reply() const
{
    MockReply answer = networkError != QNetworkReply::NoError
        ? MockReply::failure(networkError)
        : MockReply::json(response, effectiveStatus());
    answer.headers += headers;
    answer.delayMs = delayMs;
    return answer;
}

QByteArray Fixture::effectiveMethod() const
{
    return endpoint ? endpoint->method() : method.toUpper();
}

QUrl Fixture::endpointUrl(QString *why) const
{
    if (!endpoint)
        return {};
    return endpoint->url(params, why);
}

bool Fixture::matches(const MockRequest &request) const
{
    if (request.method != effectiveMethod())
        return false;
    if (body && request.json() != *body)
        return false;
    if (endpoint)
        return sameUrl(endpointUrl(), request.url);
    const QUrl pattern(url);
    if (!pattern.scheme().isEmpty()
        && (pattern.scheme() != request.url.scheme() || pattern.host() != request.url.host()
            || pattern.port() != request.url.port())) {
        return false;
    }
    if (!pathMatches(pattern.path(), request.url.path()))
        return false;
    const QUrlQuery query(request.url);
    if (pattern.hasQuery() && sortedQuery(pattern) != sortedQuery(request.url))
        return false;
    for (auto it = params.cbegin(); it != params.cend(); ++it) {
        if (query.queryItemValue(it.key(), QUrl::FullyDecoded) != paramText(it.value()))
            return false;
    }
    return true;
}

QString Fixture::toString() const
{
    QString text = QString::fromLatin1(effectiveMethod()) + u' ';
    if (endpoint) {
        QString why;
        const QUrl built = endpointUrl(&why);
        text += built.isValid() ? built.toString(QUrl::FullyEncoded)
                                : endpoint->path() + u" ("_s + why + u')';
    } else {
        text += url;
        QStringList pairs;
        for (auto it = params.cbegin(); it != params.cend(); ++it)
            pairs.append(it.key() + u'=' + paramText(it.value()));
        if (!pairs.isEmpty())
            text += u" with "_s + pairs.join(u'&');
    }
    if (body)
        text += u" body "_s + QString::fromUtf8(jsonBytes(*body));
    return text
        + QStringLiteral(" -> %1").arg(networkError != QNetworkReply::NoError
                                           ? QStringLiteral("network error")
                                           : QString::number(effectiveStatus()));
}

} // namespace DataClient::Testing
