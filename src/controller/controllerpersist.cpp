// The persisted store, the Controller's side (docs/offline.md): opening the file and hydrating
// the store from it before any query reads, checking the file's schema fingerprints, and the
// write-behind: a snapshot of the committed tables at most once per persistIntervalMs, waiting
// through the Controller's scheduler (DESIGN.md §6) and saved on a worker (PersistedFile).
#include "controller_p.h"
#include "logging_p.h"

#include <DataClient/private/storesnapshot_p.h>
#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>

#include <limits>

using namespace Qt::StringLiterals;

namespace DataClient {

using namespace detail;

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

QString ControllerPrivate::persistenceFilePath() const
{
    return persist->file ? persist->file->path() : QString();
}

void ControllerPrivate::openPersistence(const QString &setting)
{
    PersistState &p = *persist;
    const QString oldPath = persistenceFilePath();
    flushPersisted();
    if (p.timer && scheduler)
        scheduler->cancel(p.timer);
    p.timer = 0;
    delete p.file; // waits for a write in progress, then unlocks
    p.unchecked.clear();
    p.checked.clear();
    p.failures = 0;
    p.setting = setting;
    const QString path = resolvePath(setting);
    if (!path.isEmpty()) {
        auto *file = new PersistedFile(path, q);
        if (!file->error().isEmpty()) {
            const QString message = u"persistence refused: "_s + file->error();
            delete file;
            qCWarning(lcController).noquote() << message;
            Q_EMIT q->persistenceError(message);
        } else {
            p.file = file;
            QObject::connect(file, &PersistedFile::finished, q,
                             [this](const QString &error) { persistWritten(error); });
            SnapshotCodec::Decoded loaded = file->load();
            if (loaded.outcome == SnapshotCodec::Outcome::Loaded
                && !loaded.snapshot.entityTables.empty()) {
                makeStale(loaded.snapshot, now());
                const bool wasEmpty = store->entityCount() == 0 && store->resultKeys().isEmpty();
                QString why;
                if (loaded.snapshot.restoreInto(*store, &why)) {
                    p.unchecked = loaded.prints;
                    ChangeSet changes;
                    for (const SnapshotResult &result : loaded.snapshot.results)
                        changes.results.insert(result.key);
                    qCInfo(lcController).noquote()
                        << "hydrated" << loaded.snapshot.entityCount() << "entities and"
                        << loaded.snapshot.results.size() << "results from" << path;
                    qint64 newestDate = 0;
                    const auto [oldest, newest] = writeSpan(loaded.snapshot, &newestDate);
                    // The requests of this run are newer than what the last run stored, whatever
                    // the clock says (set back, or a virtual one that starts where it was).
                    lastRequestDate = std::max(lastRequestDate, newestDate);
                    gcHydrated(oldest, newest); // before emitChanged() schedules a pass
                    emitChanged(changes);
                    // What was just read is what the file holds: nothing to write back.
                    if (p.timer && scheduler)
                        scheduler->cancel(p.timer);
                    p.timer = 0;
                    p.dirty = false;
                } else if (wasEmpty) {
                    qCWarning(lcController).noquote()
                        << "dropped the persisted store" << path << "-" << why;
                    file->remove();
                } else {
                    qCInfo(lcController).noquote()
                        << "the store already holds data: not hydrated from" << path;
                    persistDirty();
                }
            } else if (loaded.outcome == SnapshotCodec::Outcome::Loaded
                       && store->entityCount() > 0) {
                persistDirty();
            }
        }
    }
    // The outbox lives beside the store, under the same lock (docs/offline.md).
    const QString filePath = persistenceFilePath();
    setOutboxFile(filePath.isEmpty() ? QString() : filePath + u".outbox"_s);
    if (filePath != oldPath)
        Q_EMIT q->persistenceChanged();
}

void ControllerPrivate::persistNoteSchema(const Schema &schema)
{
    PersistState &p = *persist;
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
            << "the schema of" << it.key() << "changed since" << persistenceFilePath()
            << "was written: the persisted store is dropped";
        p.unchecked.clear();
        if (p.file)
            p.file->remove();
        emitChanged(store->reset());
        return;
    }
}

void ControllerPrivate::persistNote(const RestEndpoint &endpoint, const QString &resultKey)
{
    PersistState &p = *persist;
    if (!p.file)
        return;
    if (!resultKey.isEmpty() && !endpoint.options().persist)
        p.leftOut.insert(resultKey);
    if (p.checked.contains(&endpoint))
        return;
    if (auto shared = endpoint.weak_from_this().lock())
        p.checked.insert(&endpoint, std::move(shared));
    persistNoteSchema(endpoint.schema());
}

void ControllerPrivate::persistDirty()
{
    PersistState &p = *persist;
    if (!p.file || !scheduler)
        return;
    p.dirty = true;
    if (p.timer || p.file->isWriting())
        return; // the write scheduled (or the one after the current) takes this change too
    // After a failure (a full disk, an unwritable folder) the retry waits longer each time.
    const qint64 wait
        = p.failures > 0 ? VerifiedWrite::retryDelayMs(p.failures, p.intervalMs) : p.intervalMs;
    const qint64 due = p.lastWrite < 0 ? now() : p.lastWrite + wait;
    p.timer = scheduler->scheduleAt(due, q, [this] {
        persist->timer = 0;
        persistWrite();
    });
}

void ControllerPrivate::persistWrite()
{
    PersistState &p = *persist;
    if (!p.file || !p.dirty)
        return;
    p.dirty = false;
    p.lastWrite = now();
    auto [snapshot, prints] = toWrite(p, *store);
    p.file->write(std::move(snapshot), std::move(prints));
}

void ControllerPrivate::persistWritten(const QString &error)
{
    PersistState &p = *persist;
    if (error.isEmpty()) {
        p.failures = 0;
        qCDebug(lcController).noquote() << "persisted the store to" << persistenceFilePath();
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
            Q_EMIT q->persistenceError(message);
        }
    }
    if (p.dirty) {
        p.dirty = false; // persistDirty() schedules the next one
        persistDirty();
    }
}

void ControllerPrivate::flushPersisted()
{
    PersistState &p = *persist;
    if (!p.file)
        return;
    // One write at a time; a write in progress that fails leaves its changes to this one.
    const bool lastFailed = !p.file->waitForWrite().isEmpty();
    if (!p.dirty && !lastFailed)
        return;
    if (p.timer && scheduler)
        scheduler->cancel(p.timer);
    p.timer = 0;
    p.dirty = false;
    const auto [snapshot, prints] = toWrite(p, *store);
    const QString error
        = VerifiedWrite::replace(p.file->path(), SnapshotCodec::encode(snapshot, prints));
    if (!error.isEmpty()) {
        // The last chance: what the store holds beyond the previous file is lost.
        qCWarning(lcController).noquote()
            << u"persisting the store failed: %1; the changes since the previous file are lost"_s
                   .arg(error);
    }
}

// Public API -------------------------------------------------------------------------------------

QString Controller::persistence() const
{
    return d->persist->setting;
}

void Controller::setPersistence(const QString &persistence)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (persistence == d->persist->setting)
        return;
    d->openPersistence(persistence);
}

int Controller::persistIntervalMs() const
{
    return d->persist->intervalMs;
}

void Controller::setPersistIntervalMs(int ms)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (ms < 0) {
        qCWarning(lcController) << "persistIntervalMs must not be negative, got" << ms;
        return;
    }
    if (ms == d->persist->intervalMs)
        return;
    d->persist->intervalMs = ms;
    Q_EMIT persistIntervalMsChanged();
}

void Controller::clearPersisted()
{
    DATACLIENT_ASSERT_THREAD(this);
    detail::PersistState &p = *d->persist;
    if (p.timer && d->scheduler)
        d->scheduler->cancel(p.timer);
    p.timer = 0;
    p.dirty = false;
    p.unchecked.clear();
    if (p.file)
        p.file->remove();
}

} // namespace DataClient
