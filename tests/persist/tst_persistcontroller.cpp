// The Controller's persisted store (docs/offline.md): coalesced write-behind driven by the
// virtual clock, hydration before any query (Stale, then revalidated without a Loading state),
// clearPersisted() and resetEntireStore(), `persist: false`, and a file written under other
// schemas dropped instead of misread.
#include "logcapture.h"
#include "persistfixture.h"

#include <DataClient/connectivity.h>
#include <DataClient/qmlcontroller.h>
#include <DataClient/store.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/testing/virtualclock.h>

#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>
#include <QSignalSpy>
#include <QTest>

using namespace PersistFixture;
using DataClient::Testing::TestServer;
using DataClient::Testing::VirtualClock;

class tst_PersistController : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;
    QString path() const { return dir.filePath(u"store.dcstore"_s); }

    //! A file holding \a count todos of round \a round, written by a Controller now gone.
    void persistTodos(int count, int round, const EndpointPtr &endpoint = offline())
    {
        Controller controller;
        controller.setPersistence(path());
        QVERIFY(!controller.setResponse(endpoint, {}, todoValues(count, round)).error);
    }

private Q_SLOTS:
    void init() { QFile::remove(path()); }

    void writesAreCoalesced()
    {
        LogCapture log;
        Controller controller;
        VirtualClock clock(&controller);
        controller.setPersistence(path());
        QCOMPARE(controller.persistIntervalMs(), 1000);
        for (int round = 1; round <= 10; ++round)
            controller.setResponse(offline(), {}, todoValues(5, round));
        QVERIFY(!QFile::exists(path())); // behind the commits, never inside one
        clock.advance(0); // the first write is due at once
        QVERIFY(log.waitFor(u"persisted the store"_s, 5000));
        QCOMPARE(log.count(u"persisted the store"_s), 1);
        const qint64 first = clock.now();
        for (int round = 11; round <= 20; ++round)
            controller.setResponse(offline(), {}, todoValues(5, round));
        // The next write waits for the interval, through the Controller's scheduler.
        QCOMPARE(controller.nextTimerDue(), first + 1000);
        clock.advance(999);
        QCOMPARE(log.count(u"persisted the store"_s), 1);
        clock.advance(1);
        QVERIFY(QTest::qWaitFor([&] { return log.count(u"persisted the store"_s) == 2; }, 5000));
        clock.advance(1000); // nothing left to write: 20 commits, 2 writes
        QCOMPARE(log.count(u"persisted the store"_s), 2);
        Controller reader;
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"in use by another Controller"_s));
        reader.setPersistence(path()); // still locked by the writer
        QVERIFY(reader.persistence() == path());
        QCOMPARE(reader.store().entityCount(), 0);
    }

    void hydratesStaleAndRevalidatesWithoutLoading()
    {
        TestServer server;
        QVERIFY(server.listen());
        persistTodos(3, 1, todos(server.url()));
        const QJsonArray fresh = todoValues(3, 2);
        server.route("GET", u"/todos"_s, [fresh](const auto &) {
            return DataClient::Testing::ServerResponse::json(fresh);
        });
        Controller controller;
        controller.setPersistence(path());
        const EndpointPtr endpoint = todos(server.url());
        ResponseState state = controller.getResponse(endpoint);
        QVERIFY(state.found);
        QCOMPARE(state.status, ExpiryStatus::Stale);
        QCOMPARE(state.loading, false);
        QCOMPARE(state.data.toList().size(), 3);
        QCOMPARE(state.data.toList().at(0).toMap().value(u"round"_s).toInt(), 1);
        QCOMPARE(server.requestCount(), 0); // shown before any request
        // Revalidating keeps the data visible: found all along, then the server's round.
        QSignalSpy states(&controller, &Controller::fetchStateChanged);
        QFuture<QVariant> refetch = controller.fetchIfStale(endpoint);
        state = controller.getResponse(endpoint);
        QVERIFY(state.found);
        QVERIFY(state.loading);
        QTRY_COMPARE(controller.getResponse(endpoint).status, ExpiryStatus::Valid);
        QCOMPARE(
            controller.getResponse(endpoint).data.toList().at(0).toMap().value(u"round"_s).toInt(),
            2);
        QCOMPARE(server.requestCount(), 1);
    }

    // The clock of the next start may show an earlier time than the data's dates (set back, or a
    // virtual one that starts where it started before): the next answer is still newer than
    // what was read from disk, and replaces it.
    void anAnswerAfterARestartIsNewerThanTheDiskWhateverTheClock()
    {
        TestServer server;
        QVERIFY(server.listen());
        int round = 1;
        server.route("GET", u"/todos"_s, [&round](const auto &) {
            return DataClient::Testing::ServerResponse::json(todoValues(3, round));
        });
        const EndpointPtr endpoint = todos(server.url());
        const auto roundShown = [&](Controller &controller) {
            return controller.getResponse(endpoint).data.toList().at(0).toMap().value(u"round"_s);
        };
        {
            Controller controller;
            VirtualClock clock(&controller);
            controller.setPersistence(path());
            for (int i = 0; i < 3; ++i) { // three requests in the same millisecond
                QFuture<QVariant> read = controller.fetch(endpoint);
                QTRY_VERIFY(read.isFinished());
            }
            QCOMPARE(roundShown(controller), QVariant(1));
        }
        round = 2;
        Controller controller;
        VirtualClock clock(&controller); // the same start time as the run before
        controller.setPersistence(path());
        QCOMPARE(roundShown(controller), QVariant(1));
        QFuture<QVariant> refetch = controller.fetch(endpoint);
        QTRY_VERIFY(refetch.isFinished());
        QCOMPARE(roundShown(controller), QVariant(2));
    }

    void dataReadFromDiskStaysUntilItCouldBeRevalidated()
    {
        // An earlier run showed two screens, then quit; screen B alone reaches todos 4 and 5.
        const EndpointPtr screenA = offline();
        const EndpointPtr screenB = RestEndpoint::create(
            {.path = u"/done"_s, .urlPrefix = u"http://127.0.0.1:9"_s, .schema = todoList()});
        const QString keyB = screenB->key({});
        const auto persistBothScreens = [&] {
            Controller controller;
            VirtualClock clock(&controller); // the data's dates: the clock's start
            controller.setPersistence(path());
            QVERIFY(!controller.setResponse(screenA, {}, todoValues(3, 1)).error);
            QVERIFY(!controller.setResponse(screenB, {}, todoValues(5, 1)).error);
        };
        persistBothScreens();
        const qint64 grace = Controller().gcGracePeriodMs();
        Connectivity network;
        network.setOnline(false);
        {
            // The next start is offline, and nothing is shown for ten grace periods: nothing
            // read from disk is collected, from memory nor from the file.
            Controller controller;
            VirtualClock clock(&controller);
            controller.setConnectivity(&network);
            controller.setPersistence(path());
            QVERIFY(controller.store().hasResult(keyB));
            clock.advance(10 * grace);
            QCOMPARE(controller.collectGarbage(), 0);
            QVERIFY(controller.store().hasResult(keyB));
            QCOMPARE(controller.store().entityCount(), 5);
        }
        {
            // Once online it could be revalidated: not shown, it goes a grace period later.
            Controller controller;
            VirtualClock clock(&controller);
            controller.setConnectivity(&network);
            controller.setPersistence(path());
            QCOMPARE(controller.store().entityCount(), 5); // the file kept it all
            clock.advance(grace);
            network.setOnline(true);
            QCOMPARE(controller.nextTimerDue(), clock.now() + grace);
            clock.advance(grace - 1);
            QVERIFY(controller.store().hasResult(keyB));
            clock.advance(1);
            QVERIFY(!controller.store().hasResult(keyB));
            QCOMPARE(controller.store().entityCount(), 0);
        }
        persistBothScreens();
        {
            // Hydrated online three grace periods after it was written: it stays a grace period
            // from the start (by its dates alone the first collection would drop it).
            Controller controller;
            VirtualClock clock(&controller);
            controller.setConnectivity(&network);
            clock.advance(3 * grace);
            controller.setPersistence(path());
            clock.advance(grace - 1);
            QCOMPARE(controller.collectGarbage(), 0);
            QVERIFY(controller.store().hasResult(keyB));
            clock.advance(1);
            QVERIFY(!controller.store().hasResult(keyB));
        }
    }

    void clearPersistedRemovesTheFile()
    {
        persistTodos(2, 1);
        Controller controller;
        controller.setPersistence(path());
        QCOMPARE(controller.store().entityCount(), 2);
        controller.clearPersisted();
        QVERIFY(!QFile::exists(path())); // synchronously
        QCOMPARE(controller.store().entityCount(), 2); // memory stays
    }

    void resetEntireStoreClearsIt()
    {
        persistTodos(2, 1);
        {
            Controller controller;
            controller.setPersistence(path());
            controller.resetEntireStore();
            QVERIFY(!QFile::exists(path()));
        }
        QVERIFY(!QFile::exists(path())); // nor written again on the way out
        Controller next;
        next.setPersistence(path());
        QCOMPARE(next.store().entityCount(), 0);
    }

    void persistFalseLeavesTheResultOut()
    {
        {
            Controller controller;
            controller.setPersistence(path());
            controller.setResponse(todos(u"http://127.0.0.1:9"_s, false), {}, todoValues(2, 1));
        }
        QFile file(path());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("GET http://127.0.0.1:9/todos"));
        Controller controller;
        controller.setPersistence(path());
        QCOMPARE(controller.getResponse(offline()).found, false);
    }

    void entityPersistFalseLeavesItsRecordsOut()
    {
        const Schema secret
            = Schema::array(Schema::entity(EntitySchema(u"Todo"_s).withPersist(false)));
        QVERIFY(!EntitySchema(u"Todo"_s).withPersist(false).persists());
        QVERIFY(EntitySchema(u"Todo"_s).persists());
        {
            Controller controller;
            controller.setPersistence(path());
            controller.setResponse(todos(u"http://127.0.0.1:9"_s, true, secret), {},
                                   todoValues(2, 1));
            QCOMPARE(controller.store().entityCount(u"Todo"_s), 2);
        }
        QFile file(path());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("todo 1"));
        Controller controller;
        controller.setPersistence(path());
        QCOMPARE(controller.store().entityCount(u"Todo"_s), 0);
    }

    void otherSchemasDropTheFile()
    {
        persistTodos(2, 1);
        Controller controller;
        controller.setPersistence(path());
        QCOMPARE(controller.store().entityCount(), 2);
        // This build's Todo has another pk field: the stored records are not read with it.
        const EndpointPtr changed = todos(u"http://127.0.0.1:9"_s, true, todoList(u"uuid"_s));
        const ResponseState state = controller.getResponse(changed);
        QCOMPARE(state.found, false);
        QCOMPARE(controller.store().entityCount(), 0);
        QVERIFY(!QFile::exists(path()));
    }

    void sameSchemasAreKept()
    {
        persistTodos(2, 1);
        Controller controller;
        controller.setPersistence(path());
        QVERIFY(controller.getResponse(offline()).found);
        QCOMPARE(controller.store().entityCount(), 2);
        QVERIFY(QFile::exists(path()));
    }

    void persistenceSignalsAndDefaultPath()
    {
        Controller controller;
        QSignalSpy changed(&controller, &Controller::persistenceChanged);
        controller.setPersistence(path());
        QCOMPARE(changed.size(), 1);
        controller.setPersistence(QString());
        QCOMPARE(changed.size(), 2);
        QCOMPARE(controller.persistence(), QString());
        QTest::ignoreMessage(QtWarningMsg, "persistIntervalMs must not be negative, got -1");
        controller.setPersistIntervalMs(-1);
        QCOMPARE(controller.persistIntervalMs(), 1000);
    }

    void defaultIsInAppLocalData()
    {
        QStandardPaths::setTestModeEnabled(true); // ~/.qttest, not the user's data
        const QString expected
            = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
            + u"/dataclient/store.dcstore"_s;
        QFile::remove(expected);
        {
            DataClient::Controller controller;
            controller.setPersistence(QStringLiteral("default")); // before the first query
            QCOMPARE(controller.persistence(), u"default"_s);
            controller.setResponse(offline(), {}, todoValues(1, 1));
        }
        QVERIFY(QFile::exists(expected));
        QFile::remove(expected);
    }

    void qmlSingletonForwardsPersistence()
    {
        persistTodos(2, 1);
        Controller controller;
        QQmlEngine engine;
        DataClient::setQmlController(&engine, &controller);
        QQmlComponent component(&engine);
        const QByteArray qml = "import QtQml; import DataClient\n"
                               "QtObject {\n"
                               "  property string file\n"
                               "  property int errors: 0\n"
                               "  property var connection: Controller.persistenceError.connect(\n"
                               "      function(message) { errors += 1 })\n"
                               "  function open() { Controller.persistIntervalMs = 250;\n"
                               "                    Controller.persistence = file }\n"
                               "  function logout() { Controller.clearPersisted() }\n"
                               "}";
        component.setData(qml, QUrl::fromLocalFile(u"inline.qml"_s));
        std::unique_ptr<QObject> root(component.create());
        QVERIFY2(root, qPrintable(component.errorString()));
        root->setProperty("file", path());
        QVERIFY(QMetaObject::invokeMethod(root.get(), "open"));
        QCOMPARE(controller.persistence(), path());
        QCOMPARE(controller.persistIntervalMs(), 250);
        QCOMPARE(controller.store().entityCount(), 2); // hydrated
        QVERIFY(QMetaObject::invokeMethod(root.get(), "logout"));
        QVERIFY(!QFile::exists(path()));
        // A second Controller on the file: the error reaches QML.
        Controller holder;
        holder.setPersistence(dir.filePath(u"other.dcstore"_s));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"in use by another Controller"_s));
        root->setProperty("file", dir.filePath(u"other.dcstore"_s));
        QVERIFY(QMetaObject::invokeMethod(root.get(), "open"));
        QCOMPARE(root->property("errors").toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_PersistController)
#include "tst_persistcontroller.moc"
