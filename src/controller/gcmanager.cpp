#include "gcmanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "scheduler_p.h"

#include <DataClient/private/storelayers_p.h>

#include <QtCore/QPointer>

#include <algorithm>

namespace DataClient::detail {

GcManager::GcManager(ControllerPrivate &core)
    : Lifecycle(core, Read | StoreChanged | Released | Referenced | OnlineChanged | StoreReset)
{ }

void GcManager::read(const RestEndpoint &, const QString &resultKey)
{
    gc.touch(resultKey, core.now());
}

void GcManager::storeChanged(const ChangeSet &changes, bool)
{
    if (changes.isEmpty() || gc.collecting)
        return;
    if (!changes.entities.isEmpty())
        gc.entitiesChanged = true;
    updateSchedule(false);
}

void GcManager::referenced()
{
    updateSchedule(true);
}

void GcManager::onlineChanged(bool online)
{
    if (online)
        revalidatable();
}

void GcManager::storeReset()
{
    gc.clear(); // nothing is left to collect
    arm(-1);
}

void GcManager::Kept::add(const QString &key, const EndpointPtr &endpoint, const Params &params)
{
    keys.insert(key);
    if (endpoint && detail::canQueryEntityTable(*endpoint))
        reads.append({endpoint->schema(), endpoint->storeArguments(params)});
}

GcManager::Kept GcManager::kept(bool released)
{
    Kept roots;
    QList<std::pair<EndpointPtr, Params>> referenced;
    core.each(Lifecycle::Roots, [&](const Lifecycle &manager) { manager.roots(&referenced); });
    for (const auto &[endpoint, params] : std::as_const(referenced))
        roots.add(endpoint->key(params), endpoint, params);
    if (released) {
        const qint64 cutoff = GarbageCollector::cutoff(core.now(), gc.gracePeriod);
        for (const GarbageCollector::Released &let : gc.releasedAfter(cutoff))
            roots.add(let.endpoint->key(let.params), let.endpoint, let.params);
    }
    // The outbox of offline mutations (not there yet) adds the keys its items write here.
    // Optimistic layers need nothing: the store keeps what they write (StoreLayers::collectGarbage()).
    return roots;
}

int GcManager::collect()
{
    if (gc.collecting)
        return 0; // called from a changed() slot of the pass itself
    arm(-1);
    if (!gc.enabled || core.shuttingDown)
        return 0;
    Store *store = core.store.get();
    const qint64 at = core.now();
    const qint64 cutoff = GarbageCollector::cutoff(at, gc.gracePeriod);
    const Kept roots = kept(true);

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
    qsizetype results = 0, entities = 0, collections = 0;
    qint64 oldestUnreachable = -1;
    const auto pass = [&](const StoreGarbageRequest &what) {
        StoreGarbageOutcome outcome = StoreLayers::collectGarbage(*store, what);
        for (const QString &key : std::as_const(outcome.changes.results))
            gc.forget(key);
        if (!outcome.changes.results.isEmpty()) {
            const QSet<QString> &dropped = outcome.changes.results;
            core.each(Lifecycle::ResultsDropped,
                      [&dropped](Lifecycle &manager) { manager.resultsDropped(dropped); });
        }
        dropped += int(outcome.results + outcome.entities + outcome.collections);
        results += outcome.results;
        entities += outcome.entities;
        collections += outcome.collections;
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
    gc.pruneTouches(cutoff, [store](const QString &key) { return store->hasResult(key); });

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
    arm(due);

    qCDebug(lcController) << "garbage collection:" << dropped << "dropped;"
                          << store->resultKeys().size() << "results stay";
    lastPass = {at, results, entities, collections, changes}; // names are made when read
    // What the pass dropped changes nothing more for the collector (no new pass for it).
    const QPointer<Controller> alive(core.q);
    core.emitChanged(changes, ChangeOrigin::GarbageCollection);
    if (alive)
        gc.collecting = false;
    return dropped;
}

void GcManager::arm(qint64 due)
{
    Scheduler *scheduler = core.scheduler;
    if (!scheduler)
        return;
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
        collect();
    });
}

void GcManager::updateSchedule(bool mayCancel)
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
        const qint64 cutoff = GarbageCollector::cutoff(core.now(), gc.gracePeriod);
        const QList<GarbageCollector::Released> released = gc.releasedAfter(cutoff);
        candidates = std::any_of(released.cbegin(), released.cend(), [](const auto &let) {
            return detail::canQueryEntityTable(*let.endpoint);
        });
    }
    if (!candidates) {
        const Kept stays = kept(false);
        const QStringList keys = core.store->resultKeys();
        candidates = std::any_of(keys.cbegin(), keys.cend(), [&stays](const QString &key) {
            return !stays.keys.contains(key);
        });
    }
    if (gc.budget > 0 && candidates)
        arm(core.now()); // the budget is checked after every change, in the next pass
    else
        arm(candidates ? GarbageCollector::dueAfter(core.now(), gc.gracePeriod) : -1);
}

void GcManager::released(const QString &key, const EndpointPtr &endpoint, const Params &params)
{
    bool referenced = false;
    core.each(Lifecycle::Roots,
              [&](const Lifecycle &manager) { referenced = referenced || manager.refers(key); });
    if (referenced)
        return; // still shown or polled
    gc.release(key, endpoint, params, core.now());
    updateSchedule(false);
}

void GcManager::hydrated(qint64 oldest, qint64 newest)
{
    gc.hydrated(core.now(), oldest, newest);
    if (core.online)
        revalidatable();
}

void GcManager::revalidatable()
{
    if (!gc.waitsForNetwork())
        return;
    gc.revalidatable(core.now());
    // What was read from disk may go one grace period from now, if nothing shows it by then.
    arm(GarbageCollector::dueAfter(core.now(), gc.gracePeriod));
}

} // namespace DataClient::detail

namespace DataClient {

using detail::GarbageCollector;

bool Controller::isGcEnabled() const
{
    return d->managers->gc->gc.enabled;
}

void Controller::setGcEnabled(bool enabled)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->managers->gc->gc.enabled == enabled)
        return;
    d->managers->gc->gc.enabled = enabled;
    if (enabled) {
        d->managers->gc->gc.entitiesChanged = true; // what changed meanwhile was not followed
        d->managers->gc->updateSchedule(false);
    } else {
        d->managers->gc->arm(-1);
    }
    Q_EMIT gcEnabledChanged();
}

qint64 Controller::gcGracePeriodMs() const
{
    return d->managers->gc->gc.gracePeriod;
}

void Controller::setGcGracePeriodMs(qint64 ms)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (const QString why = GarbageCollector::checkGracePeriod(ms); !why.isEmpty()) {
        qCWarning(lcController).noquote()
            << QStringLiteral("Controller::setGcGracePeriodMs: %1; it stays %2 ms")
                   .arg(why)
                   .arg(d->managers->gc->gc.gracePeriod);
        return;
    }
    if (d->managers->gc->gc.gracePeriod == ms)
        return;
    d->managers->gc->gc.gracePeriod = ms;
    d->managers->gc->arm(-1); // rescheduled with the new period
    d->managers->gc->gc.entitiesChanged = true;
    d->managers->gc->updateSchedule(false);
    Q_EMIT gcGracePeriodMsChanged();
}

qint64 Controller::memoryBudgetBytes() const
{
    return d->managers->gc->gc.budget;
}

void Controller::setMemoryBudgetBytes(qint64 bytes)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (const QString why = GarbageCollector::checkBudget(bytes); !why.isEmpty()) {
        qCWarning(lcController).noquote()
            << QStringLiteral("Controller::setMemoryBudgetBytes: %1; it stays %2")
                   .arg(why)
                   .arg(d->managers->gc->gc.budget);
        return;
    }
    if (d->managers->gc->gc.budget == bytes)
        return;
    d->managers->gc->gc.budget = bytes;
    d->managers->gc->gc.warnedOverBudget = false;
    d->managers->gc->arm(-1); // due at once with a budget, a grace period later without
    d->managers->gc->updateSchedule(false);
    Q_EMIT memoryBudgetBytesChanged();
}

int Controller::collectGarbage()
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->managers->gc->collect();
}

} // namespace DataClient
