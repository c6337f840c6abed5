// An application's Manager end to end against the in-process server: the steps it sees for a
// read, a retried read, an optimistic mutation (kept and refused) and a 304; the headers it adds;
// holding and releasing a request; answering or failing it instead of the network; the deadline
// of a request held and never released.
#include "appmanagersfixture.h"

#include <DataClient/collectionmodel.h>

#include <QSignalSpy>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_AppManagers : public AppManagerTest
{
    Q_OBJECT

private Q_SLOTS:
    void aReadGoesThroughEveryStepOnce()
    {
        Recorder &manager = *recorder();
        QVERIFY(controller->addManager(&manager));
        QCOMPARE(manager.controller(), controller.get());
        const EndpointPtr items = endpoint();
        QCOMPARE(resolved(controller->fetch(items)).toList(), (QVariantList {1, 2}));
        QCOMPARE(manager.steps(),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"decorate#1"_s,
                               u"answered#1"_s, u"committed"_s}));
        QCOMPARE(manager.ids().size(), 1);
        for (const Seen &seen : std::as_const(manager.seen))
            QCOMPARE(seen.key, items->key({}));
    }

    void aRetriedReadIsAskedAgainAtEachAttempt()
    {
        Recorder &manager = *recorder();
        QVERIFY(controller->addManager(&manager));
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {7})};
        const EndpointPtr items = endpoint("GET", RetryPolicy {1, 100, 1000});
        QFuture<QVariant> future;
        QVERIFY(fetchUntilRetrying(items, &future));
        clock->advance(1000);
        QCOMPARE(resolved(future).toList(), (QVariantList {7}));
        QCOMPARE(server->requestCount(), 2);
        QCOMPARE(manager.steps(),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"decorate#1"_s,
                               u"answered#1"_s, u"attemptFailed(retrying)#1"_s, u"beforeSend#2"_s,
                               u"decorate#2"_s, u"answered#2"_s, u"committed"_s}));
    }

    void anOptimisticMutationAndOneRefused()
    {
        QVERIFY(await(controller->fetch(todos.getList)).value);
        Recorder &manager = *recorder();
        QVERIFY(controller->addManager(&manager));
        QCOMPARE(resolved(controller->fetch(todos.partialUpdate, {{u"id"_s, 1}},
                                            QJsonObject {{u"title"_s, u"kept"_s}}))
                     .toMap()
                     .value(u"title"_s),
                 QVariant(u"kept"_s));
        QCOMPARE(manager.steps(),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"decorate#1"_s,
                               u"answered#1"_s, u"committed"_s}));

        // Refused: held first, so the guess is seen in the store before the server refuses it.
        // The manager that released it is not asked again for that attempt.
        manager.seen.clear();
        holdAll(manager);
        QFuture<QVariant> refused = controller->fetch(todos.partialUpdate, {{u"id"_s, 2}},
                                                      QJsonObject {{u"title"_s, u"guess"_s}});
        QCOMPARE(manager.heldRequests().size(), 1);
        const auto title = [this] {
            return controller->get(todoSchema(), {{u"id"_s, 2}}).data.toMap().value(u"title"_s);
        };
        QCOMPARE(title(), QVariant(u"guess"_s));
        ChangeRecorder changes(controller.get());
        api->failNext(1, 422);
        manager.decide = {};
        QVERIFY(manager.release(manager.heldRequests().constFirst()));
        const Outcome outcome = await(refused);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 422);
        QCOMPARE(title(), QVariant(u"two"_s)); // rolled back
        QVERIFY(changes.all().entities.contains(todoRef(2)));
        QCOMPARE(manager.steps(),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"decorate#1"_s,
                               u"answered#1"_s, u"attemptFailed#1"_s, u"failed"_s}));
        QCOMPARE(manager.lastFailure->status(), 422);
    }

    void aNotModifiedAnswerIsAnsweredNotCommitted()
    {
        script = {ServerResponse::json(QJsonArray {1, 2}).withHeader("ETag", "\"v1\"")};
        ServerResponse notModified;
        notModified.status = 304;
        script.append(notModified.withHeader("ETag", "\"v1\""));
        const EndpointPtr items = endpoint();
        QVERIFY(await(controller->fetch(items)).value);
        Recorder &manager = *recorder();
        QVERIFY(controller->addManager(&manager));
        ChangeRecorder changes(controller.get());
        QCOMPARE(resolved(controller->fetch(items)).toList(), (QVariantList {1, 2}));
        QCOMPARE(server->lastRequest().header("if-none-match"), QByteArray("\"v1\""));
        // The validators take a 304 over before anything is committed: the stored data stays (no
        // change signalled); app managers see it answered, not as a failed attempt, neither
        // committed nor failed.
        QCOMPARE(manager.steps(),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"decorate#1"_s,
                               u"answered#1"_s}));
        QCOMPARE(controller->getResponse(items).data.toList(), (QVariantList {1, 2}));
        QVERIFY(changes.sets.isEmpty());
        QVERIFY(atRest(items));
    }

    void decorateAddsAndReplacesHeaders()
    {
        Recorder &manager = *recorder();
        manager.headers = {{"X-Trace", "abc"}, {"x-app", "from-manager"}};
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items = endpoint()->extend(
            {.headers = Headers {{"X-App", "from-endpoint"}, {"X-Keep", "1"}}});
        QVERIFY(await(controller->fetch(items)).value);
        const RecordedRequest received = server->lastRequest();
        QCOMPARE(received.header("x-trace"), QByteArray("abc"));
        QCOMPARE(received.header("x-app"), QByteArray("from-manager"));
        QCOMPARE(received.header("x-keep"), QByteArray("1"));
        const auto named = [&](const QByteArray &name) {
            return std::count_if(received.headers.cbegin(), received.headers.cend(),
                                 [&](const auto &h) { return h.first.toLower() == name; });
        };
        QCOMPARE(named("x-app"), 1);
    }

    void holdThenRelease()
    {
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future = controller->fetch(items);
        QCOMPARE(manager.heldRequests(), manager.ids());
        QVERIFY(controller->getResponse(items).loading);
        QVERIFY(receivedExactly(0));
        QVERIFY(!future.isFinished());
        QVERIFY(manager.release(manager.ids().constFirst()));
        QVERIFY(manager.heldRequests().isEmpty());
        QCOMPARE(resolved(future).toList(), (QVariantList {1, 2}));
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"^Manager::release\\(\\d+\\): Recorder holds no "
                                                u"such request \\(see heldRequests\\(\\);"_s));
        QVERIFY(!manager.release(manager.ids().constFirst())); // ended: held no more
        QVERIFY(atRest(items));
    }

    void answerFromTheManagerIsStoredLikeTheNetwork()
    {
        QVERIFY(await(controller->fetch(todos.getList)).value);
        CollectionModel model;
        model.setController(controller.get());
        model.setEndpoint(todos.getList);
        QTRY_COMPARE(model.rowCount(), 5);
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        ChangeRecorder changes(controller.get());
        const qsizetype before = server->requestCount();
        QFuture<QVariant> future = controller->fetch(todos.get, {{u"id"_s, 1}});
        const QJsonObject fixture = todo(1, 1, u"from the manager"_s);
        QVERIFY(manager.answer(manager.heldRequests().constFirst(), fixture));
        QVERIFY(manager.heldRequests().isEmpty());
        QVERIFY(!future.isFinished()); // at the next event-loop turn, like a network answer
        QCOMPARE(resolved(future).toMap().value(u"title"_s), QVariant(u"from the manager"_s));
        QCOMPARE(server->requestCount(), before);
        QCOMPARE(controller->getResponse(todos.get, {{u"id"_s, 1}}).data.toMap().value(u"title"_s),
                 QVariant(u"from the manager"_s));
        // The same entity, normalized: the list shows it too.
        QCOMPARE(
            controller->getResponse(todos.getList).data.toList().value(0).toMap().value(u"title"_s),
            QVariant(u"from the manager"_s));
        QTRY_COMPARE(
            model.data(model.index(0, 0), CollectionModel::EntityRole).toMap().value(u"title"_s),
            QVariant(u"from the manager"_s));
        QVERIFY(changes.all().entities.contains(todoRef(1)));
        // Never sent: nothing to decorate.
        QCOMPARE(manager.steps(),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"answered#1"_s,
                               u"committed"_s}));
        QVERIFY(!controller->isLoading(todos.get, {{u"id"_s, 1}}));
    }

    void failFromTheManager()
    {
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items = once();
        QFuture<QVariant> future = controller->fetch(items);
        const NetworkError refusal(NetworkError::Kind::Http, 451, u"not here"_s);
        QVERIFY(manager.fail(manager.heldRequests().constFirst(), refusal));
        const Outcome outcome = await(future);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 451);
        QCOMPARE(outcome.error->message(), u"not here"_s);
        QCOMPARE(controller->getError(items)->status(), 451);
        QVERIFY(manager.steps().contains(u"failed"_s));
        QVERIFY(receivedExactly(0));
        QVERIFY(atRest(items));
    }

    void aHoldNeverReleasedEndsAtTheDeadline()
    {
        Recorder &manager = *recorder();
        manager.setObjectName(u"forgetful"_s);
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items = once(1000);
        QFuture<QVariant> future = controller->fetch(items);
        clock->advance(999);
        QVERIFY(!future.isFinished());
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"held by Recorder \"forgetful\" for 1000 ms"_s));
        clock->advance(1);
        const Outcome outcome = await(future);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QVERIFY2(outcome.error->message().contains(u"Recorder \"forgetful\""_s),
                 qPrintable(outcome.error->message()));
        QVERIFY(manager.heldRequests().isEmpty());
        QVERIFY(!controller->getResponse(items).data.isValid()); // nothing stored
        QVERIFY(receivedExactly(0));
        QVERIFY(atRest(items));
    }

    void anExpiredHoldIsATimedOutAttempt()
    {
        // The deadline fails the attempt like a network timeout: the endpoint's retry policy
        // applies, and each attempt held again has its own deadline.
        Recorder &manager = *recorder();
        holdAll(manager);
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items
            = endpoint("GET", RetryPolicy {1, 100, 1000})->extend({.timeout = 1000});
        QFuture<QVariant> future = controller->fetch(items);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"held by Recorder for 1000 ms"_s));
        clock->advance(1000);
        QTRY_VERIFY(controller->getResponse(items).retrying); // answered at the next turn
        clock->advance(100); // the backoff: attempt 2 is held again
        QCOMPARE(manager.heldRequests().size(), 1);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"held by Recorder for 1000 ms"_s));
        clock->advance(1000);
        const Outcome outcome = await(future);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QCOMPARE(manager.steps(),
                 (QStringList {u"requestStarted"_s, u"beforeSend#1"_s, u"answered#1"_s,
                               u"attemptFailed(retrying)#1"_s, u"beforeSend#2"_s, u"answered#2"_s,
                               u"attemptFailed#2"_s, u"failed"_s}));
        QCOMPARE(server->requestCount(), 0);
    }

    void invalidationAndResetAreSeen()
    {
        Recorder &manager = *recorder();
        QVERIFY(controller->addManager(&manager));
        const EndpointPtr items = endpoint();
        QVERIFY(resolved(controller->fetch(items)).isValid());
        QVERIFY(resolved(controller->fetch(items, {{u"id"_s, 3}})).isValid());
        manager.seen.clear();
        controller->invalidate(items);
        controller->expireAll([](const QString &) { return true; }); // only id 3 is still valid
        controller->resetEntireStore();
        QCOMPARE(manager.steps(),
                 (QStringList {u"invalidated"_s, u"invalidated"_s, u"storeReset"_s}));
    }

    void statusAndBytesOfTheAnswer()
    {
        struct Sizes : Recorder
        {
            using Recorder::Recorder;
            int status = 0;
            qint64 bytes = 0;
            void answered(const ManagedRequest &r) override
            {
                status = r.status();
                bytes = r.bytesReceived();
            }
        };
        auto *manager = new Sizes(controller.get());
        QVERIFY(controller->addManager(manager));
        QVERIFY(await(controller->fetch(endpoint())).value);
        QCOMPARE(manager->status, 200);
        QCOMPARE(manager->bytes, qint64(QByteArray("[1,2]").size()));
    }
};

QTEST_GUILESS_MAIN(tst_AppManagers)
#include "tst_appmanagers.moc"
