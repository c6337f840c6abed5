// Lifetime safety: destroying a Controller, an endpoint, a receiver or the network manager while
// requests are in flight neither crashes nor leaks (run under ASan in CI); the global instance.
#include "controllerfixture.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QSemaphore>
#include <QtCore/QThreadPool>
#include <QtNetwork/QNetworkAccessManager>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

// Counts answers read, so a test knows when the Controller got one.
class CountingEndpoint : public EndpointBase<CountingEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QJsonValue parseResponse(const Response &response) const override
    {
        ++parsed;
        return RestEndpoint::parseResponse(response);
    }
    static inline int parsed = 0;
};

// Occupies every thread of the global pool until released, so work queued meanwhile waits.
class BlockedThreadPool
{
public:
    BlockedThreadPool() : m_threads(QThreadPool::globalInstance()->maxThreadCount())
    {
        for (int i = 0; i < m_threads; ++i) {
            QThreadPool::globalInstance()->start([this] {
                m_started.release();
                m_gate.acquire();
            });
        }
        m_started.acquire(m_threads);
    }
    ~BlockedThreadPool() { release(); }
    void release()
    {
        m_gate.release(m_threads - m_released);
        m_released = m_threads;
        QThreadPool::globalInstance()->waitForDone();
    }

private:
    int m_threads;
    int m_released = 0;
    QSemaphore m_started;
    QSemaphore m_gate;
};

QJsonArray manyTodos(int count)
{
    QJsonArray items;
    for (int id = 1; id <= count; ++id)
        items.append(todo(id, 1 + id % 3, u"todo %1"_s.arg(id)));
    return items;
}

} // namespace

class tst_ControllerLifetime : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> server;
    DeferredReplies replies;

    EndpointPtr slowEndpoint(const QByteArray &method = "GET", bool optimistic = false) const
    {
        return RestEndpoint::create(
            {.name = u"slow"_s,
             .method = method,
             .path = u"/slow/:id"_s,
             .urlPrefix = server->url(),
             .schema = todoSchema(),
             .optimistic = optimistic,
             .getOptimisticResponse = [](const Params &params, const QJsonValue &body,
                                         const Store *) -> std::optional<QJsonValue> {
                 QJsonObject guess = body.toObject();
                 guess.insert(u"id"_s, params.value(u"id"_s).toInt());
                 return guess;
             }});
    }

private Q_SLOTS:
    void init()
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        replies = {};
        replies.install(*server, "*", u"/slow/:id"_s);
    }
    void cleanup() { server.reset(); }

    void destroyingTheControllerAbortsAndCancels_data()
    {
        QTest::addColumn<bool>("ownNetwork");
        QTest::newRow("own network manager") << true;
        QTest::newRow("injected network manager") << false;
    }
    void destroyingTheControllerAbortsAndCancels()
    {
        QFETCH(bool, ownNetwork);
        QNetworkAccessManager injected;
        auto *controller = new Controller(ownNetwork ? nullptr : &injected);
        QFuture<QVariant> read = controller->fetch(slowEndpoint(), {{u"id"_s, 1}});
        QFuture<QVariant> write = controller->fetch(slowEndpoint("PATCH", true), {{u"id"_s, 2}},
                                                    QJsonObject {{u"title"_s, u"x"_s}});
        QVERIFY(replies.waitFor(2));
        delete controller;
        QVERIFY(read.isFinished() && read.isCanceled());
        QVERIFY(write.isFinished() && write.isCanceled());
        // The requests were aborted: the server sees the connections close.
        for (const auto &pending : std::as_const(replies.pending))
            QTRY_VERIFY(!pending.responder.isConnected());
        for (const auto &pending : std::as_const(replies.pending))
            pending.responder.send(ServerResponse::json(todo(1, 1, u"late"_s)));
        QCoreApplication::processEvents(); // nothing may reach the dead Controller
    }

    void droppingTheEndpointWhileInFlightIsSafe()
    {
        Controller controller;
        EndpointPtr endpoint = slowEndpoint();
        const std::weak_ptr<RestEndpoint> watched = endpoint;
        QFuture<QVariant> future = controller.fetch(endpoint, {{u"id"_s, 1}});
        endpoint.reset();
        QVERIFY(!watched.expired()); // the request keeps it alive
        QVERIFY(replies.waitFor(1));
        replies.pending.at(0).responder.send(ServerResponse::json(todo(1, 1, u"one"_s)));
        const Outcome outcome = await(future);
        QVERIFY(outcome.value);
        QTRY_VERIFY(watched.expired()); // and releases it afterwards
    }

    void destroyingAReceiverWhileInFlightIsSafe()
    {
        Controller controller;
        QFuture<QVariant> future = controller.fetch(slowEndpoint(), {{u"id"_s, 1}});
        bool called = false;
        auto *receiver = new QObject;
        auto *watcher = new QFutureWatcher<QVariant>(receiver);
        connect(watcher, &QFutureWatcherBase::finished, receiver, [&called] { called = true; });
        watcher->setFuture(future);
        delete receiver;
        QVERIFY(replies.waitFor(1));
        replies.pending.at(0).responder.send(ServerResponse::json(todo(1, 1, u"one"_s)));
        QVERIFY(await(future).value);
        QVERIFY(!called);
    }

    void aDestroyedNetworkManagerIsAClearError()
    {
        auto *network = new QNetworkAccessManager;
        Controller controller(network);
        QFuture<QVariant> inFlight = controller.fetch(slowEndpoint(), {{u"id"_s, 1}});
        QVERIFY(replies.waitFor(1));
        delete network; // destroys its replies
        const Outcome outcome = await(inFlight);
        QVERIFY(outcome.finished);
        QVERIFY(!outcome.value);
        QVERIFY(!controller.isLoading(slowEndpoint(), {{u"id"_s, 1}}));

        const Outcome after = await(controller.fetch(slowEndpoint(), {{u"id"_s, 2}}));
        QVERIFY(after.error);
        QVERIFY2(after.error->message().contains(u"QNetworkAccessManager"_s),
                 qPrintable(after.error->message()));
    }

    void resetWhileAnOptimisticMutationIsInFlight()
    {
        Controller controller;
        QVERIFY(controller.setResponse(slowEndpoint(), {{u"id"_s, 2}}, todo(2, 1, u"two"_s)).ok());
        QFuture<QVariant> write = controller.fetch(slowEndpoint("PATCH", true), {{u"id"_s, 2}},
                                                   QJsonObject {{u"title"_s, u"guess"_s}});
        QVERIFY(replies.waitFor(1));
        controller.resetEntireStore();
        QVERIFY(controller.store().optimisticLayers().isEmpty());
        replies.pending.at(0).responder.send(ServerResponse::json(todo(2, 1, u"server"_s)));
        QVERIFY(await(write).canceled());
        QVERIFY(!controller.get(todoSchema(), {{u"id"_s, 2}}).found);
    }

    void destroyingTheControllerFromItsOwnSignals()
    {
        // While fetch() reports "loading": fetch() returns a canceled future.
        auto *first = new Controller;
        QPointer<Controller> firstAlive(first);
        connect(first, &Controller::fetchStateChanged, this, [first] { delete first; });
        const QFuture<QVariant> canceled = first->fetch(slowEndpoint(), {{u"id"_s, 1}});
        QVERIFY(!firstAlive);
        QVERIFY(canceled.isFinished() && canceled.isCanceled());

        // While the answer is committed ("loading" ends): the caller still gets the value.
        auto *second = new Controller;
        QPointer<Controller> secondAlive(second);
        QFuture<QVariant> answered = second->fetch(slowEndpoint(), {{u"id"_s, 2}});
        connect(second, &Controller::fetchStateChanged, this, [second] { delete second; });
        connect(second, &Controller::changed, this, [second] { delete second; });
        const auto secondRequest = [this] {
            for (const auto &pending : std::as_const(replies.pending)) {
                if (pending.request.path == u"/slow/2"_s)
                    return pending.responder;
            }
            return TestServer::Responder();
        };
        QTRY_VERIFY(secondRequest().isConnected());
        secondRequest().send(ServerResponse::json(todo(2, 1, u"two"_s)));
        const Outcome outcome = await(answered);
        QVERIFY(!secondAlive);
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toMap().value(u"title"_s).toString(), u"two"_s);
    }

    void aLargeAnswerConvertedOnAWorkerIsDroppedByAReset_data()
    {
        QTest::addColumn<bool>("destroy");
        QTest::newRow("reset meanwhile") << false;
        QTest::newRow("Controller destroyed meanwhile") << true;
    }
    void aLargeAnswerConvertedOnAWorkerIsDroppedByAReset()
    {
        QFETCH(bool, destroy);
        server->route("GET", u"/many"_s,
                      [](const RecordedRequest &) { return ServerResponse::json(manyTodos(400)); });
        const EndpointPtr many = std::make_shared<CountingEndpoint>(
            EndpointOptions {.name = u"many"_s,
                             .path = u"/many"_s,
                             .urlPrefix = server->url(),
                             .schema = Schema::collection(Schema::array(todoSchema()))});
        auto controller = std::make_unique<Controller>();
        ChangeRecorder changes(controller.get());
        BlockedThreadPool pool;
        CountingEndpoint::parsed = 0;
        QFuture<QVariant> future = controller->fetch(many, {});
        QTRY_COMPARE(CountingEndpoint::parsed, 1);
        QCoreApplication::processEvents(); // the answer reaches the Controller: conversion queued
        QVERIFY(controller->isLoading(many, {})); // still loading while it converts
        if (destroy)
            controller.reset();
        else
            controller->resetEntireStore();
        pool.release(); // the conversion runs now
        QCoreApplication::processEvents();
        QVERIFY(await(future).canceled());
        QVERIFY(changes.sets.isEmpty());
        if (!destroy) {
            QVERIFY(!controller->getResponse(many, {}).found);
            QCOMPARE(controller->store().entityCount(), 0);
        }
    }

    void theGlobalInstance()
    {
        Controller *byDefault = Controller::instance();
        QVERIFY(byDefault);
        QCOMPARE(Controller::instance(), byDefault);
        QCOMPARE(byDefault->parent(), QCoreApplication::instance());
        {
            Controller chosen;
            Controller::setInstance(&chosen);
            QCOMPARE(Controller::instance(), &chosen);
        }
        // The chosen one was destroyed: back to the default.
        QCOMPARE(Controller::instance(), byDefault);
        Controller other;
        Controller::setInstance(&other);
        QCOMPARE(Controller::instance(), &other);
        Controller::setInstance(nullptr);
        QCOMPARE(Controller::instance(), byDefault);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerLifetime)
#include "tst_controller_lifetime.moc"
