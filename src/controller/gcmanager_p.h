// Garbage collection and the memory budget (docs/memory.md): the Controller knows what is
// referenced (shown keys, polled keys, keys let go less than a grace period ago, optimistic
// guesses in the store) and when each result was last used; the Store drops what nothing reaches
// (Store::collectGarbage()). Passes wait through the one Scheduler, so a VirtualClock drives them
// in tests.
#pragma once

#include "garbagecollector_p.h"
#include "lifecycle_p.h"

namespace DataClient::detail {

class GcManager final : public Lifecycle
{
public:
    explicit GcManager(ControllerPrivate &core);

    //! A read is a use: the least recently used goes first.
    void read(const RestEndpoint &endpoint, const QString &resultKey) override;
    void storeChanged(const ChangeSet &changes, bool committed) override;
    //! The last viewer or subscriber of a key went: it may go a grace period from now.
    void released(const QString &key, const EndpointPtr &endpoint, const Params &params) override;
    //! A key became referenced: the pass scheduled may have nothing left to do.
    void referenced() override;
    //! The network is there: the grace period of what was read from disk starts.
    void onlineChanged(bool online) override;
    void storeReset() override;

    //! The pass of Controller::collectGarbage(); returns how much it dropped.
    int collect();
    //! Schedules a pass after something changed what could be dropped; \a mayCancel: a key
    //! became referenced, so the pass scheduled may have nothing left to do (cancels it).
    void updateSchedule(bool mayCancel);
    //! Schedules a pass at \a due unless one is due earlier; -1 cancels it.
    void arm(qint64 due);
    //! The store was hydrated with data written from \a oldest to \a newest: none of it is
    //! collected before it could be revalidated.
    void hydrated(qint64 oldest, qint64 newest);

    GarbageCollector gc;
    //! The last pass and what it dropped (the store inspector reads it: lastGcPass()).
    struct LastPass
    {
        qint64 at = 0;
        qsizetype results = 0;
        qsizetype entities = 0;
        qsizetype collections = 0;
        ChangeSet dropped; // shared with the pass's changed(): no pk is made for it here
    } lastPass;

private:
    //! What garbage collection keeps: shown and polled keys (and, with \a released, keys let go
    //! less than a grace period ago), as keys and as reads of the entity table.
    struct Kept
    {
        QSet<QString> keys;
        QList<std::pair<Schema, Params>> reads;
        void add(const QString &key, const EndpointPtr &endpoint, const Params &params);
    };
    Kept kept(bool released);
    void revalidatable();
};

} // namespace DataClient::detail
