// Which failures are worth another attempt, and how long to wait before it: full
// jitter exponential backoff, overridden by a server's Retry-After.
#pragma once

#include <DataClient/private/testexport_p.h>
#include <DataClient/networkerror.h>
#include <DataClient/retrypolicy.h>

#include <QtCore/QByteArray>

#include <optional>

namespace DataClient::detail {

struct DATACLIENT_TEST_EXPORT RetryBackoff
{
    //! Connection refused or reset, timeout, HTTP 5xx, 408, 429: a later attempt may succeed.
    //! Never another 4xx, an answer that does not fit the schema, or a canceled request.
    static bool isRetriable(const NetworkError &error);
    /*!
        A Retry-After value (delta-seconds or an HTTP-date) as a wait in ms from \a now; nullopt
        when it is absent, unparsable or in the past (the backoff applies then).
    */
    static std::optional<qint64> retryAfterMs(const QByteArray &value, qint64 now);
    /*!
        The wait before attempt \a nextAttempt (2 = the first retry): Retry-After of a 429/503
        \a error when it has a usable one, else \a unit (uniform in [0, 1)) times the exponential
        step min(maxDelayMs, baseDelayMs * 2^(nextAttempt - 2)). Never above maxDelayMs.
    */
    static qint64 delayBefore(int nextAttempt, const RetryPolicy &policy, const NetworkError &error,
                              double unit, qint64 now);
};

} // namespace DataClient::detail
