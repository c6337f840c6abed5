// A small tmpfs of its own for a test that needs a full disk: mounted on a temporary folder when
// the test runs as root (as CI runs the suite), unmounted when it goes. Otherwise error() says
// why, and the test skips with that message:
//
//     SmallTmpfs disk;
//     if (!disk.error().isEmpty())
//         QSKIP(qPrintable(disk.error()));
//     ... disk.fill(); (writes now fail with ENOSPC) ... disk.release();
#pragma once

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>

#include <cerrno>
#include <cstring>

#if defined(Q_OS_LINUX)
#    include <sys/mount.h>
#    include <unistd.h>
#endif

class SmallTmpfs
{
public:
    explicit SmallTmpfs(int kib = 64)
    {
#if defined(Q_OS_LINUX)
        if (::geteuid() != 0) {
            m_error = QStringLiteral("needs root to mount a small tmpfs (a full disk); run the "
                                     "test as root, as CI does");
            return;
        }
        if (!m_folder.isValid()) {
            m_error = QStringLiteral("no temporary folder to mount a tmpfs on");
            return;
        }
        const QByteArray options = "size=" + QByteArray::number(kib) + "k,mode=0700";
        if (::mount("tmpfs", QFile::encodeName(m_folder.path()).constData(), "tmpfs", 0,
                    options.constData())
            != 0) {
            m_error = QStringLiteral("cannot mount a tmpfs on %1: %2")
                          .arg(m_folder.path(), QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        m_mounted = true;
#else
        Q_UNUSED(kib);
        m_error = QStringLiteral("a small tmpfs (a full disk) is only mounted on Linux");
#endif
    }
    ~SmallTmpfs()
    {
#if defined(Q_OS_LINUX)
        if (m_mounted)
            ::umount2(QFile::encodeName(m_folder.path()).constData(), MNT_DETACH);
#endif
    }
    Q_DISABLE_COPY_MOVE(SmallTmpfs)

    //! Why it is not mounted; empty when it is.
    QString error() const
    {
        return m_error;
    }
    QString filePath(const QString &name) const
    {
        return m_folder.filePath(name);
    }

    //! Takes every free block: from now on a write that needs one fails with ENOSPC.
    bool fill()
    {
        QFile filler(fillerPath());
        if (!filler.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered))
            return false;
        const QByteArray block(1024, 'f');
        while (filler.write(block) > 0) { } // a short write is followed by a failed one
        return filler.error() != QFileDevice::NoError; // ended by the disk, not by us
    }
    //! Gives back what fill() took: writes succeed again.
    void release()
    {
        QFile::remove(fillerPath());
    }

private:
    QString fillerPath() const
    {
        return m_folder.filePath(QStringLiteral("filler"));
    }

    QTemporaryDir m_folder;
    QString m_error;
    bool m_mounted = false;
};
