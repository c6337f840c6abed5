// VerifiedWrite, the one way the store's snapshot and the outbox file reach the disk: the file is
// replaced whole and owner-only; a symbolic link at its path is replaced, not followed; on a full
// disk (a 64 KiB tmpfs, mounted when the test runs as root) the write fails with a message that
// names the file, the system's reason and the step, and the previous file stays as it was;
// failed writes are retried with a growing delay.
#include "smalltmpfs.h"

#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QTest>

using DataClient::detail::VerifiedWrite;
using namespace Qt::StringLiterals;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

//! The file's mode bits for its owner, group and others (what `ls -l` shows).
QFileDevice::Permissions modeOf(const QString &path)
{
    const QFileDevice::Permissions mode = QFileDevice::ReadOwner | QFileDevice::WriteOwner
        | QFileDevice::ExeOwner | QFileDevice::ReadGroup | QFileDevice::WriteGroup
        | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
        | QFileDevice::ExeOther;
    return QFile::permissions(path) & mode;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class tst_VerifiedWrite : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void replacesTheFileWholeAndOwnerOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"store.outbox"_s);
        QCOMPARE(VerifiedWrite::replace(path, "first"), QString());
        QCOMPARE(VerifiedWrite::replace(path, "second"), QString());
        QCOMPARE(readAll(path), QByteArray("second"));
        QCOMPARE(modeOf(path), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        // Nothing else is left beside it (no temporary file).
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList {u"store.outbox"_s});
    }

    void aSymbolicLinkIsReplacedNotFollowed()
    {
        QTemporaryDir dir;
        const QString unrelated = dir.filePath(u"notes.txt"_s);
        QVERIFY(writeFile(unrelated, "the user's notes"));
        const QFileDevice::Permissions shared = QFileDevice::ReadOwner | QFileDevice::WriteOwner
            | QFileDevice::ReadGroup | QFileDevice::ReadOther;
        QVERIFY(QFile::setPermissions(unrelated, shared));
        const QString path = dir.filePath(u"store.outbox"_s);
        QVERIFY(QFile::link(unrelated, path));

        QCOMPARE(VerifiedWrite::replace(path, "the outbox"), QString());
        QCOMPARE(readAll(unrelated), QByteArray("the user's notes")); // untouched
        QCOMPARE(modeOf(unrelated), shared);
        QVERIFY(!QFileInfo(path).isSymLink());
        QCOMPARE(readAll(path), QByteArray("the outbox"));
    }

    void aFullDiskKeepsThePreviousFile_data()
    {
        QTest::addColumn<int>("size");
        // Small enough to stay in Qt's write buffer until the flush (where Qt 6.4's QSaveFile
        // loses the error), and larger than the buffer.
        QTest::newRow("buffered") << 100;
        QTest::newRow("unbuffered") << 40 * 1024;
    }
    void aFullDiskKeepsThePreviousFile()
    {
        QFETCH(int, size);
        SmallTmpfs disk;
        if (!disk.error().isEmpty())
            QSKIP(qPrintable(disk.error()));
        const QString path = disk.filePath(u"store.outbox"_s);
        const QByteArray previous(3000, 'p');
        QCOMPARE(VerifiedWrite::replace(path, previous), QString());
        QVERIFY(disk.fill());

        const QString error = VerifiedWrite::replace(path, QByteArray(size, 'n'));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(u"No space left on device"_s), qPrintable(error));
        QVERIFY2(error.contains(u"writing %1 bytes to %2."_s.arg(size).arg(path)),
                 qPrintable(error));
        QVERIFY2(error.endsWith(u"the previous file is kept"_s), qPrintable(error));
        QCOMPARE(readAll(path), previous);
        QCOMPARE(QDir(QFileInfo(path).path()).entryList(QDir::Files),
                 (QStringList {u"filler"_s, u"store.outbox"_s}));

        disk.release(); // space returns: the next write lands
        QCOMPARE(VerifiedWrite::replace(path, QByteArray(size, 'n')), QString());
        QCOMPARE(readAll(path), QByteArray(size, 'n'));
    }

    void aMissingFolderIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"missing/store.outbox"_s);
        const QString error = VerifiedWrite::replace(path, "x");
        QVERIFY2(error.startsWith(u"cannot write %1: "_s.arg(path)), qPrintable(error));
        QVERIFY2(
            error.contains(u"creating a temporary file in %1"_s.arg(dir.filePath(u"missing"_s))),
            qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }

    void retriesWaitLongerEachTimeUpToAMinute()
    {
        QCOMPARE(VerifiedWrite::retryDelayMs(1, 0), 1000);
        QCOMPARE(VerifiedWrite::retryDelayMs(2, 0), 2000);
        QCOMPARE(VerifiedWrite::retryDelayMs(3, 0), 4000);
        QCOMPARE(VerifiedWrite::retryDelayMs(7, 0), 60000);
        QCOMPARE(VerifiedWrite::retryDelayMs(1000, 0), 60000);
        QCOMPARE(VerifiedWrite::retryDelayMs(1, 5000), 5000); // never sooner than the interval
        QCOMPARE(VerifiedWrite::retryDelayMs(1, 120000), 120000);
    }
};

QTEST_GUILESS_MAIN(tst_VerifiedWrite)
#include "tst_verifiedwrite.moc"
