// A deleted entity as a view sees it: a query of one entity (CollectionModel on `get`, the base of QML's
// Suspense) whose entity is deleted through another endpoint reports it missing — the key is
// Invalid, nothing is shown — and refetches it: the server's answer decides what is shown next.
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <optional>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_DeletedEntityQuery : public QObject
{
    Q_OBJECT

private:
    TestServer server;
    std::unique_ptr<FakeRestApi> api;
    std::unique_ptr<Controller> controller;

    Resource makeResource(bool optimistic) const
    {
        return createResource({.path = u"/todos/:id"_s,
                               .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                               .urlPrefix = server.baseUrl().toString(),
                               .optimistic = optimistic});
    }
    qsizetype reads(int id) const { return server.requests("GET", u"/todos/%1"_s.arg(id)).size(); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(server.listen()); }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        api = std::make_unique<FakeRestApi>(&server);
        QVERIFY(api->addCollection(u"/todos"_s, SampleData::todos(12, 3)));
        controller = std::make_unique<Controller>();
    }
    void cleanup()
    {
        controller.reset();
        api.reset();
    }

    void controllerReportsTheDeletedEntityInvalid()
    {
        const Resource todos = makeResource(false);
        const Params three {{u"id"_s, 3}};
        QFuture<QVariant> read = controller->fetch(todos.get, three);
        QTRY_VERIFY(read.isFinished());
        QCOMPARE(controller->getResponse(todos.get, three).status, ExpiryStatus::Valid);

        QFuture<QVariant> removed = controller->fetch(todos.remove, three);
        QTRY_VERIFY(removed.isFinished());
        const ResponseState state = controller->getResponse(todos.get, three);
        QCOMPARE(state.status, ExpiryStatus::Invalid);
        QVERIFY(!state.found);
        QVERIFY(!state.hasData());
        QVERIFY(!state.error);
        // Invalid means "fetch": fetchIfStale() sends a request (it would not for a fresh key).
        QFuture<QVariant> again = controller->fetchIfStale(todos.get, three);
        QTRY_VERIFY(again.isFinished());
        QCOMPARE(reads(3), 2);
    }

    void singleEntityQueryShowsNothingThenRefetches_data()
    {
        QTest::addColumn<bool>("optimistic");
        QTest::addColumn<bool>("serverKeepsIt");

        QTest::newRow("deleted on the server") << false << false;
        QTest::newRow("deleted on the server, optimistic") << true << false;
        QTest::newRow("the server still has it") << false << true;
        QTest::newRow("the server still has it, optimistic") << true << true;
    }
    void singleEntityQueryShowsNothingThenRefetches()
    {
        QFETCH(bool, optimistic);
        QFETCH(bool, serverKeepsIt);
        if (serverKeepsIt) {
            // A DELETE the server acknowledges but does not carry out (TestServer: later routes
            // win over the api's).
            server.route("DELETE", u"/todos/:id"_s,
                         [](const RecordedRequest &) { return ServerResponse::noContent(); });
        }
        const Resource todos = makeResource(optimistic);
        const Params three {{u"id"_s, 3}};
        CollectionModel model(controller.get(), todos.get, three);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QCOMPARE(model.value().toMap().value(u"id"_s).toInt(), 3);
        QCOMPARE(reads(3), 1);

        // What the key and the model show when the store first loses Todo 3 (the model's own
        // handler has already run: it was connected first).
        struct Seen
        {
            ExpiryStatus status;
            bool found;
            CollectionModel::Status modelStatus;
            bool modelHasValue;
        };
        std::optional<Seen> seen;
        connect(controller.get(), &Controller::changed, this, [&](const ChangeSet &changes) {
            if (seen || !changes.entities.contains(EntityRef {u"Todo"_s, u"3"_s}))
                return;
            const ResponseState state = controller->getResponse(todos.get, three);
            seen = Seen {state.status, state.found, model.status(), model.value().isValid()};
        });

        QFuture<QVariant> removed = controller->fetch(todos.remove, three);
        QTRY_VERIFY(removed.isFinished());
        QVERIFY(seen);
        QCOMPARE(seen->status, ExpiryStatus::Invalid);
        QVERIFY(!seen->found);
        QCOMPARE(seen->modelStatus, CollectionModel::Loading);
        QVERIFY(!seen->modelHasValue);
        QCOMPARE(server.requests("DELETE", u"/todos/3"_s).size(), 1);

        // The query refetches by itself.
        QTRY_COMPARE(reads(3), 2);
        if (serverKeepsIt) {
            QTRY_COMPARE(model.status(), CollectionModel::Ready);
            QCOMPARE(model.value().toMap().value(u"id"_s).toInt(), 3);
            QCOMPARE(controller->getResponse(todos.get, three).status, ExpiryStatus::Valid);
        } else {
            QTRY_COMPARE(model.status(), CollectionModel::Error);
            QCOMPARE(model.networkError()->status(), 404);
            QVERIFY(!model.value().isValid());
        }
        QVERIFY(!model.isLoading());
    }

    void optimisticDeleteAnsweredAfterTheRefetch()
    {
        // An optimistic delete still in flight: the query shows nothing and waits for it
        // (loading: what shows next depends on that request) instead of refetching an entity
        // the layer hides anyway. Once the DELETE is confirmed, it reads again: the entity is
        // gone, so it refetches once and ends in a definite state (the server's 404).
        std::optional<TestServer::Responder> deleteReply;
        server.routeDeferred("DELETE", u"/todos/:id"_s,
                             [&](const RecordedRequest &, const TestServer::Responder &responder) {
                                 deleteReply = responder;
                             });
        const Resource todos = makeResource(true);
        const Params three {{u"id"_s, 3}};
        CollectionModel model(controller.get(), todos.get, three);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QCOMPARE(reads(3), 1);

        QFuture<QVariant> removed = controller->fetch(todos.remove, three);
        QCOMPARE(model.status(), CollectionModel::Loading); // optimistic: gone at once
        QVERIFY(!model.value().isValid());
        QVERIFY(model.isLoading()); // waiting for the DELETE
        QTRY_VERIFY(deleteReply);
        QCOMPARE(reads(3), 1); // no refetch of what the layer hides

        QVERIFY(api->removeItem(u"/todos"_s, 3));
        deleteReply->send(ServerResponse::noContent());
        QTRY_VERIFY(removed.isFinished());
        QTRY_COMPARE(model.status(), CollectionModel::Error);
        QCOMPARE(reads(3), 2); // one refetch, answered 404
        QCOMPARE(model.errorValue().toMap().value(u"status"_s).toInt(), 404);
        QVERIFY(!model.isLoading());
    }
};

QTEST_MAIN(tst_DeletedEntityQuery)
#include "tst_deletedentityquery.moc"
