// The persisted store across processes (docs/offline.md): a child writes and quits, a second
// child shows the data before the server answers anything; and a child writing in a loop killed
// with SIGKILL at random points always leaves a file that loads as one whole earlier state.
#include "persistfixture.h"
#include "processrun.h"

#include <DataClient/store.h>
#include <DataClient/testing/testserver.h>

#include <DataClient/private/snapshotcodec_p.h>

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTemporaryDir>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace PersistFixture;
using namespace DataClient::detail;
using DataClient::Testing::TestServer;

class tst_PersistRestart : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;
    QString path() const { return dir.filePath(u"store.dcstore"_s); }
    static QString child() { return QString::fromLocal8Bit(PERSISTCHILD); }

private Q_SLOTS:
    void restartShowsDataBeforeAnyAnswer()
    {
        // The server takes the request and never answers it.
        TestServer server;
        QVERIFY(server.listen());
        const ProcessRun write = runProcess(child(), {u"write"_s, path(), server.url(), u"100"_s});
        QCOMPARE(write.exitCode, 0);
        QVERIFY2(write.err.isEmpty(), qPrintable(write.err));
        QVERIFY(QFile::exists(path()));
        QCOMPARE(server.requestCount(), 0);

        server.routeDeferred("GET", u"/todos"_s, [](const auto &, const auto &) {});
        const ProcessRun read = runProcess(child(), {u"read"_s, path(), server.url()});
        QCOMPARE(read.exitCode, 0);
        const QStringList lines = read.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        // Shown at once, Stale (1), not loading; then revalidating with the rows still shown.
        QCOMPARE(lines.at(0), u"found=1 status=1 loading=0 rows=100 first=todo 1 é"_s);
        QCOMPARE(lines.at(1), u"found=1 loading=1 rows=100"_s);
    }

    void sigkillLeavesAWholeEarlierState()
    {
        const quint32 seed = qEnvironmentVariableIsSet("DATACLIENT_KILL_SEED")
            ? quint32(qEnvironmentVariableIntValue("DATACLIENT_KILL_SEED"))
            : QRandomGenerator::system()->generate();
        qInfo("seed %u (DATACLIENT_KILL_SEED replays it)", seed);
        QRandomGenerator random(seed);
        QFile::remove(path());
        QElapsedTimer budget;
        budget.start();
        int lastRound = 0;
        int loaded = 0;
        int unwritten = 0; // rounds in a row killed before the first write
        for (int round = 0; round < 40 && budget.elapsed() < 8000; ++round) {
            QProcess process;
            process.start(child(), {u"loop"_s, path(), u"300"_s});
            QVERIFY(process.waitForStarted(10000));
            // A random point in the child's life: while it starts, reads, or writes. On a
            // loaded machine (a sanitizer build beside it) a child may need longer than the
            // window to write at all: each round that found no file widens it.
            QTest::qWait(int(random.bounded(10, 120)) + 100 * std::min(unwritten, 10));
            process.kill(); // SIGKILL
            QVERIFY(process.waitForFinished(10000));
            QCOMPARE(process.exitStatus(), QProcess::CrashExit);

            QFile file(path());
            if (!file.exists()) {
                ++unwritten;
                continue; // killed before its first write
            }
            unwritten = 0;
            QVERIFY(file.open(QIODevice::ReadOnly));
            const SnapshotCodec::Decoded decoded = SnapshotCodec::decode(file.readAll());
            QVERIFY2(
                decoded.outcome == SnapshotCodec::Outcome::Loaded,
                qPrintable(u"round %1 (seed %2): %3"_s.arg(round).arg(seed).arg(decoded.reason)));
            Store store;
            QVERIFY(decoded.snapshot.restoreInto(store));
            QCOMPARE(store.entityCount(u"Todo"_s), 300);
            // One whole state: every todo of one round, never a mix.
            const QVariantList rows
                = store.denormalize(u"GET http://127.0.0.1:9/todos"_s, todoList(), {})
                      .data.toList();
            QCOMPARE(rows.size(), 300);
            const int stateRound = rows.first().toMap().value(u"round"_s).toInt();
            for (const QVariant &row : rows)
                QCOMPARE(row.toMap().value(u"round"_s).toInt(), stateRound);
            // Nothing confirmed is lost: each child starts from the state the last one left
            // (hydrated, then written again with its rounds counted from 1).
            QVERIFY(stateRound >= 1);
            lastRound = stateRound;
            ++loaded;
        }
        QVERIFY2(loaded >= 3,
                 qPrintable(u"only %1 files to check (seed %2)"_s.arg(loaded).arg(seed)));
        Q_UNUSED(lastRound);
        // The next process takes over the killed one's lock and deletes the temporary files its
        // interrupted writes left; the outbox beside the file is not one of them.
        // A kill in the instant between creating the lock file and writing its pid leaves an
        // unwritten lock, taken over once it is 100 ms old (tst_persistfile::
        // unwrittenLockIsTakenOver): make whatever lock the last kill left that old.
        // The same for the guard QLockFile takes while it removes a stale lock ("<lock>.rmlock"):
        // a kill while a child took over its predecessor's lock leaves that guard unwritten.
        for (const QString &suffix : {u".lock"_s, u".lock.rmlock"_s}) {
            QFile lock(path() + suffix);
            if ((suffix == u".lock"_s || lock.exists()) && lock.open(QIODevice::ReadWrite))
                QVERIFY(lock.setFileTime(QDateTime::currentDateTime().addSecs(-5),
                                         QFileDevice::FileModificationTime));
        }
        QFile outbox(path() + u".outbox"_s);
        QVERIFY(outbox.open(QIODevice::WriteOnly));
        outbox.close();
        const ProcessRun last
            = runProcess(child(), {u"write"_s, path(), u"http://127.0.0.1:9"_s, u"1"_s});
        QCOMPARE(last.exitCode, 0);
        const QStringList left = QDir(dir.path()).entryList(QDir::Files, QDir::Name);
        QVERIFY2(left == (QStringList {u"store.dcstore"_s, u"store.dcstore.outbox"_s}),
                 qPrintable(u"left: "_s + left.join(u", "_s) + u"; the last process said: "_s
                            + last.err));
    }
};

QTEST_GUILESS_MAIN(tst_PersistRestart)
#include "tst_persistrestart.moc"
