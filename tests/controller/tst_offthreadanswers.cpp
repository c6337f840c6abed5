// Large answers through the Controller: parsed and normalized on a worker, committed on the GUI
// thread in one step, with the same outcome as the small path; errors leave the store untouched;
// C++ hooks keep running on the GUI thread; destroying things meanwhile is safe.
#include "logcapture.h"
#include "controllerfixture.h"
#include "utcdatetime.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/store.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QThread>
#include <QtCore/QThreadPool>
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

const QString parsedOff = u"bytes off the GUI thread"_s; // RestEndpoint::fetchCompact()
const QString normalizedOff = u"off the GUI thread"_s; // "normalizing <key> off the GUI thread"

QJsonObject todo(int id)
{
    return {{u"id"_s, id},
            {u"title"_s, u"todo number %1 with some text"_s.arg(id)},
            {u"createdAt"_s, u"2024-01-02T03:04:05Z"_s},
            {u"author"_s, QJsonObject {{u"id"_s, id % 7}, {u"name"_s, u"user %1"_s.arg(id % 7)}}}};
}

QByteArray todosBody(int from, int count)
{
    QJsonArray list;
    for (int i = from; i < from + count; ++i)
        list.append(todo(i));
    return QJsonDocument(list).toJson(QJsonDocument::Compact);
}

Schema userSchema()
{
    return Schema::entity(EntitySchema(u"User"_s));
}

EntitySchema todoEntity()
{
    return EntitySchema(u"Todo"_s)
        .withField(u"createdAt"_s, Deserialize::dateTime())
        .withNested(u"author"_s, userSchema());
}

using ControllerFixture::Outcome;

// Large answers under sanitizers take longer than the fixture's default wait.
Outcome await(QFuture<QVariant> future)
{
    return ControllerFixture::await(std::move(future), 30000);
}

//! No hook overridden: only the type differs, so the answer takes the GUI-thread path.
class PlainSubclass : public EndpointBase<PlainSubclass>
{
public:
    using EndpointBase::EndpointBase;
};

//! Overrides both hooks: they must see the QJsonValue, on the GUI thread.
class HookedEndpoint : public EndpointBase<HookedEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QJsonValue parseResponse(const Response &response) const override
    {
        threads.append(QThread::currentThread());
        return RestEndpoint::parseResponse(response);
    }
    QJsonValue process(const QJsonValue &value, const Params &params) const override
    {
        threads.append(QThread::currentThread());
        items = value.toArray().size();
        return RestEndpoint::process(value, params);
    }
    static inline QList<QThread *> threads;
    static inline qsizetype items = -1;
};

//! Rows of a denormalized list as plain maps (Records compared field by field).
QVariantList plain(const QVariant &list)
{
    QVariantList rows;
    const QVariantList items = list.toList();
    for (const QVariant &item : items) {
        QVariantMap row = item.toMap();
        row[u"author"_s] = row.value(u"author"_s).toMap();
        rows.append(row);
    }
    return rows;
}

} // namespace

class tst_OffThreadAnswers : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestServer> server;
    QByteArray largeBody;

    EndpointOptions options(const QString &path, const Schema &schema) const
    {
        EndpointOptions o;
        o.path = path;
        o.urlPrefix = server->url();
        o.schema = schema;
        return o;
    }
    Schema listSchema() const
    {
        return Schema::collection(Schema::array(Schema::entity(todoEntity())));
    }
    void serve(const QByteArray &body, const QByteArray &type = "application/json")
    {
        server->route("GET", u"/todos"_s, [body, type](const RecordedRequest &) {
            return ServerResponse::raw(body, type);
        });
    }

private Q_SLOTS:
    void init()
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        largeBody = todosBody(1, 1000);
        QVERIFY(largeBody.size() >= RestEndpoint::OffThreadBodySize);
    }
    void cleanup()
    {
        QThreadPool::globalInstance()->waitForDone();
        server.reset();
    }

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
        QFuture<QVariant> future = controller->fetch(endpoint, {});
        QVERIFY(log.waitFor(stage));
        controller.reset();
        endpoint.reset();
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
        QFuture<QVariant> future = controller.fetch(endpoint, {});
        QVERIFY(log.waitFor(u"normalizing"_s));
        controller.resetEntireStore();
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 10000));
        QVERIFY(future.isCanceled());
        QCOMPARE(controller.store().entityCount(), 0);
    }

    void largeAnswerRemovesAnOlderOptimisticGuess()
    {
        // An update started first shows its guess for todo 3 and waits for its answer; the large
        // list fetched after it commits todo 3 from the server, so the older guess is no longer
        // shown (the race rule: the committed refs are compared with the layer only now that
        // the Controller keeps them as the store recorded them), and changed() names every todo.
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
                 u"todo number 3 with some text"_s);
        QVERIFY(controller.store().optimisticLayers().isEmpty());
        QCOMPARE(changed.size(), 1);
        const ChangeSet changes = changed.first().first().value<ChangeSet>();
        QVERIFY(changes.entities.contains(EntityRef {u"Todo"_s, u"3"_s}));
        QVERIFY(changes.entities.contains(EntityRef {u"Todo"_s, u"1000"_s}));
        const QList<EntityRef> refs = changes.entities.values();
        QCOMPARE(std::count_if(refs.cbegin(), refs.cend(),
                               [](const EntityRef &ref) { return ref.key == u"Todo"_s; }),
                 1000);
        updating.cancel();
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
        QFuture<QVariant> future = controller.fetch(endpoint, {});
        QVERIFY(log.waitFor(u"normalizing"_s));
        QJsonObject newer = todo(1);
        newer[u"title"_s] = u"newer"_s;
        QVERIFY(controller.setResponse(endpoint, {}, QJsonArray {newer}).ok());
        QVERIFY(await(future).value);
        const QVariantList list = controller.getResponse(endpoint, {}).data.toList();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().toMap().value(u"title"_s).toString(), u"newer"_s);
        QCOMPARE(controller.store().entityCount(u"Todo"_s), 1000);
    }
};

QTEST_MAIN(tst_OffThreadAnswers)
#include "tst_offthreadanswers.moc"
