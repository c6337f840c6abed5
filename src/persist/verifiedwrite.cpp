// VerifiedWrite (verifiedwrite_p.h): write, flush, sync, close, read back, rename; every step's
// failure named with the system's reason.
#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryFile>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>

#if defined(Q_OS_WIN)
#    include <io.h>
#else
#    include <fcntl.h>
#    include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

constexpr qint64 FirstRetryMs = 1000;
constexpr qint64 LongestRetryMs = 60 * 1000;

QString systemReason(int error)
{
    return QString::fromStdString(std::generic_category().message(error));
}

//! Forces what was written to \a fd onto the disk; 0 or the errno.
int syncDescriptor(int fd)
{
#if defined(Q_OS_WIN)
    return _commit(fd) == 0 ? 0 : errno;
#else
    return ::fsync(fd) == 0 ? 0 : errno;
#endif
}

//! Makes a rename in \a folder durable (POSIX: the directory entry is data of the folder). A
//! failure here changes nothing that a reader sees, so it is not reported.
void syncFolder([[maybe_unused]] const QString &folder)
{
#if !defined(Q_OS_WIN)
    const int fd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
#endif
}

} // namespace

QString VerifiedWrite::replace(const QString &path, const QByteArray &bytes)
{
    const auto failed = [&path](const QString &what, const QString &reason) {
        return u"cannot write %1: %2 (%3); the previous file is kept"_s.arg(path, reason, what);
    };
    // Created owner-only (0600): the contents are never readable by others, even for a moment.
    QTemporaryFile temporary(path + u".XXXXXX"_s);
    if (!temporary.open()) {
        return failed(u"creating a temporary file in %1"_s.arg(QFileInfo(path).absolutePath()),
                      temporary.errorString());
    }
    const QString written = temporary.fileName();
    const QString writing = u"writing %1 bytes to %2"_s.arg(bytes.size()).arg(written);
    // write() may only fill Qt's buffer: the disk's answer comes with flush().
    if (temporary.write(bytes) != bytes.size() || !temporary.flush())
        return failed(writing, temporary.errorString());
    if (const int error = syncDescriptor(temporary.handle()))
        return failed(u"syncing %1 to the disk"_s.arg(written), systemReason(error));
    temporary.close();
    if (temporary.error() != QFileDevice::NoError)
        return failed(u"closing %1"_s.arg(written), temporary.errorString());

    // What landed, read back: its size and every byte.
    QFile landed(written);
    if (!landed.open(QIODevice::ReadOnly))
        return failed(u"reading back %1"_s.arg(written), landed.errorString());
    const QByteArray back = landed.readAll();
    landed.close();
    if (back != bytes) {
        return failed(u"checking %1"_s.arg(written),
                      u"it holds %1 bytes that differ from the %2 written"_s.arg(back.size())
                          .arg(bytes.size()));
    }

    // rename(2) replaces the directory entry: a symbolic link there is replaced, not followed.
    std::error_code renameError;
    std::filesystem::rename(std::filesystem::path(written.toStdU16String()),
                            std::filesystem::path(path.toStdU16String()), renameError);
    if (renameError) {
        return failed(u"renaming %1 over it"_s.arg(written),
                      QString::fromStdString(renameError.message()));
    }
    temporary.setAutoRemove(false); // it is the file now
    syncFolder(QFileInfo(path).absolutePath());
    return {};
}

qint64 VerifiedWrite::retryDelayMs(int failures, qint64 intervalMs)
{
    const int doublings = std::clamp(failures - 1, 0, 16);
    return std::max(intervalMs, std::min(LongestRetryMs, FirstRetryMs << doublings));
}

} // namespace DataClient::detail
