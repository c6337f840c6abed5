// The Controller against a server that misbehaves: an answer cut short never replaces
// what is stored, every caller of a shared read gets its own future, and destroying the
// Controller or resetting the store stops its requests at once.
#include "controllerfixture.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;
using Ending = ServerResponse::Ending;

class tst_ControllerFaults : public BackendTest
{
    Q_OBJECT

private:
    //! Answers the todo list of user 1 cut short: the head and 6 bytes, then \a ending.
    void cutTheList(Ending ending)
    {
        backend->server.route("GET", u"/todos"_s, [ending](const RecordedRequest &) {
            return ServerResponse::json(seedTodos()).cutAfter(6, ending);
        });
    }
    Resource impatient() const
    {
        return createResource({.path = u"/todos/:id"_s,
                               .schema = todoSchema(),
                               .urlPrefix = backend->server.url(),
                               .searchParams = {u"userId"_s},
                               .timeout = 300,
                               .retry = RetryPolicy::none()});
    }

private Q_SLOTS:
    // A stored list survives an answer cut short; the error says what happened.
    void aCutAnswerKeepsTheStoredList_data()
    {
        QTest::addColumn<Ending>("ending");
        QTest::addColumn<NetworkError::Kind>("kind");
        QTest::newRow("stalled (timeout)") << Ending::Stall << NetworkError::Kind::Timeout;
        QTest::newRow("closed") << Ending::Close << NetworkError::Kind::Network;
    }
    void aCutAnswerKeepsTheStoredList()
    {
        QFETCH(Ending, ending);
        QFETCH(NetworkError::Kind, kind);
        const Resource todos = impatient();
        const Params args {{u"userId"_s, 1}};
        QVERIFY(await(controller->fetch(todos.getList, args)).value);

        cutTheList(ending);
        ChangeRecorder changes(controller.get());
        const Outcome outcome = await(controller->fetch(todos.getList, args));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), kind);

        const ResponseState state = controller->getResponse(todos.getList, args);
        QVERIFY(state.found);
        QCOMPARE(ids(state.data), (QList<int> {1, 2, 3}));
        QVERIFY(state.error);
        QCOMPARE(state.error->kind(), kind);
        QVERIFY(changes.all().entities.isEmpty());
    }

    // A DELETE answered with a body cut short invalidates nothing.
    void aCutDeleteAnswerInvalidatesNothing()
    {
        QVERIFY(await(controller->fetch(todos.getList, {{u"userId"_s, 2}})).value);
        // {"id":4} is what arrived of an answer naming todo 5: it must not remove todo 4.
        backend->server.route("DELETE", u"/todos/5"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(R"({"id":4})" + QByteArray(30, ' '), "application/json")
                .cutAfter(8, Ending::Close);
        });
        const Outcome outcome = await(controller->fetch(todos.remove, {{u"id"_s, 5}}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Network);
        QCOMPARE(ids(controller->getResponse(todos.getList, {{u"userId"_s, 2}}).data),
                 (QList<int> {4, 5}));
    }

    // Many callers of the same reads, each with its own continuation.
    void everyJoinedCallerGetsItsOwnContinuation()
    {
        constexpr int callers = 1000;
        constexpr int keys = 100;
        QObject context;
        int settled = 0;
        int withData = 0;
        for (int i = 0; i < callers; ++i) {
            controller->fetch(todos.getList, {{u"userId"_s, 1}, {u"k"_s, i % keys}})
                .then(&context, [&](const QVariant &list) {
                    ++settled;
                    withData += list.toList().size() == 3 ? 1 : 0;
                });
        }
        QTRY_COMPARE_WITH_TIMEOUT(settled, callers, 10000);
        QCOMPARE(withData, callers);
        QCOMPARE(backend->server.requests("GET", u"/todos"_s).size(), keys);
    }

    // fetchIfStale() joins the same way, and fetch() joins it.
    void fetchIfStaleCallersGetTheirOwnContinuations()
    {
        QObject context;
        int settled = 0;
        const Params args {{u"userId"_s, 2}};
        for (int i = 0; i < 3; ++i) {
            controller->fetchIfStale(todos.getList, args).then(&context, [&](const QVariant &list) {
                settled += ids(list) == QList<int> {4, 5} ? 1 : 0;
            });
        }
        controller->fetch(todos.getList, args).then(&context, [&](const QVariant &list) {
            settled += ids(list) == QList<int> {4, 5} ? 1 : 0;
        });
        QTRY_COMPARE(settled, 4);
        QCOMPARE(backend->server.requests("GET", u"/todos"_s).size(), 1);
    }

    // One caller that cancels leaves; the request goes on for the others.
    void oneCallerCancelingLeavesTheOthersWaiting()
    {
        DeferredReplies replies;
        replies.install(backend->server, "GET", u"/todos"_s);
        const Params args {{u"userId"_s, 1}};
        QFuture<QVariant> leaving = controller->fetch(todos.getList, args);
        QFuture<QVariant> staying = controller->fetch(todos.getList, args);
        QVERIFY(replies.waitFor(1));
        leaving.cancel();
        replies.pending.first().responder.send(ServerResponse::json(seedTodos()));
        const Outcome outcome = await(staying);
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toList().size(), 5);
        QVERIFY(leaving.isCanceled());
        QCOMPARE(backend->server.requests("GET", u"/todos"_s).size(), 1);
    }

    // When the last caller cancels, the request stops; a cancel is no error.
    void theLastCallerCancelingStopsTheRequest()
    {
        DeferredReplies replies;
        replies.install(backend->server, "GET", u"/todos"_s);
        const Params args {{u"userId"_s, 1}};
        QFuture<QVariant> only = controller->fetch(todos.getList, args);
        QVERIFY(replies.waitFor(1));
        only.cancel();
        QTRY_VERIFY(!controller->isLoading(todos.getList, args));
        QVERIFY(!controller->getError(todos.getList, args));
    }

    // ~Controller stops every request before it returns; none is sent afterwards.
    void destroyingTheControllerStopsItsRequestsAtOnce()
    {
        QNetworkAccessManager network;
        controller = std::make_unique<Controller>(&network);
        DeferredReplies replies;
        replies.install(backend->server, "DELETE", u"/todos/:id"_s);
        QList<QFuture<QVariant>> futures;
        for (int i = 0; i < 300; ++i)
            futures.append(controller->fetch(todos.remove, {{u"id"_s, 1000 + i}}));
        QVERIFY(replies.waitFor(1));
        const QList<QNetworkReply *> replyObjects = network.findChildren<QNetworkReply *>();
        QCOMPARE(replyObjects.size(), 300);

        controller.reset();
        // At once, without the event loop: every reply is finished and every future canceled.
        for (QNetworkReply *reply : replyObjects)
            QVERIFY(reply->isFinished());
        for (const QFuture<QVariant> &future : std::as_const(futures))
            QVERIFY(future.isCanceled());

        // Free the server's connections: nothing queued may reach it now.
        const qsizetype received = backend->server.requestCount();
        for (const auto &pending : std::as_const(replies.pending))
            pending.responder.send(ServerResponse::noContent());
        QTest::qWait(300); // a negative: nothing may arrive in this time
        QCOMPARE(backend->server.requestCount(), received);
    }

    // A reset stops the reads in flight at once (their answers would be dropped).
    void resetStopsReadsAtOnce()
    {
        QNetworkAccessManager network;
        controller = std::make_unique<Controller>(&network);
        DeferredReplies replies;
        replies.install(backend->server, "GET", u"/todos"_s);
        QFuture<QVariant> read = controller->fetch(todos.getList, {{u"userId"_s, 1}});
        QVERIFY(replies.waitFor(1));
        const QList<QNetworkReply *> replyObjects = network.findChildren<QNetworkReply *>();
        QCOMPARE(replyObjects.size(), 1);
        controller->resetEntireStore();
        QVERIFY(replyObjects.first()->isFinished());
        QVERIFY(await(read).canceled());
    }
};

QTEST_GUILESS_MAIN(tst_ControllerFaults)
#include "tst_controller_faults.moc"
