// The snapshot file (src/persist, docs/offline.md): the codec's round trip, every kind of bad
// file refused with a warning naming the file and the reason (the app starts empty), owner-only
// permissions, the lock against a second Controller, an unwritable path.
#include "persistfixture.h"

#include <DataClient/store.h>

#include <DataClient/private/persistedfile_p.h>
#include <DataClient/private/snapshotcodec_p.h>

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QLockFile>
#include <QtCore/QProcess>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QSignalSpy>
#include <QTest>

using namespace PersistFixture;
using namespace DataClient::detail;

class tst_PersistFile : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;
    QString path() const { return dir.filePath(u"store.dcstore"_s); }

    //! A store holding \a count todos under the result "GET /todos" and the bytes of its file.
    static QByteArray encodedTodos(int count, Store *store)
    {
        store->setResponse(u"GET /todos"_s, todoList(), {}, todoValues(count, 7),
                           Meta {100, 200, 300});
        SchemaPrints prints;
        SnapshotCodec::addPrints(todoList(), &prints);
        return SnapshotCodec::encode(StoreSnapshot::take(*store), prints);
    }
    void writeFile(const QByteArray &bytes)
    {
        QFile file(path());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
    }
    //! Opens the file in a Controller expecting \a reason in the warning: it starts empty.
    void expectDropped(const QString &reason)
    {
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"dropped the persisted store "_s
                                                + QRegularExpression::escape(path()) + u".*"_s
                                                + QRegularExpression::escape(reason)));
        Controller controller;
        controller.setPersistence(path());
        QCOMPARE(controller.store().entityCount(), 0);
        QCOMPARE(controller.getResponse(todos(u"http://127.0.0.1:9"_s)).found, false);
        QVERIFY(!QFile::exists(path())); // dropped: the next write starts a new file
    }

    //! Opens the file in \a controller expecting it refused as in use: one persistenceError
    //! naming the file, and a warning.
    void expectInUse(Controller &controller)
    {
        QSignalSpy errors(&controller, &Controller::persistenceError);
        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(u"persistence refused: .*is in use by another Controller"_s));
        controller.setPersistence(path());
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.at(0).at(0).toString().contains(path()));
    }

private Q_SLOTS:
    void roundTrip()
    {
        Store store;
        const QByteArray bytes = encodedTodos(50, &store);
        SnapshotCodec::Decoded decoded = SnapshotCodec::decode(bytes);
        QCOMPARE(decoded.reason, QString());
        QCOMPARE(int(decoded.outcome), int(SnapshotCodec::Outcome::Loaded));
        Store restored;
        QVERIFY(decoded.snapshot.restoreInto(restored));
        QCOMPARE(restored.entityCount(u"Todo"_s), 50);
        QCOMPARE(restored.resultMeta(u"GET /todos"_s), (Meta {100, 200, 300}));
        const auto rows = [](Store &from) {
            QList<QVariantMap> maps;
            const QVariantList list
                = from.denormalize(u"GET /todos"_s, todoList(), {}).data.toList();
            for (const QVariant &row : list)
                maps.append(row.toMap());
            return maps;
        };
        QCOMPARE(rows(restored).size(), 50);
        QCOMPARE(rows(restored), rows(store));
        QCOMPARE(rows(restored).at(4).value(u"title"_s).toString(), u"todo 5 é"_s);
        QCOMPARE(*restored.entity(EntityRef {u"Todo"_s, u"3"_s}),
                 *store.entity(EntityRef {u"Todo"_s, u"3"_s}));
        // Encoding what was decoded gives the same bytes: nothing lost or added.
        SchemaPrints prints;
        SnapshotCodec::addPrints(todoList(), &prints);
        QCOMPARE(SnapshotCodec::encode(StoreSnapshot::take(restored), prints), bytes);
        // A store holding data is never overwritten by a restore.
        QVERIFY(!decoded.snapshot.restoreInto(restored));
    }

    void leftOutByFilter()
    {
        Store store;
        encodedTodos(3, &store);
        const StoreSnapshot snapshot = StoreSnapshot::take(store, {{u"Todo"_s}, {}});
        QCOMPARE(snapshot.entityCount(), 0);
        QCOMPARE(snapshot.check(), QString());
        const QByteArray bytes = SnapshotCodec::encode(snapshot, {});
        QVERIFY(!bytes.contains("todo 1"));
        QVERIFY(SnapshotCodec::encode(StoreSnapshot::take(store), {}).contains("todo 1"));
        const StoreSnapshot noResult = StoreSnapshot::take(store, {{}, {u"GET /todos"_s}});
        QVERIFY(noResult.results.empty());
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        Store store;
        const QByteArray good = encodedTodos(20, &store);
        QTest::newRow("zero-length") << QByteArray() << u"the file is empty"_s;
        QTest::newRow("foreign") << QByteArray("{\"todos\": []}") << u"no magic"_s;
        QTest::newRow("header cut") << good.first(20) << u"the header is cut short"_s;
        QTest::newRow("truncated") << good.first(good.size() - 7) << u"cut short or torn"_s;
        QByteArray corrupt = good;
        corrupt[good.size() / 2] = char(corrupt[good.size() / 2] ^ 0x5a);
        QTest::newRow("corrupted") << corrupt << u"the checksum does not match"_s;
        QByteArray version = good;
        version[8] = 2;
        QTest::newRow("wrong version")
            << version << u"format version 2, this build reads version 1"_s;
    }
    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        writeFile(bytes);
        expectDropped(reason);
    }

    void inconsistentPayloadIsRefused()
    {
        // A file whose checksum is right but whose list names an entity slot that is not there.
        Store store;
        store.setResponse(u"GET /todos"_s, todoList(), {}, todoValues(2, 1), Meta {});
        StoreSnapshot snapshot = StoreSnapshot::take(store);
        snapshot.entityTables[0].slots.pop_back();
        const SnapshotCodec::Decoded decoded
            = SnapshotCodec::decode(SnapshotCodec::encode(snapshot, {}));
        QCOMPARE(int(decoded.outcome), int(SnapshotCodec::Outcome::Corrupt));
        QVERIFY2(decoded.reason.contains(u"does not exist"_s), qPrintable(decoded.reason));
    }

    void aPkTwiceIsRefused()
    {
        Store store;
        store.setResponse(u"GET /todos"_s, todoList(), {}, todoValues(2, 1), Meta {});
        StoreSnapshot snapshot = StoreSnapshot::take(store);
        snapshot.entityTables[0].slots[1].pk = snapshot.entityTables[0].slots[0].pk;
        SchemaPrints prints;
        SnapshotCodec::addPrints(todoList(), &prints);
        writeFile(SnapshotCodec::encode(snapshot, prints));
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"dropped the persisted store "_s
                                                + QRegularExpression::escape(path())
                                                + u" - pk 1 twice in Todo"_s));
        Controller controller;
        controller.setPersistence(path());
        QCOMPARE(controller.store().entityCount(), 0);
        QVERIFY(controller.store().resultKeys().isEmpty());
        QVERIFY(!QFile::exists(path()));
    }

    void ownerOnlyPermissions()
    {
        QFile::remove(path());
        {
            Controller controller;
            controller.setPersistence(path());
            controller.setResponse(todos(u"http://127.0.0.1:9"_s), {}, todoValues(2, 1));
        }
        QVERIFY(QFile::exists(path()));
        const QFileDevice::Permissions mode = QFile::permissions(path());
        QVERIFY(mode.testFlags(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
            | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
            | QFileDevice::ExeOther;
        QCOMPARE(mode & others, QFileDevice::Permissions());
    }

    void secondControllerIsRefused()
    {
        Controller first;
        first.setPersistence(path());
        QCOMPARE(first.persistence(), path());
        Controller second;
        expectInUse(second);
        // The second keeps working in memory; the first still owns the file.
        QVERIFY(!second.setResponse(todos(u"http://127.0.0.1:9"_s), {}, todoValues(1, 1)).error);
        QCOMPARE(second.store().entityCount(), 1);
    }

    void unwrittenLockIsTakenOver()
    {
        // What a process killed between creating its lock file and writing its pid leaves.
        const QString lockPath = path() + u".lock"_s;
        QFile lock(lockPath);
        QVERIFY(lock.open(QIODevice::WriteOnly | QIODevice::Truncate));
        {
            // A moment old: its owner may be writing its pid right now, so it is respected.
            Controller controller;
            expectInUse(controller);
            QVERIFY(QFile::exists(lockPath));
        }
        // Older than any live owner takes to write it (but younger than QLockFile's own 30 s age
        // limit): nobody owns it, the next start does.
        QVERIFY(lock.setFileTime(QDateTime::currentDateTime().addSecs(-5),
                                 QFileDevice::FileModificationTime));
        lock.close();
        {
            Controller controller;
            QSignalSpy errors(&controller, &Controller::persistenceError);
            controller.setPersistence(path());
            QVERIFY(!controller.setResponse(todos(u"http://127.0.0.1:9"_s), {}, todoValues(2, 1))
                         .error);
            QCOMPARE(errors.size(), 0);
            QTRY_VERIFY(QFile::exists(path())); // it persists
            qint64 pid = 0;
            QString host, app;
            QVERIFY(QLockFile(lockPath).getLockInfo(&pid, &host, &app));
            QCOMPARE(pid, QCoreApplication::applicationPid()); // the lock is ours now
        }
        QVERIFY(!QFile::exists(lockPath)); // and given back
        QFile::remove(path());
    }

    // What writes killed before their rename leave (QSaveFile's "<name>.XXXXXX", of the store
    // and of the outbox beside it) is deleted by the next Controller that takes the file; the
    // outbox itself and files that are not such leftovers stay.
    void leftoversOfKilledWritesAreDeleted()
    {
        const QStringList leftovers {u"store.dcstore.AbC123"_s, u"store.dcstore.outbox.XyZ789"_s};
        const QStringList kept {u"store.dcstore.outbox"_s, u"store.dcstore.notes"_s,
                                u"store.dcstore.outbox.old"_s, u"other.dcstore.AbC123"_s};
        for (const QString &name : leftovers + kept) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        Controller controller;
        controller.setPersistence(path());
        QCOMPARE(controller.persistence(), path());
        for (const QString &name : leftovers)
            QVERIFY2(!QFile::exists(dir.filePath(name)), qPrintable(name));
        for (const QString &name : kept)
            QVERIFY2(QFile::exists(dir.filePath(name)), qPrintable(name));
    }

    // A process killed while it took over a stale lock can leave QLockFile's guard for that,
    // "<lock>.rmlock", unwritten: the next start takes it over too, then the stale lock.
    void anUnwrittenGuardOfAStaleLockIsTakenOver()
    {
        const QString lockPath = path() + u".lock"_s;
        QByteArray content;
        {
            // A lock file as QLockFile writes it, naming a process that has ended.
            QLockFile own(lockPath);
            QVERIFY(own.tryLock(0));
            QFile file(lockPath);
            QVERIFY(file.open(QIODevice::ReadOnly));
            content = file.readAll();
            own.unlock();
        }
        QProcess ended;
        ended.start(u"true"_s, {});
        QVERIFY(ended.waitForFinished(10000));
        const qint64 deadPid = ended.processId() ? ended.processId() : 999999;
        const qsizetype firstLine = content.indexOf('\n');
        QVERIFY(firstLine > 0);
        content.replace(0, firstLine, QByteArray::number(deadPid));
        QFile stale(lockPath);
        QVERIFY(stale.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(stale.write(content), content.size());
        stale.close();
        QFile guard(lockPath + u".rmlock"_s);
        QVERIFY(guard.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(guard.setFileTime(QDateTime::currentDateTime().addSecs(-5),
                                  QFileDevice::FileModificationTime));
        guard.close();

        Controller controller;
        QSignalSpy errors(&controller, &Controller::persistenceError);
        controller.setPersistence(path());
        QCOMPARE(errors.size(), 0);
        QCOMPARE(controller.persistence(), path());
        QVERIFY(!QFile::exists(lockPath + u".rmlock"_s));
        qint64 pid = 0;
        QString host, app;
        QVERIFY(QLockFile(lockPath).getLockInfo(&pid, &host, &app));
        QCOMPARE(pid, QCoreApplication::applicationPid()); // the lock is ours
    }

    void unwritablePathKeepsWorking()
    {
        // A folder where the file should be: the lock works, every write fails.
        const QString blocked = dir.filePath(u"blocked"_s);
        QVERIFY(QDir().mkpath(blocked + u"/x"_s));
        Controller controller;
        QSignalSpy errors(&controller, &Controller::persistenceError);
        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(u"dropped the persisted store .*blocked - cannot read it"_s));
        controller.setPersistence(blocked);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"persisting the store failed: cannot write"_s));
        controller.setResponse(todos(u"http://127.0.0.1:9"_s), {}, todoValues(1, 1));
        QVERIFY(errors.wait(5000));
        QVERIFY(errors.at(0).at(0).toString().contains(blocked));
        // The store works in memory; once the path is writable again the next write lands.
        controller.setPersistIntervalMs(0);
        QVERIFY(QDir(blocked).removeRecursively());
        controller.setResponse(todos(u"http://127.0.0.1:9"_s), {}, todoValues(2, 2));
        QCOMPARE(controller.store().entityCount(), 2);
        QTRY_VERIFY(QFileInfo(blocked).isFile());
        QCOMPARE(errors.size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_PersistFile)
#include "tst_persistfile.moc"
