// Writes of the persisted store that fail (docs/offline.md): a change whose write failed is
// written once the folder is writable again, with no further change, or when the Controller is
// destroyed; on a full disk (a 64 KiB tmpfs, mounted when the test runs as root) the previous
// file stays whole, one warning says what failed and where, and the change lands once space
// returns. Time is the Controller's VirtualClock.
#include "logcapture.h"
#include "persistfixture.h"
#include "smalltmpfs.h"

#include <DataClient/private/snapshotcodec_p.h>
#include <DataClient/private/storesnapshot_p.h>
#include <DataClient/store.h>
#include <DataClient/testing/virtualclock.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QSignalSpy>
#include <QTest>

using namespace PersistFixture;
using DataClient::detail::SnapshotCodec;
using DataClient::Testing::VirtualClock;

class tst_PersistFailure : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;

    //! The todos the file at \a path holds; -1 when it is missing or does not load.
    static qsizetype todosIn(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        const SnapshotCodec::Decoded decoded = SnapshotCodec::decode(file.readAll());
        return decoded.outcome == SnapshotCodec::Outcome::Loaded ? decoded.snapshot.entityCount()
                                                                 : -1;
    }
    //! A path (named after the test) where a folder stands: the lock works, every write fails until the folder goes.
    QString blockedPath() const
    {
        const QString path = dir.filePath(QString::fromLatin1(QTest::currentTestFunction()));
        return QDir().mkpath(path + u"/x"_s) ? path : QString();
    }
    //! Sets \a path as \a controller's persistence (a folder there: its load fails) and commits
    //! three todos whose write fails: true once the error was reported.
    static bool failOneWrite(Controller &controller, VirtualClock &clock, const QString &path,
                             QSignalSpy &errors)
    {
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(u"dropped the persisted store .* cannot read it"_s));
        controller.setPersistence(path);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"persisting the store failed: cannot write"_s));
        controller.setResponse(offline(), {}, todoValues(3, 1));
        clock.advance(0);
        return errors.wait(5000);
    }

private Q_SLOTS:
    void aFailedWriteIsWrittenWhenTheFolderIsWritableAgain()
    {
        const QString path = blockedPath();
        QVERIFY(!path.isEmpty());
        Controller controller;
        VirtualClock clock(&controller);
        LogCapture log;
        QSignalSpy errors(&controller, &Controller::persistenceError);
        QVERIFY(failOneWrite(controller, clock, path, errors));
        const QString message = errors.at(0).at(0).toString();
        QVERIFY2(message.contains(path), qPrintable(message));
        QVERIFY2(message.contains(u"keeps working in memory"_s), qPrintable(message));
        QVERIFY2(message.contains(u"tried again in 1000 ms"_s), qPrintable(message));

        QVERIFY(QDir(path).removeRecursively()); // writable again; the store does not change
        QCOMPARE(controller.nextTimerDue(), clock.now() + 1000);
        clock.advance(1000);
        QVERIFY(log.waitFor(u"persisted the store"_s, 5000));
        QCOMPARE(todosIn(path), 3);
        QCOMPARE(errors.size(), 1);
    }

    void aFailedWriteIsWrittenWhenTheControllerIsDestroyed()
    {
        const QString path = blockedPath();
        QVERIFY(!path.isEmpty());
        {
            Controller controller;
            VirtualClock clock(&controller);
            QSignalSpy errors(&controller, &Controller::persistenceError);
            QVERIFY(failOneWrite(controller, clock, path, errors));
            QVERIFY(QDir(path).removeRecursively());
        } // destroyed before its retry was due
        QCOMPARE(todosIn(path), 3);
    }

    void aFullDiskKeepsThePreviousFileAndWritesOnceSpaceReturns()
    {
        SmallTmpfs disk;
        if (!disk.error().isEmpty())
            QSKIP(qPrintable(disk.error()));
        const QString path = disk.filePath(u"store.dcstore"_s);
        Controller controller;
        VirtualClock clock(&controller);
        LogCapture log;
        controller.setPersistence(path);
        controller.setResponse(offline(), {}, todoValues(3, 1));
        clock.advance(0);
        QVERIFY(log.waitFor(u"persisted the store"_s, 5000));
        QCOMPARE(todosIn(path), 3);

        QVERIFY(disk.fill());
        log.clear();
        QSignalSpy errors(&controller, &Controller::persistenceError);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"persisting the store failed: cannot write .*: No "
                                                "space left on device"_s));
        controller.setResponse(offline(), {}, todoValues(5, 2));
        clock.advance(1000);
        QVERIFY(errors.wait(5000));
        const QString message = errors.at(0).at(0).toString();
        QVERIFY2(message.contains(path), qPrintable(message));
        QVERIFY2(message.contains(u"No space left on device"_s), qPrintable(message));
        QVERIFY2(message.contains(u"the previous file is kept"_s), qPrintable(message));
        QVERIFY2(message.contains(u"keeps working in memory"_s), qPrintable(message));
        QCOMPARE(todosIn(path), 3); // the previous file, whole
        QCOMPARE(controller.store().entityCount(), 5);

        // Still full: the retry fails without another warning, and the next waits longer.
        QTRY_COMPARE(controller.nextTimerDue(), clock.now() + 1000);
        clock.advance(1000);
        QTRY_COMPARE(controller.nextTimerDue(), clock.now() + 2000);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(todosIn(path), 3);

        disk.release();
        clock.advance(2000);
        QVERIFY(log.waitFor(u"persisted the store"_s, 5000));
        QCOMPARE(todosIn(path), 5);
        QCOMPARE(errors.size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_PersistFailure)
#include "tst_persistfailure.moc"
