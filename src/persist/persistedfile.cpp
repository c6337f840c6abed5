// PersistedFile (persistedfile_p.h): lock, load, write behind on a worker, remove.
#include "logging_p.h"

#include <DataClient/private/persistedfile_p.h>
#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QFutureWatcher>
#include <QtCore/QPromise>
#include <QtCore/QRegularExpression>
#include <QtCore/QThreadPool>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {
// A process killed between creating its lock file and writing its pid into it leaves a lock that
// names nobody. QLockFile calls such a lock stale only by its age (30 s by default), so every start
// within that time would run without persistence. A live owner writes its pid microseconds after
// creating the file: an unreadable lock older than this has no owner.
constexpr qint64 UnwrittenLockAgeMs = 100;

bool takeOverUnwrittenLock(QLockFile &lock, const QString &lockPath)
{
    qint64 pid = 0;
    QString host, app;
    if (lock.getLockInfo(&pid, &host, &app))
        return false; // names its owner: QLockFile decided (alive, or another host's)
    const QFileInfo info(lockPath);
    if (!info.exists()
        || info.lastModified().msecsTo(QDateTime::currentDateTime()) < UnwrittenLockAgeMs)
        return false;
    qCInfo(lcPersist).noquote() << "taking over" << lockPath
                                << "(empty or unreadable: its process died while creating it)";
    return lock.removeStaleLockFile();
}
} // namespace

PersistedFile::PersistedFile(const QString &path, QObject *parent) : QObject(parent), m_path(path)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        // Not fatal: writes will fail with the reason and the app keeps working in memory.
        qCWarning(lcPersist).noquote() << "cannot create the folder of" << path;
    }
    const QString lockPath = path + u".lock"_s;
    m_lock = std::make_unique<QLockFile>(lockPath);
    bool locked = m_lock->tryLock(0);
    if (!locked && m_lock->error() == QLockFile::LockFailedError
        && takeOverUnwrittenLock(*m_lock, lockPath))
        locked = m_lock->tryLock(0);
    // QLockFile removes a stale lock under a guard, "<lock>.rmlock", itself a lock file: a
    // process killed while creating that guard leaves it unwritten, and QLockFile would then
    // keep the stale lock (and refuse us) for 30 s. Such a guard has no owner either.
    if (!locked && m_lock->error() == QLockFile::LockFailedError) {
        const QString guardPath = lockPath + u".rmlock"_s;
        QLockFile guard(guardPath);
        if (takeOverUnwrittenLock(guard, guardPath))
            locked = m_lock->tryLock(0);
    }
    if (!locked) {
        qint64 pid = 0;
        QString host, app;
        m_lock->getLockInfo(&pid, &host, &app);
        m_error = m_lock->error() == QLockFile::LockFailedError
            ? u"%1 is in use by another Controller (process %2 %3 holds %1.lock)"_s.arg(
                path, QString::number(pid), app)
            : u"cannot lock %1 (%1.lock: permission denied or unwritable folder)"_s.arg(path);
        m_lock.reset();
        return;
    }
    removeLeftovers();
}

void PersistedFile::removeLeftovers()
{
    // A write goes to "<name>.XXXXXX" and renames it (VerifiedWrite); a process killed before the
    // rename leaves it behind, and the same for the outbox beside the file ("<name>.outbox.XXXXXX"). Ours (we
    // hold the lock, so nobody else writes one now); `<name>.outbox` itself is not one.
    const QFileInfo info(m_path);
    static const QRegularExpression temporary(u"^(\\.outbox)?\\.[A-Za-z0-9]{6}$"_s);
    const QStringList names = info.dir().entryList({info.fileName() + u".*"_s}, QDir::Files);
    for (const QString &name : names) {
        const QString suffix = name.mid(info.fileName().size());
        if (suffix != u".outbox"_s && temporary.match(suffix).hasMatch())
            QFile::remove(info.dir().filePath(name));
    }
}

PersistedFile::~PersistedFile()
{
    m_writing.waitForFinished();
}

SnapshotCodec::Decoded PersistedFile::load()
{
    QFile file(m_path);
    if (!file.exists()) {
        SnapshotCodec::Decoded none;
        none.outcome = SnapshotCodec::Outcome::Loaded;
        return none;
    }
    SnapshotCodec::Decoded decoded;
    if (!file.open(QIODevice::ReadOnly)) {
        decoded.reason = u"cannot read it: "_s + file.errorString();
    } else {
        // Mapped, not copied: the decoder reads each byte once.
        const qint64 size = file.size();
        const uchar *map = size > 0 ? file.map(0, size) : nullptr;
        const QByteArray read = map ? QByteArray() : file.readAll();
        decoded = SnapshotCodec::decode(map ? QByteArrayView(map, size) : QByteArrayView(read));
        if (map)
            file.unmap(const_cast<uchar *>(map));
    }
    if (decoded.outcome != SnapshotCodec::Outcome::Loaded) {
        qCWarning(lcPersist).noquote()
            << "dropped the persisted store" << m_path << "-" << decoded.reason;
        file.close();
        QFile::remove(m_path);
    }
    return decoded;
}

void PersistedFile::write(StoreSnapshot snapshot, SchemaPrints prints)
{
    Q_ASSERT(!isWriting());
    auto promise = std::make_shared<QPromise<QString>>();
    m_writing = promise->future();
    promise->start();
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, removals = m_removals] {
        watcher->deleteLater();
        if (removals == m_removals) // else the file was removed since: nothing is left to write
            Q_EMIT finished(watcher->future().result());
    });
    watcher->setFuture(m_writing);
    QThreadPool::globalInstance()->start([promise, path = m_path, snapshot = std::move(snapshot),
                                          prints = std::move(prints)] {
        promise->addResult(VerifiedWrite::replace(path, SnapshotCodec::encode(snapshot, prints)));
        promise->finish();
    });
}

void PersistedFile::remove()
{
    m_writing.waitForFinished();
    m_writing = {}; // its outcome no longer matters: nothing of it is left to write
    ++m_removals;
    QFile::remove(m_path);
}

} // namespace DataClient::detail
