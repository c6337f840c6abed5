// The option `csrf` with a token path: one more try after the server refused the token.
#pragma once

#include <DataClient/requestinit.h>
#include <DataClient/response.h>
#include <DataClient/serverconventions.h>

#include <QtCore/QFuture>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace DataClient {
class RestEndpoint;
}

namespace DataClient::detail {

//! Whether \a answer refuses a request for its CSRF token: 403 (Django), 419 (Laravel) or 422
//! (Rails) with a body that says so ("CSRF", "authenticity token").
bool refusesCsrfToken(const Response &answer);

/*!
    \a endpoint's fetchResponse() of \a target with \a init; when the answer refuses the CSRF
    token, reads \a csrf's tokenPath (under \a urlPrefix; its answer sets the cookie) and sends
    the request once more with the cookie's new value. The answer of that second try is the
    request's, whatever it is: never more than one retry. Cancelling the future cancels the
    exchange in flight.
*/
QFuture<Response> fetchWithCsrfRetry(const RestEndpoint &endpoint, QNetworkAccessManager *network,
                                     const QUrl &target, const RequestInit &init, const Csrf &csrf,
                                     const QString &urlPrefix);

} // namespace DataClient::detail
