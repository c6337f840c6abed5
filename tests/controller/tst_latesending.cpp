// An endpoint whose fetchResponse() sends later (after a timer, as one that first fetches a
// token would) is still part of the Controller's request: destroying the Controller or
// resetting the store aborts it before it is sent, and it sends the stored validators, so a 304
// keeps the stored data. The context reaches the late send inside the RequestInit it was given.
#include "controllerfixture.h"
#include "relayfuture.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QPromise>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

//! What the late endpoints of one test did.
struct LateLog
{
    int sends = 0; //!< base fetchResponse() calls, made when the timer fired
    QFuture<Response> lastSent; //!< what the base returned
};

LateLog g_late;

// Sends 100 ms after it is asked to, through the base implementation with the init it got, and
// hands the base's outcome on. It does not look at its own future's cancellation: it relies on
// the request's context, as an endpoint waiting for a token would.
class LateEndpoint : public EndpointBase<LateEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    static constexpr int DelayMs = 100;

    QFuture<Response> fetchResponse(QNetworkAccessManager *network, const QUrl &url,
                                    const RequestInit &init) const override
    {
        auto promise = std::make_shared<QPromise<Response>>();
        promise->start();
        const auto self = std::static_pointer_cast<const LateEndpoint>(shared_from_this());
        QTimer::singleShot(DelayMs, network, [self, promise, network, url, init] {
            ++g_late.sends;
            g_late.lastSent = self->RestEndpoint::fetchResponse(network, url, init);
            TestSupport::relay(g_late.lastSent, promise, network);
        });
        return promise->future();
    }
};

} // namespace

class tst_LateSending : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> server;
    // Outlives the Controller: the late send uses it after the Controller is gone.
    std::unique_ptr<QNetworkAccessManager> network;
    std::unique_ptr<Controller> controller;
    Resource todos;
    int version = 1;

    QByteArray etag() const { return "\"v" + QByteArray::number(version) + '"'; }
    QList<RecordedRequest> sent() const { return server->requests("GET", u"/todos"_s); }

    //! Waits until the late endpoint's timer fired and its base call finished, however.
    bool lateSendEnded()
    {
        return QTest::qWaitFor([] { return g_late.sends == 1 && g_late.lastSent.isFinished(); });
    }

private Q_SLOTS:
    void init()
    {
        g_late = {};
        version = 1;
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        // A server that answers 304 to the current ETag, as a real one does.
        server->route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            ServerResponse reply = ServerResponse::json(seedTodos());
            if (request.header("if-none-match") == etag())
                reply = ServerResponse::raw({}, {}, 304);
            return reply.withHeader("ETag", etag());
        });
        // One request per fetch: an aborted read is not retried.
        ResourceOptions options {.path = u"/todos/:id"_s,
                                 .schema = todoSchema(),
                                 .urlPrefix = server->url(),
                                 .endpoint = endpointFactory<LateEndpoint>()};
        options.retry = RetryPolicy::none();
        todos = createResource(options);
        QVERIFY(todos.isValid());
        network = std::make_unique<QNetworkAccessManager>();
        controller = std::make_unique<Controller>(network.get());
    }
    void cleanup()
    {
        controller.reset();
        network.reset();
        server.reset();
        g_late = {};
    }

    void destroyingTheControllerAbortsAnExchangeNotSentYet_data()
    {
        QTest::addColumn<bool>("mutation");
        QTest::newRow("a read") << false;
        QTest::newRow("a mutation") << true;
    }
    void destroyingTheControllerAbortsAnExchangeNotSentYet()
    {
        QFETCH(bool, mutation);
        const QFuture<QVariant> caller = mutation
            ? controller->fetch(todos.partialUpdate, {{u"id"_s, 1}},
                                QJsonObject {{u"title"_s, u"late"_s}})
            : controller->fetch(todos.getList, {});
        QCOMPARE(g_late.sends, 0); // waiting for its timer
        controller.reset();

        QVERIFY(lateSendEnded());
        QVERIFY(g_late.lastSent.isCanceled());
        // Never sent: its exchange found its group aborted.
        QCOMPARE(server->requestCount(), 0);
        QVERIFY(await(caller).canceled());
    }

    void cancelingEveryCallerAbortsAnExchangeNotSentYet()
    {
        QFuture<QVariant> first = controller->fetch(todos.getList, {});
        QFuture<QVariant> second = controller->fetch(todos.getList, {}); // joins the first
        first.cancel();
        second.cancel();

        QVERIFY(lateSendEnded());
        QVERIFY(g_late.lastSent.isCanceled());
        QCOMPARE(server->requestCount(), 0);
        QTRY_VERIFY(!controller->getResponse(todos.getList, {}).loading);
    }

    void resetEntireStoreAbortsAnExchangeNotSentYet()
    {
        const QFuture<QVariant> caller = controller->fetch(todos.getList, {});
        QCOMPARE(g_late.sends, 0);
        controller->resetEntireStore();

        QVERIFY(lateSendEnded());
        QVERIFY(g_late.lastSent.isCanceled());
        QCOMPARE(sent().size(), 0);
        QVERIFY(await(caller).canceled()); // an aborted read stores and returns nothing
        QVERIFY(controller->getResponse(todos.getList, {}).data.isNull());
    }

    void aLateSendCarriesTheStoredValidatorsAndA304KeepsTheData()
    {
        const Outcome first = await(controller->fetch(todos.getList, {}));
        QVERIFY(first.value);
        QCOMPARE(ids(*first.value), (QList<int> {1, 2, 3, 4, 5}));
        QVERIFY(!sent().at(0).hasHeader("if-none-match"));
        const QVariant before = controller->getResponse(todos.getList, {}).data;

        QSignalSpy storeChanges(controller.get(), &Controller::changed);
        const Outcome second = await(controller->fetch(todos.getList, {}));
        QCOMPARE(g_late.sends, 2);
        QCOMPARE(sent().size(), 2);
        QCOMPARE(sent().at(1).header("if-none-match"), etag());
        QVERIFY(second.value);
        QCOMPARE(ids(*second.value), (QList<int> {1, 2, 3, 4, 5}));
        QCOMPARE(storeChanges.size(), 0); // answered 304: nothing stored again
        QCOMPARE(controller->getResponse(todos.getList, {}).data, before);
    }
};

QTEST_GUILESS_MAIN(tst_LateSending)
#include "tst_latesending.moc"
