#include "expirypolicy_p.h"

namespace DataClient::detail {

qint64 ExpiryPolicy::dataExpiryLength(qint64 endpointLength)
{
    return endpointLength > 0 ? endpointLength : DefaultDataExpiryLength;
}

qint64 ExpiryPolicy::errorExpiryLength(qint64 endpointLength)
{
    return endpointLength > 0 ? endpointLength : DefaultErrorExpiryLength;
}

ExpiryStatus ExpiryPolicy::status(bool found, bool invalidated, bool hasError, qint64 expiresAt,
                                  qint64 now)
{
    if (invalidated)
        return ExpiryStatus::Invalid;
    if (!found && !hasError)
        return ExpiryStatus::Invalid;
    // An error without data is still "fresh" until errorExpiryLength has passed: a query shows
    // the error and does not hammer the server; after that it is stale and gets retried.
    return now < expiresAt ? ExpiryStatus::Valid : ExpiryStatus::Stale;
}

} // namespace DataClient::detail
