// Large answers through the Controller: parsed and normalized on a worker, committed on the GUI
// thread in one step, with the same outcome as the small path; errors leave the store untouched;
// C++ hooks keep running on the GUI thread. (Destroying things meanwhile: tst_offthreadlifetime.)
#include "offthreadfixture.h"

#include <DataClient/record.h>
#include <DataClient/rowlist.h>
#include <DataClient/private/rowlist_p.h>

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

    // A list long enough for the store to keep in chunks (RowList::ChunkedFrom rows), through
    // the whole path: a model shows it, one todo changed by a later answer is one dataChanged, and
    // the new list shares every chunk but that todo's with the list shown before.
    void aLongListIsChunkedAndOneChangedTodoIsOneRow()
    {
        const int n = int(RowList::ChunkedFrom) + 10;
        QByteArray body = "["; // plain todos, written directly: 65k of them stay quick in ASan
        for (int id = 1; id <= n; ++id) {
            body += (id > 1 ? ",{\"id\":" : "{\"id\":") + QByteArray::number(id)
                + ",\"title\":\"todo " + QByteArray::number(id) + "\"}";
        }
        serve(body + "]");
        const QJsonObject edited {{u"id"_s, n - 3}, {u"title"_s, u"edited"_s}};
        server->route("GET", u"/todos/:id"_s,
                      [edited](const RecordedRequest &) { return ServerResponse::json(edited); });
        const Schema todo = Schema::entity(EntitySchema(u"Todo"_s));
        const EndpointPtr list
            = RestEndpoint::create(options(u"/todos"_s, Schema::collection(Schema::array(todo))));
        const EndpointPtr one = RestEndpoint::create(options(u"/todos/:id"_s, todo));
        Controller controller;
        CollectionModel view(&controller, list, {});
        QVERIFY(await(controller.fetch(list, {})).value);
        QCOMPARE(view.rowCount(), n);
        const RowList shown = rowsOf(controller.getResponse(list, {}).data);
        QCOMPARE(shown.size(), n);
        QCOMPARE(RowListInternals::chunkCount(shown),
                 (n + RowList::ChunkRows - 1) / RowList::ChunkRows);

        QSignalSpy changed(&view, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&view, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&view, &QAbstractItemModel::rowsRemoved);
        QVERIFY(await(controller.fetch(one, {{u"id"_s, n - 3}})).value);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), n - 4);
        QCOMPARE(inserted.size() + removed.size(), 0);
        QCOMPARE(view.get(n - 4).toMap().value(u"title"_s).toString(), u"edited"_s);

        const RowList after = rowsOf(controller.getResponse(list, {}).data);
        QCOMPARE(after.size(), n);
        QCOMPARE(after.at(n - 4).value<Record>().value(u"title"_s).toString(), u"edited"_s);
        QCOMPARE(shown.at(n - 4).value<Record>().value(u"title"_s).toString(),
                 u"todo %1"_s.arg(n - 3)); // the list shown before: unchanged
        QVERIFY(&after.at(0) == &shown.at(0)); // another chunk: shared, not copied
        QVERIFY(&after.at(n - 4) != &shown.at(n - 4));
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
