// An application's Manager given bad input or misbehaving, and combined with what else holds
// requests: added null, twice or to two Controllers; release/answer/fail of a request it does not
// hold; destroyed or removed while holding; throwing at a step; held while the Controller goes
// offline, in the outbox, across resetEntireStore(). Each ends with a clear message or a defined
// outcome, and the store as the same requests would leave it without the manager.
#include "appmanagersfixture.h"

#include <DataClient/outbox.h>

#include <QtCore/QThread>
#include <QSignalSpy>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_AppManagersInput : public AppManagerTest
{
    Q_OBJECT

    //! The read of /items ended with the server's data, stored, nothing loading.
    bool endedNormally(const EndpointPtr &items, QFuture<QVariant> future)
    {
        const Outcome outcome = await(future);
        return outcome.value && outcome.value->toList() == QVariantList {1, 2}
        && controller->getResponse(items).data.toList() == QVariantList {1, 2} && atRest(items);
    }

private Q_SLOTS:
    void addingIsRefusedWithAReason_data()
    {
        QTest::addColumn<QString>("refusal");
        QTest::addColumn<QString>("message");
        QTest::newRow("null") << u"null"_s
                              << u"Controller::addManager: the manager is null (expected a "
                                 "DataClient::Manager)"_s;
        QTest::newRow("twice") << u"twice"_s
                               << u"Controller::addManager: Recorder \"m\" is already registered "
                                  "with this Controller; it acts once per step whatever the "
                                  "number of calls"_s;
        QTest::newRow("another thread")
            << u"thread"_s
            << u"Controller::addManager: Recorder \"m\" lives on another thread than the "
               "Controller; managers are called on the Controller's thread"_s;
        QTest::newRow("another Controller")
            << u"other"_s
            << u"Controller::addManager: Recorder \"m\" is registered with another Controller; "
               "remove it there first (Controller::removeManager())"_s;
    }
    void addingIsRefusedWithAReason()
    {
        QFETCH(QString, refusal);
        QFETCH(QString, message);
        Controller other;
        QThread elsewhere;
        // A manager for another thread must have no parent there (the Controller's thread).
        Recorder &manager = refusal == u"thread" ? *new Recorder : *recorder();
        manager.setObjectName(u"m"_s);
        if (refusal == u"thread") {
            elsewhere.start();
            manager.moveToThread(&elsewhere);
        }
        Controller *target = nullptr;
        if (refusal == u"twice") {
            target = controller.get();
            QVERIFY(controller->addManager(&manager));
        }
        if (refusal == u"other") {
            QVERIFY(other.addManager(&manager));
            target = &other;
        }
        QTest::ignoreMessage(QtWarningMsg, qPrintable(message));
        QVERIFY(!controller->addManager(refusal == u"null" ? nullptr : &manager));
        QCOMPARE(manager.controller(), target); // unchanged
        // It acts once per step, on the Controller it was registered with only.
        const EndpointPtr items = endpoint();
        QVERIFY(endedNormally(items, controller->fetch(items)));
        QCOMPARE(manager.steps().size(), target == controller.get() ? 5 : 0);
        QCOMPARE(controller->managers().size(), target == controller.get() ? 1 : 0);
        if (target == &other)
            QVERIFY(other.removeManager(&manager));
        if (refusal == u"thread") {
            QMetaObject::invokeMethod(
                &manager, [&manager] { delete &manager; }, Qt::BlockingQueuedConnection);
            elsewhere.quit();
            elsewhere.wait();
        }
    }

    void aManagerOutlivingItsController()
    {
        Recorder manager; // not a child of the Controller
        QVERIFY(controller->addManager(&manager));
        QSignalSpy controllerChanged(&manager, &Manager::controllerChanged);
        controller.reset(); // no warning: the Controller lets its managers go
        QCOMPARE(manager.controller(), nullptr);
        QCOMPARE(controllerChanged.size(), 1);
        newController();
        QVERIFY(controller->addManager(&manager)); // free to join another
        QVERIFY(controller->removeManager(&manager));
    }

    void actingOnARequestItDoesNotHold_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<bool>("unknownId");
        for (const QString &action : {u"release"_s, u"answer"_s, u"fail"_s}) {
            QTest::addRow("%s an unknown id", qPrintable(action)) << action << true;
            QTest::addRow("%s another's request", qPrintable(action)) << action << false;
        }
    }
    void actingOnARequestItDoesNotHold()
    {
        QFETCH(QString, action);
        QFETCH(bool, unknownId);
        Recorder &holder = *recorder();
        holdAll(holder);
        Recorder &other = *recorder();
        other.setObjectName(u"other"_s);
        QVERIFY(controller->addManager(&holder));
        QVERIFY(controller->addManager(&other));
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future = controller->fetch(items);
        QCOMPARE(holder.heldRequests().size(), 1);
        const quint64 id = unknownId ? 4711 : holder.heldRequests().constFirst();
        QTest::ignoreMessage(
            QtWarningMsg,
            qPrintable(u"Manager::%1(%2): Recorder \"other\" holds no such request "
                       "(see heldRequests(); a request is held from beforeSend() "
                       "returning Hold until it is released, answered, failed or "
                       "its deadline passes)"_s.arg(action)
                           .arg(id)));
        bool done = true;
        if (action == u"release")
            done = other.release(id);
        else if (action == u"answer")
            done = other.answer(id, QJsonArray {9});
        else
            done = other.fail(id, NetworkError(NetworkError::Kind::Http, 500, u"no"_s));
        QVERIFY(!done);
        QCOMPARE(holder.heldRequests().size(), 1); // still its holder's
        QVERIFY(receivedExactly(0));
        QVERIFY(holder.release(holder.heldRequests().constFirst()));
        QVERIFY(endedNormally(items, future));
    }

    void actingWhenNotRegistered()
    {
        Recorder manager;
        QTest::ignoreMessage(QtWarningMsg,
                             "Manager::release: Recorder is not registered with a Controller "
                             "(Controller::addManager())");
        QVERIFY(!manager.release(1));
        QVERIFY(manager.heldRequests().isEmpty());
    }

    void destroyedWhileHolding()
    {
        auto *manager = new Recorder;
        holdAll(*manager);
        QVERIFY(controller->addManager(manager));
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future = controller->fetch(items);
        QCOMPARE(manager->heldRequests().size(), 1);
        QTest::ignoreMessage(QtWarningMsg,
                             "Recorder was destroyed while registered with a Controller: it is "
                             "removed; the requests it held are sent (call "
                             "Controller::removeManager() first to say so)");
        delete manager;
        QVERIFY(controller->managers().isEmpty());
        QVERIFY(endedNormally(items, future));
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
    }

    void removedWhileHolding()
    {
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        QSignalSpy controllerChanged(&manager, &Manager::controllerChanged);
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future = controller->fetch(items);
        QVERIFY(controller->removeManager(&manager));
        QCOMPARE(manager.controller(), nullptr);
        QCOMPARE(controllerChanged.size(), 1);
        QVERIFY(manager.heldRequests().isEmpty());
        QVERIFY(endedNormally(items, future));
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
        QVERIFY(!controller->removeManager(&manager)); // not registered any more
    }

    void aStepThatThrows_data()
    {
        QTest::addColumn<QString>("step");
        QTest::addColumn<bool>("networkError");
        for (const QString &step :
             {u"requestStarted"_s, u"beforeSend"_s, u"decorate"_s, u"answered"_s, u"committed"_s}) {
            QTest::addRow("%s std::runtime_error", qPrintable(step)) << step << false;
            QTest::addRow("%s NetworkError", qPrintable(step)) << step << true;
        }
    }
    void aStepThatThrows()
    {
        QFETCH(QString, step);
        QFETCH(bool, networkError);
        Recorder &manager = *recorder();
        manager.setObjectName(u"thrower"_s);
        manager.throwAt = step;
        manager.throwNetworkError = networkError;
        holdAll(manager); // a throwing beforeSend() sends: it counts as doing nothing
        if (step != u"beforeSend")
            manager.decide = {};
        manager.headers = {{"X-Added", "1"}};
        QVERIFY(controller->addManager(&manager));
        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(
                u"^Recorder \"thrower\" threw in %1\\(\\): .*%2.*; the step goes on "
                "as if it did nothing$"_s.arg(
                    step, networkError ? u"the recorder refuses"_s : u"the recorder broke"_s)));
        const EndpointPtr items = endpoint();
        QVERIFY(endedNormally(items, controller->fetch(items)));
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
        QCOMPARE(manager.steps().size(), 5); // every step was still called
        // A decorate() that threw before adding its headers added none.
        QCOMPARE(server->lastRequest().hasHeader("x-added"), step != u"decorate");
    }

    void heldWhileTheControllerGoesOfflineAndBack()
    {
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future = controller->fetch(items);
        QCOMPARE(manager.heldRequests().size(), 1);
        const quint64 id = manager.heldRequests().constFirst();
        connectivity->setOnline(false);
        connectivity->setOnline(true);
        // Reconnecting sends what waited for the network, not what a manager holds.
        QCOMPARE(manager.heldRequests().size(), 1);
        QVERIFY(receivedExactly(0));
        // Released while offline: it now waits for the network, and goes once on reconnect.
        connectivity->setOnline(false);
        QVERIFY(manager.release(id));
        QTest::qWait(0);
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 0);
        QVERIFY(controller->getResponse(items).loading);
        connectivity->setOnline(true);
        QVERIFY(endedNormally(items, future));
        QVERIFY(receivedExactly(1));
        QCOMPARE(manager.steps(id),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"decorate#1"_s,
                               u"answered#1"_s, u"committed"_s}));
    }

    void holdingOutboxItemsKeepsTheirOrder()
    {
        server->route("PATCH", u"/notes/:id"_s, [](const RecordedRequest &request) {
            QJsonObject echoed = request.json().toObject();
            echoed.insert(u"id"_s, request.pathParams.value(u"id"_s).toInt());
            return ServerResponse::json(echoed);
        });
        const Resource notes = createResource({.path = u"/notes/:id"_s,
                                               .schema = Schema::entity(EntitySchema(u"Note"_s)),
                                               .urlPrefix = server->url(),
                                               .optimistic = true,
                                               .queueWhenOffline = true});
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        connectivity->setOnline(false);
        QFuture<QVariant> first = controller->fetch(notes.partialUpdate, {{u"id"_s, 1}},
                                                    QJsonObject {{u"title"_s, u"a"_s}});
        QFuture<QVariant> second = controller->fetch(notes.partialUpdate, {{u"id"_s, 2}},
                                                     QJsonObject {{u"title"_s, u"b"_s}});
        QCOMPARE(controller->outbox()->count(), 2);
        connectivity->setOnline(true);
        // The outbox sends its first item; the manager holds it; the second waits its turn.
        QCOMPARE(manager.heldRequests().size(), 1);
        const quint64 firstId = manager.heldRequests().constFirst();
        QVERIFY(receivedExactly(0));
        QVERIFY(manager.release(firstId));
        QVERIFY(await(first).value);
        QTRY_COMPARE(manager.heldRequests().size(), 1);
        QVERIFY(manager.heldRequests().constFirst() != firstId);
        QVERIFY(manager.release(manager.heldRequests().constFirst()));
        QVERIFY(await(second).value);
        const QList<RecordedRequest> sent = server->requests();
        QCOMPARE(sent.size(), 3); // with receivedExactly()'s sentinel
        QCOMPARE(sent.at(1).path, u"/notes/1"_s);
        QCOMPARE(sent.at(2).path, u"/notes/2"_s);
        QCOMPARE(controller->outbox()->count(), 0);
    }

    void aResetEndsWhatIsHeld()
    {
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future = controller->fetch(items);
        QCOMPARE(manager.heldRequests().size(), 1);
        const quint64 id = manager.heldRequests().constFirst();
        controller->resetEntireStore();
        QVERIFY(await(future).canceled());
        QVERIFY(manager.heldRequests().isEmpty());
        QVERIFY(manager.steps().contains(u"storeReset"_s));
        QVERIFY(atRest(items));
        QVERIFY(controller->store().resultKeys().isEmpty());
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"^Manager::release\\(%1\\): "_s.arg(id)));
        QVERIFY(!manager.release(id));
        QVERIFY(receivedExactly(0));
    }
};

QTEST_GUILESS_MAIN(tst_AppManagersInput)
#include "tst_appmanagers_input.moc"
