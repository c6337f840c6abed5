#include "persistencemanager_p.h"

#include "controller_p.h"
#include "gcmanager_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "outboxmanager_p.h"
#include "scheduler_p.h"

#include <DataClient/private/storesnapshot_p.h>
#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>

#include <limits>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

QString resolvePath(const QString &setting)
{
    if (setting.isEmpty())
        return {};
    if (setting == u"default"_s) {
        return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
            + u"/dataclient/store.dcstore"_s;
    }
    return QFileInfo(setting).absoluteFilePath();
}

//! What hydrated data shows: the values as stored, Stale (queries revalidate them).
void makeStale(StoreSnapshot &snapshot, qint64 now)
{
    const auto stale = [now](Meta &meta) { meta.expiresAt = std::min(meta.expiresAt, now); };
    for (SnapshotEntityTable &table : snapshot.entityTables) {
        for (SnapshotEntity &entity : table.slots)
            stale(entity.meta);
    }
    for (SnapshotCollectionTable &table : snapshot.collectionTables) {
        for (SnapshotCollection &collection : table.slots)
            stale(collection.meta);
    }
    for (SnapshotResult &result : snapshot.results)
        stale(result.meta);
}

//! The earliest and the latest write (Meta::fetchedAt) in \a snapshot; \a newestDate receives
//! the latest request date (Meta::date).
std::pair<qint64, qint64> writeSpan(const StoreSnapshot &snapshot, qint64 *newestDate)
{
    qint64 oldest = std::numeric_limits<qint64>::max();
    qint64 newest = std::numeric_limits<qint64>::min();
    *newestDate = 0;
    const auto note = [&](const Meta &meta) {
        oldest = std::min(oldest, meta.fetchedAt);
        newest = std::max(newest, meta.fetchedAt);
        *newestDate = std::max(*newestDate, meta.date);
    };
    for (const SnapshotEntityTable &table : snapshot.entityTables) {
        for (const SnapshotEntity &entity : table.slots)
            note(entity.meta);
    }
    for (const SnapshotCollectionTable &table : snapshot.collectionTables) {
        for (const SnapshotCollection &collection : table.slots)
            note(collection.meta);
    }
    for (const SnapshotResult &result : snapshot.results)
        note(result.meta);
    return {oldest, newest};
}

//! What a write saves: the committed tables without what is left out, and the fingerprints of
//! this run's schemas and of the hydrated keys not read yet (as the file had them).
std::pair<StoreSnapshot, SchemaPrints> toWrite(const PersistState &p, const Store &store)
{
    SchemaPrints prints = p.current;
    for (auto it = p.unchecked.cbegin(); it != p.unchecked.cend(); ++it)
        prints.insert(it.key(), it.value());
    return {StoreSnapshot::take(store, SnapshotFilter {p.leftOutEntities, p.leftOut}),
            std::move(prints)};
}

} // namespace

PersistenceManager::PersistenceManager(ControllerPrivate &core)
    : Lifecycle(core, Read | StoreChanged | StoreReset | Closing)
{ }

QString PersistenceManager::filePath() const
{
    return state.file ? state.file->path() : QString();
}

void PersistenceManager::read(const RestEndpoint &endpoint, const QString &resultKey)
{
    PersistState &p = state;
    if (!p.file)
        return;
    if (!resultKey.isEmpty() && !endpoint.options().persist)
        p.leftOut.insert(resultKey);
    if (p.checked.contains(&endpoint))
        return;
    if (auto shared = endpoint.weak_from_this().lock())
        p.checked.insert(&endpoint, std::move(shared));
    noteSchema(endpoint.schema());
}

void PersistenceManager::readSchema(const Schema &schema)
{
    if (!state.unchecked.isEmpty())
        noteSchema(schema);
}

void PersistenceManager::writingSchema(const Schema &schema)
{
    noteSchema(schema);
}

void PersistenceManager::storeChanged(const ChangeSet &, bool committed)
{
    if (committed)
        markDirty();
}

void PersistenceManager::storeReset()
{
    clear();
}

void PersistenceManager::closing()
{
    flush();
}

void PersistenceManager::open(const QString &setting)
{
    PersistState &p = state;
    ControllerPrivate &d = core;
    Controller *q = core.q;
    const QString oldPath = filePath();
    flush();
    if (p.timer && d.scheduler)
        d.scheduler->cancel(p.timer);
    p.timer = 0;
    delete p.file; // waits for a write in progress, then unlocks
    p.unchecked.clear();
    p.checked.clear();
    p.failures = 0;
    p.setting = setting;
    const QString resolved = resolvePath(setting);
    if (!resolved.isEmpty()) {
        auto *file = new PersistedFile(resolved, q);
        if (!file->error().isEmpty()) {
            const QString message = u"persistence refused: "_s + file->error();
            delete file;
            qCWarning(lcController).noquote() << message;
            Q_EMIT q->persistenceError(message);
        } else {
            p.file = file;
            QObject::connect(file, &PersistedFile::finished, q,
                             [this](const QString &error) { written(error); });
            SnapshotCodec::Decoded loaded = file->load();
            if (loaded.outcome == SnapshotCodec::Outcome::Loaded
                && !loaded.snapshot.entityTables.empty()) {
                makeStale(loaded.snapshot, d.now());
                const bool wasEmpty
                    = d.store->entityCount() == 0 && d.store->resultKeys().isEmpty();
                QString why;
                if (loaded.snapshot.restoreInto(*d.store, &why)) {
                    p.unchecked = loaded.prints;
                    ChangeSet changes;
                    for (const SnapshotResult &result : loaded.snapshot.results)
                        changes.results.insert(result.key);
                    qCInfo(lcController).noquote()
                        << "hydrated" << loaded.snapshot.entityCount() << "entities and"
                        << loaded.snapshot.results.size() << "results from" << resolved;
                    qint64 newestDate = 0;
                    const auto [oldest, newest] = writeSpan(loaded.snapshot, &newestDate);
                    // The requests of this run are newer than what the last run stored, whatever
                    // the clock says (set back, or a virtual one that starts where it was).
                    d.lastRequestDate = std::max(d.lastRequestDate, newestDate);
                    // Before emitChanged() schedules a pass.
                    d.managers->gc->hydrated(oldest, newest);
                    d.emitChanged(changes, ChangeOrigin::Hydration);
                    // What was just read is what the file holds: nothing to write back.
                    if (p.timer && d.scheduler)
                        d.scheduler->cancel(p.timer);
                    p.timer = 0;
                    p.dirty = false;
                } else if (wasEmpty) {
                    qCWarning(lcController).noquote()
                        << "dropped the persisted store" << resolved << "-" << why;
                    file->remove();
                } else {
                    qCInfo(lcController).noquote()
                        << "the store already holds data: not hydrated from" << resolved;
                    markDirty();
                }
            } else if (loaded.outcome == SnapshotCodec::Outcome::Loaded
                       && d.store->entityCount() > 0) {
                markDirty();
            }
        }
    }
    // The outbox lives beside the store, under the same lock (docs/offline.md).
    const QString path = filePath();
    d.managers->outbox->setFile(path.isEmpty() ? QString() : path + u".outbox"_s);
    if (path != oldPath)
        Q_EMIT q->persistenceChanged();
}

void PersistenceManager::noteSchema(const Schema &schema)
{
    PersistState &p = state;
    SnapshotCodec::addPrints(schema, &p.current, &p.leftOutEntities);
    if (p.unchecked.isEmpty())
        return;
    for (auto it = p.current.cbegin(); it != p.current.cend(); ++it) {
        const auto stored = p.unchecked.constFind(it.key());
        if (stored == p.unchecked.cend())
            continue;
        if (stored.value() == it.value()) {
            p.unchecked.erase(stored);
            continue;
        }
        // Never misread: the stored records were written under another schema.
        qCInfo(lcController).noquote()
            << "the schema of" << it.key() << "changed since" << filePath()
            << "was written: the persisted store is dropped";
        p.unchecked.clear();
        if (p.file)
            p.file->remove();
        core.emitChanged(core.store->reset(), ChangeOrigin::Reset);
        return;
    }
}

void PersistenceManager::markDirty()
{
    PersistState &p = state;
    if (!p.file || !core.scheduler)
        return;
    p.dirty = true;
    if (p.timer || p.file->isWriting())
        return; // the write scheduled (or the one after the current) takes this change too
    // After a failure (a full disk, an unwritable folder) the retry waits longer each time.
    const qint64 wait
        = p.failures > 0 ? VerifiedWrite::retryDelayMs(p.failures, p.intervalMs) : p.intervalMs;
    const qint64 due = p.lastWrite < 0 ? core.now() : p.lastWrite + wait;
    p.timer = core.scheduler->scheduleAt(due, core.q, [this] {
        state.timer = 0;
        write();
    });
}

void PersistenceManager::write()
{
    PersistState &p = state;
    if (!p.file || !p.dirty)
        return;
    p.dirty = false;
    p.lastWrite = core.now();
    auto [snapshot, prints] = toWrite(p, *core.store);
    p.file->write(std::move(snapshot), std::move(prints));
}

void PersistenceManager::written(const QString &error)
{
    PersistState &p = state;
    if (error.isEmpty()) {
        p.failures = 0;
        qCDebug(lcController).noquote() << "persisted the store to" << filePath();
    } else {
        // What this write held is not on disk: the next write (or the Controller's end) takes it.
        p.dirty = true;
        if (++p.failures == 1) {
            // Once: the app keeps working in memory; the next success re-arms the warning.
            const QString message
                = u"persisting the store failed: %1; the store keeps working in memory, and its "
                  "changes are written when a write succeeds (tried again in %2 ms, then less "
                  "often, and when the Controller is destroyed)"_s.arg(error)
                      .arg(VerifiedWrite::retryDelayMs(p.failures, p.intervalMs));
            qCWarning(lcController).noquote() << message;
            Q_EMIT core.q->persistenceError(message);
        }
    }
    if (p.dirty) {
        p.dirty = false; // markDirty() schedules the next one
        markDirty();
    }
}

void PersistenceManager::flush()
{
    PersistState &p = state;
    if (!p.file)
        return;
    // One write at a time; a write in progress that fails leaves its changes to this one.
    const bool lastFailed = !p.file->waitForWrite().isEmpty();
    if (!p.dirty && !lastFailed)
        return;
    if (p.timer && core.scheduler)
        core.scheduler->cancel(p.timer);
    p.timer = 0;
    p.dirty = false;
    const auto [snapshot, prints] = toWrite(p, *core.store);
    const QString error
        = VerifiedWrite::replace(p.file->path(), SnapshotCodec::encode(snapshot, prints));
    if (!error.isEmpty()) {
        // The last chance: what the store holds beyond the previous file is lost.
        qCWarning(lcController).noquote()
            << u"persisting the store failed: %1; the changes since the previous file are lost"_s
                   .arg(error);
    }
}

void PersistenceManager::clear()
{
    PersistState &p = state;
    if (p.timer && core.scheduler)
        core.scheduler->cancel(p.timer);
    p.timer = 0;
    p.dirty = false;
    p.unchecked.clear();
    if (p.file)
        p.file->remove();
}

} // namespace DataClient::detail

namespace DataClient {

QString Controller::persistence() const
{
    return d->managers->persistence->state.setting;
}

void Controller::setPersistence(const QString &persistence)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (persistence == d->managers->persistence->state.setting)
        return;
    d->managers->persistence->open(persistence);
}

int Controller::persistIntervalMs() const
{
    return d->managers->persistence->state.intervalMs;
}

void Controller::setPersistIntervalMs(int ms)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (ms < 0) {
        qCWarning(lcController) << "persistIntervalMs must not be negative, got" << ms;
        return;
    }
    if (ms == d->managers->persistence->state.intervalMs)
        return;
    d->managers->persistence->state.intervalMs = ms;
    Q_EMIT persistIntervalMsChanged();
}

void Controller::clearPersisted()
{
    DATACLIENT_ASSERT_THREAD(this);
    d->managers->persistence->clear();
}

} // namespace DataClient
