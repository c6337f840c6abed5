// Large answers through the Controller: parsed and normalized on a worker, committed on the GUI
// thread in one step, with the same outcome as the small path; errors leave the store untouched;
// C++ hooks keep running on the GUI thread. (Destroying things meanwhile: tst_offthreadlifetime.)
#include "offthreadfixture.h"

using namespace DataClient;
using namespace DataClient::Testing;
using namespace OffThreadFixture;
using namespace Qt::StringLiterals;

class tst_OffThreadAnswers : public Fixture
{
    Q_OBJECT

private Q_SLOTS:
    void init() { startServer(); }
    void cleanup() { stopServer(); }

    void largeListArrivesLikeTheSmallPath()
    {
        serve(largeBody);
        const EndpointPtr fast = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        const auto slow = std::make_shared<PlainSubclass>(options(u"/todos"_s, listSchema()));
        Controller a;
        Controller b;
        CollectionModel view(&a, fast, {});
        QAbstractItemModelTester tester(&view,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&view, &QAbstractItemModel::rowsInserted);
        QSignalSpy changedA(&a, &Controller::changed);

        LogCapture log;
        const Outcome viaWorker = await(a.fetch(fast, {}));
        QCOMPARE(log.count(parsedOff), 1);
        QCOMPARE(log.count(u"normalizing"_s), 1);
        log.clear();
        const Outcome viaGui = await(b.fetch(slow, {}));
        QCOMPARE(log.count(normalizedOff), 0);

        QVERIFY(viaWorker.value && viaGui.value);
        QCOMPARE(viaWorker.value->toList().size(), 1000);
        QCOMPARE(plain(*viaWorker.value), plain(*viaGui.value));
        QCOMPARE(a.store().entityCount(u"Todo"_s), 1000);
        QCOMPARE(a.store().entityCount(u"User"_s), 7);
        QCOMPARE(a.store().entityCount(), b.store().entityCount());
        // nested entity and deserialized field
        const QVariantMap third = viaWorker.value->toList().at(2).toMap();
        QCOMPARE(third.value(u"author"_s).toMap().value(u"name"_s).toString(), u"user 3"_s);
        QCOMPARE(third.value(u"createdAt"_s).toDateTime(),
                 utcDateTime(QDate(2024, 1, 2), QTime(3, 4, 5)));
        // committed in one step: one changed(), the view got all rows at once
        QCOMPARE(changedA.size(), 1);
        QCOMPARE(view.rowCount(), 1000);
        QCOMPARE(inserted.size(), 1);
        QVERIFY(!a.getResponse(fast, {}).loading);
    }

    void pushAppendsToALargeList()
    {
        serve(largeBody);
        server->route("POST", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(todosBody(5000, 400), "application/json", 201);
        });
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = Schema::entity(todoEntity()),
                                               .urlPrefix = server->url()});
        Controller controller;
        QVERIFY(await(controller.fetch(todos.getList, {})).value);
        LogCapture log;
        const Outcome pushed
            = await(controller.fetch(todos.getList.push, {}, QJsonArray {todo(5000)}));
        QVERIFY2(pushed.value, pushed.error ? qPrintable(pushed.error->message()) : "canceled");
        QCOMPARE(log.count(u"normalizing"_s), 1);
        const QVariantList list = controller.getResponse(todos.getList, {}).data.toList();
        QCOMPARE(list.size(), 1400);
        QCOMPARE(list.at(999).toMap().value(u"id"_s).toInt(), 1000);
        QCOMPARE(list.at(1000).toMap().value(u"id"_s).toInt(), 5000);
        QCOMPARE(list.last().toMap().value(u"id"_s).toInt(), 5399);
    }

    void malformedLargeJsonFailsAndLeavesTheStoreUntouched()
    {
        QByteArray broken = largeBody;
        broken.chop(30);
        serve(broken);
        server->route("GET", u"/todos/:id"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(QJsonDocument(todo(1)).toJson(), "application/json");
        });
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = Schema::entity(todoEntity()),
                                               .urlPrefix = server->url()});
        Controller controller;
        QVERIFY(await(controller.fetch(todos.get, {{u"id"_s, 1}})).value);
        const qsizetype before = controller.store().entityCount();
        QSignalSpy changed(&controller, &Controller::changed);
        const Outcome outcome = await(controller.fetch(todos.getList, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidResponse);
        QVERIFY2(outcome.error->message().contains(u"the response is not valid JSON"_s),
                 qPrintable(outcome.error->message()));
        QVERIFY(outcome.error->message().contains(u"at offset"_s));
        QCOMPARE(controller.store().entityCount(), before);
        QVERIFY(!controller.store().hasResult(todos.getList->key({})));
        QCOMPARE(changed.size(), 0);
        const ResponseState state = controller.getResponse(todos.getList, {});
        QVERIFY(state.error);
        QVERIFY(!state.loading);
    }

    void largeNonJsonBodyFails()
    {
        serve(QByteArray(RestEndpoint::OffThreadBodySize * 2, 'x'), "text/html");
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        Controller controller;
        const Outcome outcome = await(controller.fetch(endpoint, {}));
        QVERIFY(outcome.error);
        QVERIFY2(outcome.error->message().contains(u"unexpected text response (Content-Type "
                                                   "'text/html')"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(controller.store().entityCount(), 0);
    }

    void largeAnswerThatDoesNotFitTheSchemaFails()
    {
        QJsonArray list = QJsonDocument::fromJson(largeBody).array();
        QJsonObject last = list.last().toObject();
        last.remove(u"id"_s);
        list.append(last);
        serve(QJsonDocument(list).toJson(QJsonDocument::Compact));
        const EndpointPtr endpoint = RestEndpoint::create(options(u"/todos"_s, listSchema()));
        Controller controller;
        LogCapture log;
        const Outcome outcome = await(controller.fetch(endpoint, {}));
        QCOMPARE(log.count(u"normalizing"_s), 1);
        QVERIFY(outcome.error);
        QVERIFY2(outcome.error->message().contains(u"does not fit the endpoint's schema"_s),
                 qPrintable(outcome.error->message()));
        QVERIFY2(outcome.error->message().contains(u"[1000].id"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(controller.store().entityCount(), 0);
    }

    void emptyBodyAndNoContent()
    {
        serve({});
        server->route("DELETE", u"/todos/:id"_s,
                      [](const RecordedRequest &) { return ServerResponse::noContent(); });
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = Schema::entity(todoEntity()),
                                               .urlPrefix = server->url()});
        // The same outcome as an endpoint that takes the GUI-thread path.
        const auto slow = std::make_shared<PlainSubclass>(options(u"/todos"_s, listSchema()));
        Controller controller;
        Controller other;
        const Outcome empty = await(controller.fetch(todos.getList, {}));
        const Outcome reference = await(other.fetch(slow, {}));
        QCOMPARE(bool(empty.value), bool(reference.value));
        QCOMPARE(bool(empty.error), bool(reference.error));
        if (empty.error)
            QCOMPARE(empty.error->message(), reference.error->message());
        else
            QCOMPARE(empty.value->toList().size(), reference.value->toList().size());
        // 204 on a delete: resolves, the entity is gone
        const Outcome deleted = await(controller.fetch(todos.remove, {{u"id"_s, 3}}));
        QVERIFY2(deleted.value, deleted.error ? qPrintable(deleted.error->message()) : "canceled");
    }

    void cppHooksGetTheirJsonValueOnTheGuiThread()
    {
        serve(largeBody);
        HookedEndpoint::threads.clear();
        const auto endpoint = std::make_shared<HookedEndpoint>(options(u"/todos"_s, listSchema()));
        Controller controller;
        LogCapture log;
        const Outcome outcome = await(controller.fetch(endpoint, {}));
        QVERIFY(outcome.value);
        QCOMPARE(HookedEndpoint::threads,
                 (QList<QThread *> {QThread::currentThread(), QThread::currentThread()}));
        QCOMPARE(HookedEndpoint::items, 1000);
        QCOMPARE(log.count(parsedOff), 0);
        QCOMPARE(log.count(u"normalizing"_s), 0);
        QCOMPARE(controller.store().entityCount(u"Todo"_s), 1000);
    }

    void schemaFunctionsKeepNormalizingOnTheGuiThread()
    {
        serve(largeBody);
        QList<QThread *> threads;
        const EntitySchema keyed(u"Todo"_s, [&threads](const QJsonObject &record) {
            if (!threads.contains(QThread::currentThread()))
                threads.append(QThread::currentThread());
            return QString::number(record.value(u"id"_s).toInt());
        });
        const Schema schema = Schema::collection(Schema::array(Schema::entity(keyed)));
        Controller controller;
        LogCapture log;
        const Outcome outcome
            = await(controller.fetch(RestEndpoint::create(options(u"/todos"_s, schema)), {}));
        QVERIFY(outcome.value);
        QCOMPARE(log.count(parsedOff), 1); // parsing needs no hook
        QCOMPARE(log.count(u"normalizing"_s), 0);
        QCOMPARE(threads, (QList<QThread *> {QThread::currentThread()}));
        QCOMPARE(controller.store().entityCount(u"Todo"_s), 1000);
    }
};

QTEST_MAIN(tst_OffThreadAnswers)
#include "tst_offthreadanswers.moc"
