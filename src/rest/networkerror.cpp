// NetworkError: the error value of failed requests (errors are values, not exceptions).
#include <DataClient/networkerror.h>
#include <DataClient/response.h>
#include <DataClient/schemaerror.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonParseError>
#include <QtCore/QSharedData>

#include <utility>

namespace DataClient {

class NetworkErrorPrivate : public QSharedData
{
public:
    NetworkError::Kind kind = NetworkError::Kind::Other;
    int status = 0;
    QString statusText;
    QUrl url;
    QByteArray method;
    QByteArray body;
    qsizetype bodySize = 0;
    QNetworkReply::NetworkError networkError = QNetworkReply::NoError;
    QString errorString;
    QByteArray retryAfter;
    QString message;
    QByteArray what;
};

namespace {

QString requestName(const QByteArray &method, const QUrl &url)
{
    if (url.isEmpty())
        return QString::fromLatin1(method);
    return QString::fromLatin1(method) + u' ' + url.toString(QUrl::FullyEncoded);
}

// The start of a body for messages: error bodies often say what went wrong.
QString bodyExcerpt(const QByteArray &body)
{
    QString text = QString::fromUtf8(body.left(200)).simplified();
    if (body.size() > 200)
        text += QStringLiteral("...");
    return text;
}

// The data of every null error (default-constructed or moved from): one allocation, shared.
const QSharedDataPointer<NetworkErrorPrivate> &nullData()
{
    static const QSharedDataPointer<NetworkErrorPrivate> data(new NetworkErrorPrivate);
    return data;
}

} // namespace

NetworkError::NetworkError() : d(nullData()) { }

NetworkError::NetworkError(Kind kind, int status, const QString &message)
    : d(new NetworkErrorPrivate)
{
    d->kind = kind;
    d->status = status;
    d->message = message;
    d->what = message.toUtf8();
}

NetworkError::NetworkError(const NetworkError &other) : QException(other), d(other.d) { }

NetworkError::NetworkError(NetworkError &&other) noexcept
    : QException(other), d(std::exchange(other.d, nullData()))
{ }

NetworkError &NetworkError::operator=(const NetworkError &other)
{
    d = other.d;
    return *this;
}

NetworkError &NetworkError::operator=(NetworkError &&other) noexcept
{
    d = std::exchange(other.d, nullData());
    return *this;
}

NetworkError::~NetworkError() = default;

NetworkError NetworkError::fromResponse(const Response &response)
{
    QString message = QStringLiteral("%1 answered %2 %3")
                          .arg(requestName(response.method, response.url))
                          .arg(response.status)
                          .arg(response.statusText);
    if (!response.body.isEmpty())
        message += QStringLiteral(": ") + bodyExcerpt(response.body);
    if (response.body.size() > MaxKeptBodyBytes) {
        message += QStringLiteral(" (a body of %1 bytes; the first %2 are kept)")
                       .arg(response.body.size())
                       .arg(MaxKeptBodyBytes);
    }
    return NetworkError(Kind::Http, response.status, message)
        .withStatus(response.status, response.statusText)
        .withRequest(response.method, response.url)
        .withBody(response.body)
        .withNetworkError(response.networkError, response.errorString)
        .withRetryAfter(response.header("retry-after"));
}

NetworkError NetworkError::invalidRequest(const QByteArray &method, const QUrl &url,
                                          const QString &message)
{
    return NetworkError(Kind::InvalidRequest, 0, message)
        .withRequest(method, url)
        .withNetworkError(QNetworkReply::ProtocolInvalidOperationError, message);
}

NetworkError NetworkError::fromException(const std::exception_ptr &exception)
{
    if (!exception)
        return NetworkError();
    try {
        std::rethrow_exception(exception);
    } catch (const NetworkError &error) {
        return error;
    } catch (const SchemaError &error) {
        return NetworkError(Kind::InvalidResponse, 400, error.message());
    } catch (const std::exception &error) {
        return NetworkError(Kind::Other, 0, QString::fromUtf8(error.what()));
    } catch (...) {
        return NetworkError(Kind::Other, 0, QStringLiteral("unknown exception"));
    }
}

NetworkError::Kind NetworkError::kind() const
{
    return d->kind;
}

int NetworkError::status() const
{
    return d->status;
}

QString NetworkError::statusText() const
{
    return d->statusText;
}

QUrl NetworkError::url() const
{
    return d->url;
}

QByteArray NetworkError::method() const
{
    return d->method;
}

QByteArray NetworkError::body() const
{
    return d->body;
}

qsizetype NetworkError::bodySize() const
{
    return d->bodySize;
}

QJsonValue NetworkError::json() const
{
    QJsonParseError parseError;
    // Wrapped in an array so scalars ("text", 5) parse too.
    const QJsonDocument document = QJsonDocument::fromJson("[" + d->body + "]", &parseError);
    if (parseError.error != QJsonParseError::NoError || document.array().size() != 1)
        return QJsonValue(QJsonValue::Undefined);
    return document.array().first();
}

QNetworkReply::NetworkError NetworkError::networkError() const
{
    return d->networkError;
}

QString NetworkError::errorString() const
{
    return d->errorString;
}

QByteArray NetworkError::retryAfter() const
{
    return d->retryAfter;
}

QString NetworkError::message() const
{
    return d->message;
}

bool NetworkError::isNull() const
{
    return d->kind == Kind::Other && d->message.isEmpty();
}

template<typename Change> NetworkError NetworkError::changed(Change change) const
{
    NetworkError copy = *this;
    change(*copy.d); // detaches: this error keeps its data
    return copy;
}

NetworkError NetworkError::withStatus(int status, const QString &statusText) const
{
    return changed([&](NetworkErrorPrivate &data) {
        data.status = status;
        data.statusText = statusText;
    });
}

NetworkError NetworkError::withRequest(const QByteArray &method, const QUrl &url) const
{
    return changed([&](NetworkErrorPrivate &data) {
        data.method = method;
        data.url = url;
    });
}

NetworkError NetworkError::withBody(const QByteArray &body) const
{
    return changed([&](NetworkErrorPrivate &data) {
        data.body = body.size() > MaxKeptBodyBytes ? body.left(MaxKeptBodyBytes) : body;
        data.bodySize = body.size();
    });
}

NetworkError NetworkError::withNetworkError(QNetworkReply::NetworkError error,
                                            const QString &errorString) const
{
    return changed([&](NetworkErrorPrivate &data) {
        data.networkError = error;
        data.errorString = errorString;
    });
}

NetworkError NetworkError::withRetryAfter(const QByteArray &retryAfter) const
{
    return changed([&](NetworkErrorPrivate &data) { data.retryAfter = retryAfter; });
}

NetworkError NetworkError::withMessage(const QString &message) const
{
    return changed([&](NetworkErrorPrivate &data) {
        data.message = message;
        data.what = message.toUtf8();
    });
}

const char *NetworkError::what() const noexcept
{
    return d->what.constData();
}

void NetworkError::raise() const
{
    throw *this;
}

NetworkError *NetworkError::clone() const
{
    return new NetworkError(*this);
}

} // namespace DataClient
