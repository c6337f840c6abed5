// PersistedFile: the one snapshot file of a Controller (docs/offline.md): its lock, loading it,
// and writing snapshots off the GUI thread with VerifiedWrite (a reader sees the previous file or
// the new one whole, never a torn one; a write that did not land is reported, never trusted). Scheduling the writes (at most one per interval) is the
// Controller's: it waits through the Controller's scheduler (persistencemanager.cpp).
#pragma once

#include <DataClient/private/persistglobal_p.h>
#include <DataClient/private/snapshotcodec_p.h>

#include <QtCore/QFuture>
#include <QtCore/QLockFile>
#include <QtCore/QObject>

#include <memory>

namespace DataClient::detail {

class DATACLIENT_PERSIST_EXPORT PersistedFile : public QObject
{
    Q_OBJECT
public:
    //! Locks \a path (a lock file beside it); check error() before use.
    explicit PersistedFile(const QString &path, QObject *parent = nullptr);
    //! Waits for a write in progress (the lock is released only once it is on disk).
    ~PersistedFile() override;

    QString path() const { return m_path; }
    //! Why the file cannot be used (another process or Controller holds it), or empty.
    QString error() const { return m_error; }

    //! Reads and decodes the file (the caller's thread). A missing file is Loaded and empty; a
    //! refused one is logged (a warning naming the file and the reason) and removed.
    SnapshotCodec::Decoded load();
    //! Encodes and saves \a snapshot on a worker. One write at a time: the caller waits for
    //! finished() before the next.
    void write(StoreSnapshot snapshot, SchemaPrints prints);
    bool isWriting() const { return m_writing.isRunning(); }
    //! Waits for a write in progress; the error of the last write (empty: it landed, or none).
    QString waitForWrite()
    {
        m_writing.waitForFinished();
        return m_writing.resultCount() > 0 ? m_writing.result() : QString();
    }
    //! Waits for a write in progress, then deletes the file (synchronous).
    void remove();

Q_SIGNALS:
    //! A write ended; \a error is empty when it reached the disk. Not emitted for a write that
    //! remove() overtook.
    void finished(const QString &error);

private:
    //! Deletes the temporary files of writes a killed process left (the lock is ours).
    void removeLeftovers();

    QString m_path;
    QString m_error;
    std::unique_ptr<QLockFile> m_lock;
    QFuture<QString> m_writing;
    //! remove() calls: a write started before one reports nothing (it wrote what was removed).
    quint64 m_removals = 0;
};

} // namespace DataClient::detail
