// Expiry policy: when a stored response or error stops being fresh.
#pragma once

#include <DataClient/private/testexport_p.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/expirystatus.h>

#include <QtCore/QtGlobal>

namespace DataClient::detail {

//! Pure functions, so the rules are testable without a clock or a network.
struct DATACLIENT_TEST_EXPORT ExpiryPolicy
{
    //! A length <= 0 means "not set": the default (DefaultDataExpiryLength,
    //! DefaultErrorExpiryLength, the option table's) applies. (An endpoint that must never be
    //! cached can still set 1.)
    static qint64 dataExpiryLength(qint64 endpointLength);
    static qint64 errorExpiryLength(qint64 endpointLength);

    //! What getResponse() reports. \a found: data is stored (or inferable from the entity
    //! table); \a invalidated: invalidate()/reset happened since the last response;
    //! \a hasError: an error is stored for the key (its expiry is then \a expiresAt, since an
    //! error is always newer than the data it sits on); \a expiresAt: 0 = already expired.
    static ExpiryStatus status(bool found, bool invalidated, bool hasError, qint64 expiresAt,
                               qint64 now);

    //! Errors with status >= 500 are soft: existing data stays visible. Status 0 (no HTTP
    //! answer at all: connection refused, timeout, abort) is hard, as in the reference.
    static bool isSoftError(int httpStatus) { return httpStatus >= 500; }
};

} // namespace DataClient::detail
