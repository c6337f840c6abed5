// Large answers through the Controller while things change under the worker: the Controller
// destroyed, the store reset, an older optimistic guess, a newer answer; the parsed answer is
// released on a worker and the store keeps its records. (The outcome itself: tst_offthreadanswers.)
#include "offthreadfixture.h"

using namespace DataClient;
using namespace DataClient::Testing;
using namespace OffThreadFixture;
using namespace Qt::StringLiterals;

class tst_OffThreadLifetime : public Fixture
{
    Q_OBJECT

private Q_SLOTS:
    void init() { startServer(); }
    void cleanup() { stopServer(); }

    void controllerDestroyedWhileAWorkerRuns_data()
    {
        QTest::addColumn<QString>("stage"); // the debug message saying the worker started
        QTest::newRow("parsing") << parsedOff;
        QTest::newRow("normalizing") << u"normalizing"_s;
    }
    void controllerDestroyedWhileAWorkerRuns()
    {
        QFETCH(QString, stage);
        serve(todosBody(1, 5000));
        EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        auto controller = std::make_unique<Controller>();
        LogCapture log;
        WorkerGate gate(u"normalizing"_s);
        QFuture<QVariant> future = controller->fetch(endpoint, {});
        if (stage == u"normalizing"_s)
            QVERIFY(gate.waitForWorker()); // held before it normalizes
        else
            QVERIFY(log.waitFor(stage));
        controller.reset();
        endpoint.reset();
        gate.release();
        QThreadPool::globalInstance()->waitForDone();
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 5000));
        QVERIFY(future.isCanceled());
    }

    void resetWhileTheWorkerNormalizesDropsTheAnswer()
    {
        serve(todosBody(1, 5000));
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        Controller controller;
        LogCapture log;
        WorkerGate gate(u"normalizing"_s);
        QFuture<QVariant> future = controller.fetch(endpoint, {});
        QVERIFY(gate.waitForWorker());
        controller.resetEntireStore();
        gate.release();
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 10000));
        QVERIFY(future.isCanceled());
        QCOMPARE(controller.store().entityCount(), 0);
    }

    void largeAnswerKeepsAnUnansweredGuessUntilItsAnswer()
    {
        // An update started first shows its guess for todo 3 and waits for its answer; the large
        // list fetched after it commits todo 3 from the server, yet the guess's layer stays: a
        // read never removes a guess, which goes with its own change's answer (a read on the
        // wire with the change may have been answered without it). changed() names every todo,
        // the committed refs being compared with the layer as the store recorded them.
        serve(largeBody);
        QList<TestServer::Responder> held;
        server->routeDeferred(
            "PUT", u"/todos/:id"_s,
            [&held](const RecordedRequest &, const TestServer::Responder &responder) {
                held.append(responder);
            });
        const EndpointPtr list = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        EndpointOptions updateOptions = options(u"/todos/:id"_s, Schema::entity(todoEntity()));
        updateOptions.method = "PUT";
        updateOptions.optimistic = true;
        updateOptions.getOptimisticResponse
            = [](const Params &, const QJsonValue &body,
                 const Store *) -> std::optional<QJsonValue> { return body; };
        const EndpointPtr update = RestEndpoint::create(updateOptions);
        Controller controller;
        QJsonObject guess = todo(3);
        guess[u"title"_s] = u"guessed"_s;
        QFuture<QVariant> updating = controller.fetch(update, {{u"id"_s, 3}}, guess);
        QCOMPARE(controller.store().optimisticLayers().size(), 1);
        QTRY_COMPARE(held.size(), 1);

        QSignalSpy changed(&controller, &Controller::changed);
        const Outcome fetched = await(controller.fetch(list, {}));
        QVERIFY(fetched.value);
        QCOMPARE(fetched.value->toList().at(2).toMap().value(u"title"_s).toString(),
                 u"todo number 3 with some text"_s); // the answer, as the server sent it
        const auto shownTitle = [&controller] {
            return controller.get(Schema::entity(todoEntity()), {{u"id"_s, 3}})
                .data.toMap()
                .value(u"title"_s)
                .toString();
        };
        QCOMPARE(controller.store().optimisticLayers().size(), 1);
        QCOMPARE(changed.size(), 1);
        const ChangeSet changes = changed.first().first().value<ChangeSet>();
        QVERIFY(changes.entities.contains(EntityRef {u"Todo"_s, u"3"_s}));
        QVERIFY(changes.entities.contains(EntityRef {u"Todo"_s, u"1000"_s}));
        const QList<EntityRef> refs = changes.entities.values();
        QCOMPARE(std::count_if(refs.cbegin(), refs.cend(),
                               [](const EntityRef &ref) { return ref.key == u"Todo"_s; }),
                 1000);
        // The change's own answer ends the guess.
        QJsonObject confirmed = todo(3);
        confirmed[u"title"_s] = u"confirmed"_s;
        held.first().send(ServerResponse::json(confirmed));
        QVERIFY(await(updating).value);
        QVERIFY(controller.store().optimisticLayers().isEmpty());
        QCOMPARE(shownTitle(), u"confirmed"_s);
    }

    void parsedAnswerIsReleasedOnAWorkerAndTheStoreKeepsItsRecords()
    {
        // Once committed, the parsed answer is dropped on a worker (not in the GUI thread's next
        // event-loop turn); what the store, the model and the caller's value show is unaffected,
        // and nothing leaks (the ASan run sees the whole round).
        serve(largeBody);
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        auto controller = std::make_unique<Controller>();
        CollectionModel view(controller.get(), endpoint, {});
        QTRY_COMPARE_WITH_TIMEOUT(view.rowCount(), 1000, 30000);
        const Outcome fetched = await(controller->fetch(endpoint, {}));
        QVERIFY(fetched.value);
        QThreadPool::globalInstance()->waitForDone(); // the worker has released the parse tree
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        const QVariantList rows = fetched.value->toList();
        QCOMPARE(rows.size(), 1000);
        const QVariantMap last = rows.last().toMap();
        QCOMPARE(last.value(u"title"_s).toString(), u"todo number 1000 with some text"_s);
        QCOMPARE(last.value(u"author"_s).toMap().value(u"name"_s).toString(), u"user 6"_s);
        QCOMPARE(plain(controller->getResponse(endpoint, {}).data), plain(*fetched.value));
        QCOMPARE(view.rowCount(), 1000);
        QCOMPARE(controller->store().entityCount(u"Todo"_s), 1000);
        QCOMPARE(controller->store().entityCount(u"User"_s), 7);
        view.setController(nullptr);
        controller.reset();
    }

    void newerAnswerWinsOverAnOlderLargeOne()
    {
        // The large answer is still being normalized when a newer value is set for the key:
        // the result stays the newer one (race rule), the older one only adds what is missing.
        serve(largeBody);
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        Controller controller;
        LogCapture log;
        WorkerGate gate(u"normalizing"_s);
        QFuture<QVariant> future = controller.fetch(endpoint, {});
        QVERIFY(gate.waitForWorker());
        QJsonObject newer = todo(1);
        newer[u"title"_s] = u"newer"_s;
        QVERIFY(controller.setResponse(endpoint, {}, QJsonArray {newer}).ok());
        gate.release();
        QVERIFY(await(future).value);
        const QVariantList list = controller.getResponse(endpoint, {}).data.toList();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().toMap().value(u"title"_s).toString(), u"newer"_s);
        QCOMPARE(controller.store().entityCount(u"Todo"_s), 1000);
    }
};

QTEST_MAIN(tst_OffThreadLifetime)
#include "tst_offthreadlifetime.moc"
