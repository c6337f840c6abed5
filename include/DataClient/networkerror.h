// NetworkError: why a request failed (errors are values, not exceptions).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QByteArray>
#include <QtCore/QException>
#include <QtCore/QJsonValue>
#include <QtCore/QMetaType>
#include <QtCore/QObject>
#include <QtCore/QSharedDataPointer>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkReply>

#include <exception>

namespace DataClient {

struct Response;
class NetworkErrorPrivate;

/*!
    The error a failed endpoint future carries (QFuture::onFailed receives it), also readable from
    QML as a value (its properties). Implicitly shared and cheap to copy.

    | kind()          | status()        | when                                                   |
    |-----------------|-----------------|--------------------------------------------------------|
    | Http            | the HTTP status | the server answered outside 200-299                    |
    | InvalidResponse | 400             | a 2xx body that is not JSON for an endpoint with a     |
    |                 |                 | schema, or not valid UTF-8, or in another charset, or  |
    |                 |                 | that Qt could not decode (broken gzip, a bomb)         |
    | Network         | 0               | no whole answer: connection refused, host not found,   |
    |                 |                 | dropped, or closed before the body was complete        |
    | Timeout         | 0               | no whole answer within the endpoint's timeout          |
    | Canceled        | 0               | the request was aborted                                |
    | InvalidRequest  | 0               | nothing was sent: a bad parameter, a missing page field|
    | Other           | 0               | another exception thrown by a hook                     |
    | Redirect        | the 3xx status  | a redirect that is not followed: to another origin     |
    |                 |                 | (unless credentials are include), to another scheme    |
    |                 |                 | than http(s), from https to http, or too many of them; |
    |                 |                 | a 301/302 to a mutation (the server did not apply it)  |
    | TooLarge        | the HTTP status | the answer is larger than maxResponseBytes (counted    |
    |                 |                 | decoded, as it arrives: the rest is never read)        |
    | Unauthorized    | the HTTP status | a request of a token source's origins was refused      |
    |                 | (401), or 0     | (401) and no new token helps: the refresh failed, or   |
    |                 |                 | the replay with the new token was refused again, or    |
    |                 |                 | the token source failed (Controller::                  |
    |                 |                 | authenticationFailed(), docs/authentication.md)        |

    Nothing of a failed answer is stored. A body kept in the error is cut to MaxKeptBodyBytes
    (bodyTruncated() says so, bodySize() gives the size received).

    message() is one sentence naming the request ("GET http://..."), what went wrong and, where
    it applies, what was expected.
*/
class DATACLIENT_REST_EXPORT NetworkError : public QException
{
    Q_GADGET
    Q_PROPERTY(int status READ status CONSTANT)
    Q_PROPERTY(QString statusText READ statusText CONSTANT)
    Q_PROPERTY(QUrl url READ url CONSTANT)
    Q_PROPERTY(QString bodyText READ bodyText CONSTANT)
    Q_PROPERTY(QString message READ message CONSTANT)
    Q_PROPERTY(Kind kind READ kind CONSTANT)
    Q_PROPERTY(QString errorString READ errorString CONSTANT)

public:
    enum class Kind {
        Http,
        InvalidResponse,
        Network,
        Timeout,
        Canceled,
        InvalidRequest,
        Other,
        Redirect,
        TooLarge,
        Unauthorized,
    };
    Q_ENUM(Kind)

    //! A null error (kind Other, status 0, empty message).
    NetworkError();
    NetworkError(Kind kind, int status, const QString &message);
    NetworkError(const NetworkError &other);
    //! Leaves \a other a null error.
    NetworkError(NetworkError &&other) noexcept;
    NetworkError &operator=(const NetworkError &other);
    NetworkError &operator=(NetworkError &&other) noexcept;
    ~NetworkError() override;
    void swap(NetworkError &other) noexcept { d.swap(other.d); }

    //! The answer was not 2xx (kind Http).
    static NetworkError fromResponse(const Response &response);
    //! Nothing was sent (kind InvalidRequest); \a message says what was wrong.
    static NetworkError invalidRequest(const QByteArray &method, const QUrl &url,
                                       const QString &message);
    //! Wraps any exception: a NetworkError as is, a SchemaError or another `QException` or
    //! `std::exception` as kind InvalidResponse (SchemaError) or Other with its what() text.
    static NetworkError fromException(const std::exception_ptr &exception);

    Kind kind() const;
    //! HTTP status; 400 for an unreadable body; 0 when there was no HTTP answer.
    int status() const;
    //! The reason phrase ("Not Found"), or the Qt error string when there was no answer.
    QString statusText() const;
    QUrl url() const;
    QByteArray method() const;
    //! How much of an error body is kept: bodies are often pages of HTML, sometimes huge.
    static constexpr qsizetype MaxKeptBodyBytes = 64 * 1024;

    //! The response body as received (may be empty), cut to MaxKeptBodyBytes.
    QByteArray body() const;
    //! The size of the body received, also when body() holds only its start.
    qsizetype bodySize() const;
    //! Whether body() holds only the start of the body received.
    bool bodyTruncated() const { return bodySize() > body().size(); }
    QString bodyText() const { return QString::fromUtf8(body()); }
    //! The body parsed as JSON, or undefined when it is not JSON.
    QJsonValue json() const;
    //! QNetworkReply's error code (NoError for InvalidResponse / InvalidRequest).
    QNetworkReply::NetworkError networkError() const;
    //! QNetworkReply's error string, if any.
    QString errorString() const;
    //! The answer's Retry-After header as received (delta-seconds or an HTTP-date), or empty.
    QByteArray retryAfter() const;
    QString message() const;
    bool isNull() const;

    NetworkError withStatus(int status, const QString &statusText) const;
    NetworkError withRequest(const QByteArray &method, const QUrl &url) const;
    //! Keeps \a body, or its first MaxKeptBodyBytes bytes.
    NetworkError withBody(const QByteArray &body) const;
    NetworkError withNetworkError(QNetworkReply::NetworkError error,
                                  const QString &errorString) const;
    NetworkError withMessage(const QString &message) const;
    NetworkError withRetryAfter(const QByteArray &retryAfter) const;

    const char *what() const noexcept override;
    void raise() const override;
    NetworkError *clone() const override;

private:
    // A copy with \a change applied to its own data (the with*() modifiers).
    template<typename Change> NetworkError changed(Change change) const;

    // Never null (a null error shares one empty data): accessors need no check. Written only
    // by the with*() modifiers, on their copy.
    QSharedDataPointer<NetworkErrorPrivate> d;
};

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::NetworkError)

Q_DECLARE_METATYPE(DataClient::NetworkError)
