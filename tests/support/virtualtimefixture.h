// Base of the tests of retries, connectivity and the application state: the in-process
// server on 127.0.0.1 whose answers the test scripts, a Controller on a VirtualClock with
// deterministic jitter and a manual Connectivity, and what the server received and when.
#pragma once

#include "controllerfixture.h"

#include <DataClient/connectivity.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/virtualclock.h>

#include <QtCore/QHash>
#include <QTest>

#include <memory>
#include <optional>

class VirtualTimeTest : public QObject
{
    Q_OBJECT

protected:
    std::unique_ptr<DataClient::Testing::TestServer> server;
    std::unique_ptr<DataClient::Controller> controller;
    std::unique_ptr<DataClient::Testing::VirtualClock> clock;
    std::unique_ptr<DataClient::Connectivity> connectivity;
    //! The virtual time at which each request arrived.
    QList<qint64> arrivals;
    //! What the server answers on /items, in turn; the last one is repeated.
    QList<DataClient::Testing::ServerResponse> script;

    //! /items (or /items/:id with \a params {id}) on the test server.
    DataClient::EndpointPtr endpoint(const QByteArray &method = "GET",
                                     std::optional<DataClient::RetryPolicy> retry = std::nullopt,
                                     int pollFrequency = 0, bool refetchOnActivate = true) const
    {
        using namespace Qt::StringLiterals;
        return DataClient::RestEndpoint::create({.method = method,
                                                 .path = u"/items/:id?"_s,
                                                 .urlPrefix = server->url(),
                                                 .pollFrequency = pollFrequency,
                                                 .retry = retry,
                                                 .refetchOnActivate = refetchOnActivate});
    }
    //! Waits (for the server, never a fixed sleep) until \a count requests arrived.
    bool waitForRequests(qsizetype count)
    {
        return QTest::qWaitFor([&] { return server->requestCount() >= count; }, 5000);
    }
    //! Starts a read of \a items whose first attempt fails: true once it waits to retry.
    bool fetchUntilRetrying(const DataClient::EndpointPtr &items, QFuture<QVariant> *future)
    {
        *future = controller->fetch(items);
        return QTest::qWaitFor([&] { return controller->getResponse(items).retrying; }, 5000);
    }
    //! Proves that nothing else is on its way: a mutation sent after whatever the test did
    //! arrives, and the server had received \a expected requests before it.
    bool receivedExactly(qsizetype expected)
    {
        using namespace Qt::StringLiterals;
        const auto sentinel = DataClient::RestEndpoint::create(
            {.method = "POST", .path = u"/sentinel"_s, .urlPrefix = server->url()});
        QFuture<QVariant> sent = controller->fetch(sentinel, {}, QJsonObject {});
        if (!QTest::qWaitFor([&] { return sent.isFinished(); }, 5000))
            return false;
        const qsizetype others
            = server->requestCount() - server->requests("POST", u"/sentinel"_s).size();
        if (others != expected)
            qWarning("the server received %lld requests; expected %lld", qlonglong(others),
                     qlonglong(expected));
        return others == expected;
    }
    //! A new Controller on the same clock and connectivity (a restart, for the outbox tests).
    void newController()
    {
        controller = std::make_unique<DataClient::Controller>();
        clock->install(controller.get());
        // Full jitter at one half: attempt 2 waits 500 ms, 3 waits 1000, 4 waits 2000.
        controller->setRandomSource([] { return 0.5; });
        controller->setConnectivity(connectivity.get());
    }
    //! Runs at the end of init(), after the server, clock, connectivity and Controller exist.
    virtual void setUp() { }

    //! Requests received for /items/<id>.
    qsizetype requestsFor(int id) const
    {
        using namespace Qt::StringLiterals;
        return server->requests("GET", u"/items/%1"_s.arg(id)).size();
    }

private Q_SLOTS:
    void init()
    {
        using namespace DataClient::Testing;
        using namespace Qt::StringLiterals;
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        arrivals.clear();
        script = {ServerResponse::json(QJsonArray {1, 2})};
        server->route("*", u"/items"_s, [this](const RecordedRequest &) {
            arrivals.append(clock->now());
            return script.size() > 1 ? script.takeFirst() : script.constFirst();
        });
        server->route("GET", u"/items/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(QJsonObject {{u"id"_s, request.pathParams.value(u"id"_s)}});
        });
        server->route("POST", u"/sentinel"_s,
                      [](const RecordedRequest &) { return ServerResponse::json(QJsonObject {}); });
        clock = std::make_unique<VirtualClock>();
        connectivity = std::make_unique<DataClient::Connectivity>();
        newController();
        setUp();
    }
    void cleanup()
    {
        controller.reset();
        connectivity.reset();
        clock.reset();
        server.reset();
    }
};
