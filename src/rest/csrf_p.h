// The option `csrf`: the token cookie sent back in a header on unsafe same-origin requests.
#pragma once

#include <DataClient/requestinit.h>
#include <DataClient/serverconventions.h>

#include <QtCore/QUrl>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace DataClient::detail {

//! Whether \a csrf applies to a \a method request to \a target from an endpoint on \a origin:
//! a CSRF option is set, the method is unsafe (not GET, HEAD, OPTIONS, TRACE) and the target is
//! on the endpoint's origin (an endpoint without an absolute urlPrefix counts as its own).
bool csrfApplies(const Csrf &csrf, const QByteArray &method, const QUrl &target,
                 const QUrl &origin);
/*!
    Sets \a csrf's header on \a init from the cookie of that name that \a network's cookie jar
    holds for \a target, read now (so a token a login just replaced is the one sent). A header
    of that name already on \a init is kept. Returns false when the jar has no such cookie
    (nothing is set then).
*/
bool addCsrfHeader(const Csrf &csrf, QNetworkAccessManager *network, const QUrl &target,
                   RequestInit &init);
//! The message of a 403 answer to a request sent without the CSRF cookie \a csrf names.
QString missingCsrfCookieNote(const Csrf &csrf);

} // namespace DataClient::detail
