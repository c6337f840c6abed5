// RetryPolicy: how often and how patiently a failed request is tried again.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QString>

namespace DataClient {

/*!
    The `retry` endpoint option. A failed attempt that can succeed later (connection refused or
    reset, timeout, HTTP 5xx, 408, 429) is tried again up to `count` times; attempt n+1 waits a
    random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))] ("full jitter"), or what a
    Retry-After header of a 429/503 answer asks (capped by maxDelayMs). Any other failure (other
    4xx, an answer that does not fit the schema) is final at once.

    EndpointOptions::retry unset means the default of the endpoint's kind: reads use
    RetryPolicy::forReads() (3 retries from 1 s, capped at 30 s), mutations never retry. A
    mutation opts in by setting it; `.retry = RetryPolicy::none()` turns retries off for a read.
*/
struct RetryPolicy
{
    //! Retries after the first attempt (0 = none). At most MaxCount.
    int count = 3;
    //! The backoff's first step in ms (attempt 2 waits up to this). 0 or more.
    int baseDelayMs = 1000;
    //! The cap of any wait in ms (also of Retry-After). At least baseDelayMs; at most MaxDelayMs.
    int maxDelayMs = 30000;

    //! Settings beyond these are refused as a mistake (NetworkError::Kind::InvalidRequest).
    static constexpr int MaxCount = 100;
    static constexpr int MaxDelayMs = 24 * 60 * 60 * 1000;

    static constexpr RetryPolicy forReads() { return {}; }
    static constexpr RetryPolicy none() { return {0, 0, 0}; }

    //! Empty when the settings are usable; otherwise a sentence saying what is wrong.
    QString problem() const
    {
        if (count < 0 || count > MaxCount)
            return QStringLiteral("retry.count must be 0 to %1; got %2").arg(MaxCount).arg(count);
        if (baseDelayMs < 0 || baseDelayMs > MaxDelayMs)
            return QStringLiteral("retry.baseDelayMs must be 0 to %1 ms; got %2")
                .arg(MaxDelayMs)
                .arg(baseDelayMs);
        if (maxDelayMs < baseDelayMs || maxDelayMs > MaxDelayMs)
            return QStringLiteral("retry.maxDelayMs must be %1 (baseDelayMs) to %2 ms; got %3")
                .arg(baseDelayMs)
                .arg(MaxDelayMs)
                .arg(maxDelayMs);
        return {};
    }

    friend constexpr bool operator==(const RetryPolicy &, const RetryPolicy &) = default;
};

} // namespace DataClient
