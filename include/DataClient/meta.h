// Meta: timing facts about one stored entity or result (the race rule
// and expiry: docs/controller.md).
#pragma once

#include <QtCore/QtGlobal>

namespace DataClient {

//! Times in milliseconds since the epoch; 0 means unknown/never.
struct Meta
{
    //! When the request that produced the value was sent, or for a mutation's confirmed answer
    //! when it arrived (the race rule compares this).
    qint64 date = 0;
    //! When the value was received.
    qint64 fetchedAt = 0;
    //! When it becomes stale.
    qint64 expiresAt = 0;

    friend bool operator==(const Meta &a, const Meta &b)
    {
        return a.date == b.date && a.fetchedAt == b.fetchedAt && a.expiresAt == b.expiresAt;
    }
    friend bool operator!=(const Meta &a, const Meta &b) { return !(a == b); }
};

} // namespace DataClient
