// Replacing a file whole, and knowing that the new contents landed (docs/offline.md): the store's
// snapshot and the outbox file both go through here. The bytes go to a temporary file beside the
// target, owner-only from its creation; it is flushed, synced and closed, each step checked,
// then read back and compared, and only then renamed over the target. QSaveFile is not used:
// Qt 6.4's QSaveFile::commit() reports success when its buffered flush fails (a full disk), and
// the empty file it then renames replaces the previous one.
#pragma once

#include <DataClient/private/persistglobal_p.h>

#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace DataClient::detail {

struct DATACLIENT_PERSIST_EXPORT VerifiedWrite
{
    /*!
        Replaces \a path by \a bytes (any thread). Empty when the bytes are on disk under
        \a path; otherwise what failed, the system's reason and the file concerned, ending with
        "the previous file is kept" (the target is then exactly as it was; no temporary file
        stays). A symbolic link at \a path is replaced by the file, never followed: the file it
        named is not touched.
    */
    static QString replace(const QString &path, const QByteArray &bytes);

    /*!
        The wait before attempt \a failures + 1 after \a failures writes failed in a row (a full
        disk, an unwritable folder): at least \a intervalMs and a second, doubling up to a minute.
        A file that cannot be written costs an attempt now and then, never a busy loop.
    */
    static qint64 retryDelayMs(int failures, qint64 intervalMs);
};

} // namespace DataClient::detail
