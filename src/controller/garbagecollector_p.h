// Garbage collection's bookkeeping and rules (docs/memory.md): the settings,
// when each result was last used, which shown keys were let go and when, and the pure time
// rules, kept apart from the Controller so that they are testable alone (tst_garbagecollection).
// The pass itself is GcManager::collect() (gcmanager.cpp).
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/params.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

#include <limits>
#include <utility>

namespace DataClient::detail {

class GarbageCollector
{
public:
    static constexpr qint64 DefaultGracePeriodMs = 5 * 60 * 1000;

    // The rules (pure) ---------------------------------------------------------------------------
    //! What was last used at or before this goes (\a now - \a grace, without overflow).
    static qint64 cutoff(qint64 now, qint64 grace)
    {
        return now < std::numeric_limits<qint64>::min() + grace ? std::numeric_limits<qint64>::min()
                                                                : now - grace;
    }
    //! When something last used at \a lastUse may go (without overflow).
    static qint64 dueAfter(qint64 lastUse, qint64 grace)
    {
        return lastUse > std::numeric_limits<qint64>::max() - grace
            ? std::numeric_limits<qint64>::max()
            : lastUse + grace;
    }
    //! Why \a value is refused as a grace period or budget (empty: accepted).
    static QString checkGracePeriod(qint64 value);
    static QString checkBudget(qint64 value);

    // Settings -----------------------------------------------------------------------------------
    bool enabled = true;
    qint64 gracePeriod = DefaultGracePeriodMs;
    qint64 budget = 0; //!< bytes; 0: none

    // Bookkeeping --------------------------------------------------------------------------------
    //! \a key was read or let go at \a now.
    void touch(const QString &key, qint64 now);
    //! The last use of \a key's result written at \a written: the later of the write and touch().
    qint64 lastUse(const QString &key, qint64 written) const;
    //! The last viewer of \a key went at \a now: a read of the entity table it showed stays a
    //! grace period longer.
    void release(const QString &key, const EndpointPtr &endpoint, const Params &params, qint64 now);
    struct Released
    {
        EndpointPtr endpoint;
        Params params;
        qint64 at = 0;
    };
    //! The keys let go after \a cutoff (older ones are forgotten).
    QList<Released> releasedAfter(qint64 cutoff);
    //! Forgets what is known of \a key's result (it was dropped).
    void forget(const QString &key) { m_touched.remove(key); }
    // Data read from disk -------------------------------------------------------------------------
    // Hydrated data carries the dates of an earlier run: by them it would be collected at the
    // first collection, offline too, before it could ever be revalidated. So what was written up to
    // the hydration counts as written when the network let it be revalidated, and never before.

    //! The store was hydrated at \a now with data written from \a oldest to \a newest.
    void hydrated(qint64 now, qint64 oldest, qint64 newest);
    //! The network is there from \a now (the first time since the hydration): what was read
    //! from disk could be revalidated, its grace period starts.
    void revalidatable(qint64 now);
    //! Whether read data waits for the network (revalidatable() not called since hydrated()).
    bool waitsForNetwork() const { return m_hydratedUpTo != NoTime && m_revalidatableAt == NoTime; }
    //! When data written at \a written counts as written for collection (NoTime: not yet).
    qint64 effectiveWrite(qint64 written) const;
    //! The StoreGarbageRequest::writtenBefore of a pass with \a cutoff: before anything read
    //! from disk while that is not to be collected yet.
    qint64 writtenBefore(qint64 cutoff) const;
    static constexpr qint64 NoTime = std::numeric_limits<qint64>::max();

    //! Forgets touches at or before \a cutoff of keys for which \a stored is false.
    template<typename Stored> void pruneTouches(qint64 cutoff, Stored stored)
    {
        m_touched.removeIf([&](QHash<QString, qint64>::iterator it) {
            return it.value() <= cutoff && !stored(it.key());
        });
    }
    void clear();

    //! The scheduler entry of the next pass, 0 for none.
    quint64 entry = 0;
    //! Entities changed since the last pass: some may be reached by nothing now.
    bool entitiesChanged = false;
    //! A pass is running (its own changes do not schedule another).
    bool collecting = false;
    //! The budget warning was given (once until the store fits again).
    bool warnedOverBudget = false;

private:
    qint64 m_hydratedUpTo = NoTime; //!< what was written up to this was read from disk
    qint64 m_hydratedFrom = NoTime; //!< its oldest write
    qint64 m_revalidatableAt = NoTime;
    QHash<QString, qint64> m_touched;
    QHash<QString, Released> m_released;
};

} // namespace DataClient::detail
