// RequestInit: what getRequestInit() builds and fetchResponse() sends (docs/hooks.md).
#pragma once

#include <DataClient/global.h>
#include <DataClient/headers.h>
#include <DataClient/requestcontext.h>

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QString>

#include <optional>

namespace DataClient {

//! Which requests carry cookies (docs/authentication.md). Mapped to QNetworkRequest's cookie
//! load/save control: Include = the cookie jar is used, Omit = it is not (Manual);
//! SameOrigin = used only when the request URL's origin equals the endpoint's urlPrefix origin.
enum class Credentials { Omit, SameOrigin, Include };

//! "omit", "same-origin", "include".
DATACLIENT_REST_EXPORT QString credentialsName(Credentials credentials);
//! The inverse of credentialsName(); std::nullopt for an unknown name.
DATACLIENT_REST_EXPORT std::optional<Credentials> credentialsFromName(const QString &name);

/*!
    The request about to be sent, like the `init` argument of the web's fetch(). An override of
    RestEndpoint::getRequestInit() may change the body, the headers, the credentials mode or the
    timeout, before or after calling the base implementation.
*/
struct DATACLIENT_REST_EXPORT RequestInit
{
    QByteArray method = "GET";
    //! Request headers, names as given; header() and setHeader() match names case-insensitively.
    Headers headers {};
    //! The bytes to send; std::nullopt sends no body (GET and DELETE never send one).
    std::optional<QByteArray> body {};
    Credentials credentials = Credentials::SameOrigin;
    //! 64 MiB: larger answers are refused unless an endpoint raises its limit.
    static constexpr qint64 DefaultMaxResponseBytes = 64 * 1024 * 1024;

    //! 30 s, the `timeout` option's default too.
    static constexpr int DefaultTimeoutMs = 30000;
    //! Deadline of the whole exchange in milliseconds, from sending to the last byte of the
    //! answer, redirects included (not an inactivity timeout); 0 = none.
    int timeout = DefaultTimeoutMs;
    //! The largest answer read, in bytes; a larger one fails with NetworkError::Kind::TooLarge
    //! as soon as its head announces it or its body grows past it. 0 = no limit.
    qint64 maxResponseBytes = DefaultMaxResponseBytes;
    /*!
        The context of the request this init belongs to: its abort group, its deadline, where
        its results go (RequestContext). getRequestInit() returns a null one; RestEndpoint::fetch()
        sets it after that hook, with the context's headers and validators already applied.
        The default fetchResponse() reads it, so an override that sends later (after a timer,
        after fetching a token) passes the init it got on to the base, and the request stays
        in its context: it is aborted with its group, ends at its deadline, reports its results.
    */
    RequestContext context {};

    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    //! Replaces every header called \a name (any case) by one with \a value.
    void setHeader(const QByteArray &name, const QByteArray &value);
    void removeHeader(QByteArrayView name);
};

} // namespace DataClient
