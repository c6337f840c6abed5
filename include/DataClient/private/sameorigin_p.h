// The web's origin (scheme, host and port): credentials and tokens stay within one.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QUrl>

namespace DataClient::detail {

//! Same scheme, host and port (default ports made explicit); never for a URL without a host.
DATACLIENT_REST_EXPORT bool sameOrigin(const QUrl &a, const QUrl &b);

} // namespace DataClient::detail
