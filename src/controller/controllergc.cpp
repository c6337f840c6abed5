// Garbage collection and the memory budget (issue 18 item 4, docs/memory.md): the Controller
// knows what is referenced (shown keys, polled keys, keys let go less than a grace period ago,
// optimistic layers in the store) and when each result was last used; the Store drops what
// nothing reaches (Store::collectGarbage()). Passes wait through the one Scheduler, so a
// VirtualClock drives them in tests.
#include "controller_p.h"
#include "logging_p.h"

#include <QtCore/QPointer>

#include <algorithm>

namespace DataClient {

using detail::GarbageCollector;

void ControllerPrivate::GcRoots::add(const QString &key, const EndpointPtr &endpoint,
                                     const Params &params)
{
    keys.insert(key);
    if (endpoint && ControllerPrivate::canQueryEntityTable(*endpoint))
        reads.append({endpoint->schema(), endpoint->storeArguments(params)});
}

ControllerPrivate::GcRoots ControllerPrivate::gcRoots(bool released)
{
    GcRoots roots;
    const auto addAll = [&roots](const QList<std::pair<EndpointPtr, Params>> &keys) {
        for (const auto &[endpoint, params] : keys)
            roots.add(endpoint->key(params), endpoint, params);
    };
    addAll(shown.all());
    addAll(polls->polled());
    if (released) {
        const qint64 cutoff = GarbageCollector::cutoff(now(), gc.gracePeriod);
        for (const GarbageCollector::Released &let : gc.releasedAfter(cutoff))
            roots.add(let.endpoint->key(let.params), let.endpoint, let.params);
    }
    // The outbox of offline mutations (not there yet) adds the keys its items write here.
    // Optimistic layers need nothing: the store keeps what they write (Store::collectGarbage()).
    return roots;
}

int ControllerPrivate::collectGarbage()
{
    if (gc.collecting)
        return 0; // called from a changed() slot of the pass itself
    armGc(-1);
    if (!gc.enabled || shuttingDown)
        return 0;
    const qint64 at = now();
    const qint64 cutoff = GarbageCollector::cutoff(at, gc.gracePeriod);
    const GcRoots roots = gcRoots(true);

    // Results nothing references: gone when last used before the cutoff, else candidates for
    // the budget, least recently used first.
    StoreGarbageRequest request;
    request.keep = roots.reads;
    request.writtenBefore = gc.writtenBefore(cutoff);
    QList<std::pair<qint64, QString>> unreferenced;
    for (const QString &key : store->resultKeys()) {
        if (roots.keys.contains(key))
            continue;
        const qint64 lastUse = gc.lastUse(key, store->resultMeta(key).fetchedAt);
        if (lastUse <= cutoff)
            request.evictResults.append(key);
        else
            unreferenced.append({lastUse, key});
    }
    std::sort(unreferenced.begin(), unreferenced.end());

    gc.collecting = true;
    ChangeSet changes;
    int dropped = 0;
    qint64 oldestUnreachable = -1;
    const auto pass = [&](const StoreGarbageRequest &what) {
        StoreGarbageOutcome outcome = store->collectGarbage(what);
        for (const QString &key : std::as_const(outcome.changes.results)) {
            validators.forget(key); // they describe a result that is gone
            gc.forget(key);
            pagedLists.remove(key); // read again, the list starts anew
        }
        dropped += int(outcome.results + outcome.entities + outcome.collections);
        changes.unite(outcome.changes);
        oldestUnreachable = outcome.oldestUnreachable;
    };
    pass(request);

    // Over the budget: what nothing references goes in order of last use, the results and the
    // entities and collections last written up to each result's last use together.
    if (gc.budget > 0) {
        qsizetype next = 0;
        qint64 usage = store->memoryUsage();
        while (usage > gc.budget && (next < unreferenced.size() || oldestUnreachable >= 0)) {
            StoreGarbageRequest more;
            more.keep = roots.reads;
            if (next < unreferenced.size()) {
                const qint64 upTo = unreferenced.at(next).first;
                while (next < unreferenced.size() && unreferenced.at(next).first <= upTo)
                    more.evictResults.append(unreferenced.at(next++).second);
                more.writtenBefore = upTo;
            } else {
                more.writtenBefore = at; // only unreachable entities are left: all of them
            }
            pass(more);
            usage = store->memoryUsage();
            if (next >= unreferenced.size() && more.writtenBefore == at)
                break;
        }
        unreferenced.remove(0, next);
        if (usage > gc.budget && !gc.warnedOverBudget) {
            qCWarning(lcController).noquote()
                << QStringLiteral("Controller: the store takes %1 bytes, over its memory budget "
                                  "of %2: what is shown or pending is never dropped")
                       .arg(usage)
                       .arg(gc.budget);
        }
        gc.warnedOverBudget = usage > gc.budget;
    }
    gc.entitiesChanged = false;
    gc.pruneTouches(cutoff, [this](const QString &key) { return store->hasResult(key); });

    // The next pass: when the earliest of what stayed only for its grace period may go.
    qint64 due = -1;
    const auto consider = [&due, this](qint64 lastUse) {
        if (lastUse == GarbageCollector::NoTime)
            return; // read from disk, offline ever since: gcRevalidatable() schedules it
        const qint64 when = GarbageCollector::dueAfter(lastUse, gc.gracePeriod);
        if (due < 0 || when < due)
            due = when;
    };
    if (!unreferenced.isEmpty())
        consider(unreferenced.constFirst().first);
    if (oldestUnreachable >= 0)
        consider(gc.effectiveWrite(oldestUnreachable));
    for (const GarbageCollector::Released &let : gc.releasedAfter(cutoff))
        consider(let.at);
    armGc(due);

    qCDebug(lcController) << "garbage collection:" << dropped << "dropped;"
                          << store->resultKeys().size() << "results stay";
    // What the pass dropped changes nothing more for the collector (no new pass for it).
    const QPointer<Controller> alive(q);
    emitChanged(changes);
    if (alive)
        gc.collecting = false;
    return dropped;
}

void ControllerPrivate::armGc(qint64 due)
{
    if (due < 0 || !gc.enabled) {
        if (gc.entry)
            scheduler->cancel(gc.entry);
        gc.entry = 0;
        return;
    }
    if (gc.entry && scheduler->isScheduled(gc.entry)) {
        if (scheduler->dueOf(gc.entry) <= due)
            return;
        scheduler->cancel(gc.entry);
    }
    // No context object: the scheduler is the Controller's child and goes with it. A context
    // costs a connection to the Controller's destroyed() per entry, which Qt 6.4 does not free
    // when the entry is dropped: one pass a second left 88 bytes a pass behind for good.
    gc.entry = scheduler->scheduleAt(due, nullptr, [this] {
        gc.entry = 0;
        collectGarbage();
    });
}

void ControllerPrivate::updateGcSchedule(bool mayCancel)
{
    if (!gc.enabled || gc.collecting)
        return;
    if (!mayCancel && gc.entry && gc.budget <= 0)
        return; // the pass scheduled already looks at everything again
    // Something may go one grace period from now: a result nothing references, an entity a
    // write may have left unreferenced, a read of the entity table let go. Otherwise no pass
    // waits (a Controller that only shows what it holds has nothing scheduled).
    bool candidates = gc.entitiesChanged;
    if (!candidates) {
        const qint64 cutoff = GarbageCollector::cutoff(now(), gc.gracePeriod);
        const QList<GarbageCollector::Released> released = gc.releasedAfter(cutoff);
        candidates = std::any_of(released.cbegin(), released.cend(), [](const auto &let) {
            return ControllerPrivate::canQueryEntityTable(*let.endpoint);
        });
    }
    if (!candidates) {
        const GcRoots roots = gcRoots(false);
        const QStringList keys = store->resultKeys();
        candidates = std::any_of(keys.cbegin(), keys.cend(), [&roots](const QString &key) {
            return !roots.keys.contains(key);
        });
    }
    if (gc.budget > 0 && candidates)
        armGc(now()); // the budget is checked after every change, in the next pass
    else
        armGc(candidates ? GarbageCollector::dueAfter(now(), gc.gracePeriod) : -1);
}

void ControllerPrivate::gcReleased(const QString &key, const EndpointPtr &endpoint,
                                   const Params &params)
{
    if (shown.viewers(key) > 0 || polls->subscriberCount(key) > 0)
        return; // still referenced
    gc.release(key, endpoint, params, now());
    updateGcSchedule(false);
}

void ControllerPrivate::gcHydrated(qint64 oldest, qint64 newest)
{
    gc.hydrated(now(), oldest, newest);
    if (online)
        gcRevalidatable();
}

void ControllerPrivate::gcRevalidatable()
{
    if (!gc.waitsForNetwork())
        return;
    gc.revalidatable(now());
    // What was read from disk may go one grace period from now, if nothing shows it by then.
    armGc(GarbageCollector::dueAfter(now(), gc.gracePeriod));
}

void ControllerPrivate::gcNoteChanges(const ChangeSet &changes)
{
    if (gc.collecting)
        return;
    if (!changes.entities.isEmpty())
        gc.entitiesChanged = true;
    updateGcSchedule(false);
}

bool Controller::isGcEnabled() const
{
    return d->gc.enabled;
}

void Controller::setGcEnabled(bool enabled)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->gc.enabled == enabled)
        return;
    d->gc.enabled = enabled;
    if (enabled) {
        d->gc.entitiesChanged = true; // what changed meanwhile was not followed
        d->updateGcSchedule(false);
    } else {
        d->armGc(-1);
    }
    Q_EMIT gcEnabledChanged();
}

qint64 Controller::gcGracePeriodMs() const
{
    return d->gc.gracePeriod;
}

void Controller::setGcGracePeriodMs(qint64 ms)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (const QString why = GarbageCollector::checkGracePeriod(ms); !why.isEmpty()) {
        qCWarning(lcController).noquote()
            << QStringLiteral("Controller::setGcGracePeriodMs: %1; it stays %2 ms")
                   .arg(why)
                   .arg(d->gc.gracePeriod);
        return;
    }
    if (d->gc.gracePeriod == ms)
        return;
    d->gc.gracePeriod = ms;
    d->armGc(-1); // rescheduled with the new period
    d->gc.entitiesChanged = true;
    d->updateGcSchedule(false);
    Q_EMIT gcGracePeriodMsChanged();
}

qint64 Controller::memoryBudgetBytes() const
{
    return d->gc.budget;
}

void Controller::setMemoryBudgetBytes(qint64 bytes)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (const QString why = GarbageCollector::checkBudget(bytes); !why.isEmpty()) {
        qCWarning(lcController).noquote()
            << QStringLiteral("Controller::setMemoryBudgetBytes: %1; it stays %2")
                   .arg(why)
                   .arg(d->gc.budget);
        return;
    }
    if (d->gc.budget == bytes)
        return;
    d->gc.budget = bytes;
    d->gc.warnedOverBudget = false;
    d->armGc(-1); // due at once with a budget, a grace period later without
    d->updateGcSchedule(false);
    Q_EMIT memoryBudgetBytesChanged();
}

int Controller::collectGarbage()
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->collectGarbage();
}

} // namespace DataClient
