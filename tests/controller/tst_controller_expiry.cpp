// Expiry with a fake clock: fresh -> stale at dataExpiryLength, stale data shown
// while it refetches, error expiry, invalidate / invalidateAll / expireAll, and
// resetEntireStore() dropping answers to requests started before it.
#include "controllerfixture.h"

#include <DataClient/restendpoint.h>

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ControllerExpiry : public BackendTest
{
    Q_OBJECT

private:
    qint64 clock = 1'700'000'000'000;

    int requestCount() const { return int(backend->server.requestCount()); }

protected:
    void setUp() override
    {
        controller->setClock([this] { return clock; });
    }

private Q_SLOTS:
    void freshUntilDataExpiryLengthThenStale()
    {
        const qint64 start = clock;
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        ResponseState state = controller->getResponse(todos.getList, {});
        QCOMPARE(state.status, ExpiryStatus::Valid);
        QCOMPARE(state.fetchedAt, start);
        QCOMPARE(state.expiresAt, start + 60000); // the default dataExpiryLength

        clock = start + 59999;
        QCOMPARE(controller->getResponse(todos.getList, {}).status, ExpiryStatus::Valid);
        clock = start + 60000;
        state = controller->getResponse(todos.getList, {});
        QCOMPARE(state.status, ExpiryStatus::Stale);
        QVERIFY(state.hasData()); // stale data stays visible
        QCOMPARE(ids(state.data), (QList<int> {1, 2, 3, 4, 5}));
    }

    void endpointDataExpiryLengthApplies()
    {
        const EndpointPtr shortLived = todos.get->extend({.dataExpiryLength = 500});
        const qint64 start = clock;
        QVERIFY(await(controller->fetch(shortLived, {{u"id"_s, 1}})).value);
        QCOMPARE(controller->getResponse(shortLived, {{u"id"_s, 1}}).expiresAt, start + 500);
        clock = start + 500;
        QCOMPARE(controller->getResponse(shortLived, {{u"id"_s, 1}}).status, ExpiryStatus::Stale);
    }

    void staleDataStaysVisibleWhileRefetching()
    {
        const Params id {{u"id"_s, 1}};
        QVERIFY(await(controller->fetch(todos.get, id)).value);
        backend->api.setItem(u"/todos"_s, todo(1, 1, u"renamed"_s));
        clock += 60001;
        QCOMPARE(controller->getResponse(todos.get, id).status, ExpiryStatus::Stale);

        QFuture<QVariant> refetch = controller->fetchIfStale(todos.get, id);
        ResponseState during = controller->getResponse(todos.get, id);
        QVERIFY(during.loading);
        QVERIFY(during.hasData());
        QCOMPARE(during.status, ExpiryStatus::Stale);
        QCOMPARE(field(during.data).value(u"title"_s).toString(), u"one"_s);

        const Outcome outcome = await(refetch);
        QVERIFY(outcome.value);
        const ResponseState after = controller->getResponse(todos.get, id);
        QVERIFY(!after.loading);
        QCOMPARE(after.status, ExpiryStatus::Valid);
        QCOMPARE(field(after.data).value(u"title"_s).toString(), u"renamed"_s);
        QCOMPARE(backend->server.requests("GET", u"/todos/1"_s).size(), 2);
    }

    void fetchIfStaleSendsNothingWhileFreshAndJoinsARequestInFlight()
    {
        const Params id {{u"id"_s, 2}};
        QFuture<QVariant> first = controller->fetch(todos.get, id);
        QFuture<QVariant> joined = controller->fetchIfStale(todos.get, id);
        QVERIFY(await(first).value);
        QVERIFY(await(joined).value);
        QCOMPARE(requestCount(), 1);

        const Outcome fresh = await(controller->fetchIfStale(todos.get, id));
        QVERIFY(fresh.value);
        QCOMPARE(field(*fresh.value).value(u"title"_s).toString(), u"two"_s);
        QCOMPARE(requestCount(), 1);
    }

    void errorsExpireAfterErrorExpiryLength()
    {
        const Params missing {{u"id"_s, 99}};
        const qint64 start = clock;
        QVERIFY(await(controller->fetch(todos.get, missing)).error);
        ResponseState state = controller->getResponse(todos.get, missing);
        QCOMPARE(state.status, ExpiryStatus::Valid);
        QCOMPARE(state.expiresAt, start + 1000); // the default errorExpiryLength
        QVERIFY(state.showsError());

        // A fresh error is not retried: fetchIfStale fails at once with it.
        const Outcome again = await(controller->fetchIfStale(todos.get, missing));
        QVERIFY(again.error);
        QCOMPARE(again.error->status(), 404);
        QCOMPARE(requestCount(), 1);

        clock = start + 1000;
        state = controller->getResponse(todos.get, missing);
        QCOMPARE(state.status, ExpiryStatus::Stale);
        QVERIFY(await(controller->fetchIfStale(todos.get, missing)).error);
        QCOMPARE(requestCount(), 2);
    }

    void invalidateMakesTheKeyInvalidUntilTheNextResponse()
    {
        const Params id {{u"id"_s, 1}};
        const QString key = todos.get->key(id);
        QVERIFY(await(controller->fetch(todos.get, id)).value);
        ChangeRecorder changes(controller.get());
        QSignalSpy stateChanges(controller.get(), &Controller::fetchStateChanged);
        controller->invalidate(todos.get, id);

        const ResponseState state = controller->getResponse(todos.get, id);
        QCOMPARE(state.status, ExpiryStatus::Invalid);
        QVERIFY(!state.found);
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.constFirst().results.contains(key));
        QCOMPARE(stateChanges.size(), 1);
        QCOMPARE(stateChanges.constFirst().constFirst().toString(), key);
        // The entity itself stays in the entity table.
        QVERIFY(controller->get(todoSchema(), id).found);

        QVERIFY(await(controller->fetchIfStale(todos.get, id)).value);
        QCOMPARE(requestCount(), 2);
        QCOMPARE(controller->getResponse(todos.get, id).status, ExpiryStatus::Valid);
    }

    void invalidateAllSelectsKeysWithThePredicate()
    {
        const Params user1 {{u"userId"_s, 1}};
        const Params user2 {{u"userId"_s, 2}};
        QVERIFY(await(controller->fetch(todos.getList, user1)).value);
        QVERIFY(await(controller->fetch(todos.getList, user2)).value);
        ChangeRecorder changes(controller.get());
        controller->invalidateAll([](const QString &key) { return key.endsWith(u"userId=1"_s); });
        QCOMPARE(controller->getResponse(todos.getList, user1).status, ExpiryStatus::Invalid);
        QCOMPARE(controller->getResponse(todos.getList, user2).status, ExpiryStatus::Valid);
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.constFirst().results.contains(todos.getList->key(user1)));
        QVERIFY(!changes.sets.constFirst().results.contains(todos.getList->key(user2)));

        // A predicate that selects nothing: no signal.
        controller->invalidateAll([](const QString &) { return false; });
        QCOMPARE(changes.sets.size(), 1);
    }

    void expireAllKeepsDataVisibleButStale()
    {
        const Params user1 {{u"userId"_s, 1}};
        QVERIFY(await(controller->fetch(todos.getList, user1)).value);
        QVERIFY(await(controller->fetch(todos.get, {{u"id"_s, 4}})).value);
        QSignalSpy stateChanges(controller.get(), &Controller::fetchStateChanged);
        ChangeRecorder changes(controller.get());
        controller->expireAll([](const QString &key) { return key.contains(u"/todos?"_s); });

        const ResponseState list = controller->getResponse(todos.getList, user1);
        QCOMPARE(list.status, ExpiryStatus::Stale);
        QVERIFY(list.hasData());
        QCOMPARE(ids(list.data), (QList<int> {1, 2, 3}));
        QCOMPARE(controller->getResponse(todos.get, {{u"id"_s, 4}}).status, ExpiryStatus::Valid);
        QCOMPARE(stateChanges.size(), 1);
        QCOMPARE(stateChanges.constFirst().constFirst().toString(), todos.getList->key(user1));
        QVERIFY(changes.sets.isEmpty()); // no data changed

        QVERIFY(await(controller->fetchIfStale(todos.getList, user1)).value);
        QCOMPARE(backend->server.requests("GET", u"/todos"_s).size(), 2);
        QCOMPARE(controller->getResponse(todos.getList, user1).status, ExpiryStatus::Valid);
    }

    void resetEmptiesEverything()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        controller->setError(todos.get, {{u"id"_s, 9}},
                             NetworkError(NetworkError::Kind::Http, 404, u"gone"_s));
        ChangeRecorder changes(controller.get());
        controller->resetEntireStore();
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.constFirst().entities.contains(todoRef(3)));
        QVERIFY(changes.sets.constFirst().results.contains(todos.getList->key({})));
        QCOMPARE(controller->getResponse(todos.getList, {}).status, ExpiryStatus::Invalid);
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 3}}).found);
        QVERIFY(!controller->getError(todos.get, {{u"id"_s, 9}}));
        QCOMPARE(controller->store().entityCount(), 0);

        // Resetting an empty store is a no-op: no signal.
        controller->resetEntireStore();
        QCOMPARE(changes.sets.size(), 1);
    }

    void answerToARequestStartedBeforeResetIsDropped()
    {
        DeferredReplies replies;
        replies.install(backend->server, "GET", u"/slow/:id"_s);
        const EndpointPtr slow = RestEndpoint::create({.name = u"slow"_s,
                                                       .path = u"/slow/:id"_s,
                                                       .urlPrefix = backend->server.url(),
                                                       .schema = todoSchema()});
        const Params id {{u"id"_s, 1}};
        QFuture<QVariant> before = controller->fetch(slow, id);
        QVERIFY(replies.waitFor(1));
        QVERIFY(controller->isLoading(slow, id));

        QSignalSpy stateChanges(controller.get(), &Controller::fetchStateChanged);
        controller->resetEntireStore();
        QVERIFY(!controller->isLoading(slow, id));
        QCOMPARE(stateChanges.size(), 1);

        // A read after the reset does not join the doomed request.
        QFuture<QVariant> after = controller->fetch(slow, id);
        QVERIFY(replies.waitFor(2));

        ChangeRecorder changes(controller.get());
        replies.pending.at(0).responder.send(ServerResponse::json(todo(1, 1, u"before reset"_s)));
        const Outcome dropped = await(before);
        QVERIFY(dropped.finished);
        QVERIFY(dropped.canceled());
        QVERIFY(changes.sets.isEmpty());
        QVERIFY(!controller->get(todoSchema(), id).found);
        QVERIFY(controller->isLoading(slow, id)); // the new request is still loading

        replies.pending.at(1).responder.send(ServerResponse::json(todo(1, 1, u"after reset"_s)));
        const Outcome kept = await(after);
        QVERIFY(kept.value);
        QCOMPARE(field(*kept.value).value(u"title"_s).toString(), u"after reset"_s);
        QCOMPARE(changes.sets.size(), 1);
        QCOMPARE(field(controller->get(todoSchema(), id).data).value(u"title"_s),
                 QVariant(u"after reset"_s));
    }

    void resetDropsOptimisticLayersAndTheirAnswers()
    {
        const Resource optimistic = backend->resource(true);
        const Params id {{u"id"_s, 1}};
        QVERIFY(await(controller->fetch(optimistic.get, id)).value);
        backend->api.setLatency(50);
        QFuture<QVariant> update = controller->fetch(optimistic.partialUpdate, id,
                                                     QJsonObject {{u"title"_s, u"guess"_s}});
        QCOMPARE(field(controller->get(todoSchema(), id).data).value(u"title"_s),
                 QVariant(u"guess"_s));
        controller->resetEntireStore();
        QVERIFY(!controller->get(todoSchema(), id).found);
        ChangeRecorder changes(controller.get());
        QVERIFY(await(update).canceled());
        QVERIFY(changes.sets.isEmpty());
        QVERIFY(!controller->get(todoSchema(), id).found);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerExpiry)
#include "tst_controller_expiry.moc"
