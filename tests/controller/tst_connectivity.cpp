// Connectivity, against the in-process server and in virtual time: no read is sent
// while offline (queries keep their data and show `paused`), polling stops, backoff waits; on
// reconnect every stale or invalid key something shows is refetched exactly once, however often
// the network flapped.
#include "virtualtimefixture.h"

#include <DataClient/connectivity.h>

#include <QSignalSpy>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_Connectivity : public VirtualTimeTest
{
    Q_OBJECT

    //! Keys /items/1 .. /items/<count>, stored and then expired (stale), shown by a view.
    QList<Params> showStaleItems(const EndpointPtr &items, int count)
    {
        QList<Params> shown;
        for (int id = 1; id <= count; ++id) {
            const Params params {{u"id"_s, id}};
            controller->setResponse(items, params, QJsonObject {{u"id"_s, id}});
            controller->watch(items, params);
            shown.append(params);
        }
        controller->expireAll([](const QString &) { return true; });
        return shown;
    }

private Q_SLOTS:
    void theControllerFollowsItsConnectivity()
    {
        QSignalSpy changes(controller.get(), &Controller::onlineChanged);
        QCOMPARE(controller->connectivity(), connectivity.get());
        QVERIFY(controller->isOnline());
        connectivity->setOnline(false);
        QVERIFY(!controller->isOnline());
        connectivity->setOnline(false); // no change, no signal
        connectivity->setOnline(true);
        QCOMPARE(changes.size(), 2);
        QCOMPARE(changes.at(0).at(0).toBool(), false);

        // nullptr: the system's source (always online when no backend loads).
        controller->setConnectivity(nullptr);
        QCOMPARE(controller->connectivity(), Connectivity::system());
        QCOMPARE(controller->isOnline(), Connectivity::system()->isOnline());
    }

    void noReadIsSentWhileOffline()
    {
        connectivity->setOnline(false);
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future = controller->fetch(items);
        const ResponseState state = controller->getResponse(items);
        QVERIFY(state.paused);
        QVERIFY(state.loading);
        QCOMPARE(state.attempt, 1);
        QVERIFY(receivedExactly(0)); // a mutation is still sent; the read is not
        QVERIFY(!future.isFinished());

        // A second read joins the paused one; online sends it once.
        QFuture<QVariant> second = controller->fetchIfStale(items);
        connectivity->setOnline(true);
        QVERIFY(!controller->getResponse(items).paused);
        QVERIFY(await(future).value);
        QVERIFY(await(second).value);
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
    }

    void queriesKeepTheirDataWhilePaused()
    {
        const EndpointPtr items = endpoint();
        controller->setResponse(items, {}, QJsonArray {5});
        controller->expireAll([](const QString &) { return true; });
        connectivity->setOnline(false);
        QFuture<QVariant> future = controller->fetchIfStale(items);
        const ResponseState state = controller->getResponse(items);
        QVERIFY(state.paused);
        QVERIFY(state.hasData());
        QCOMPARE(state.data.toList(), (QVariantList {5}));
        QCOMPARE(state.status, ExpiryStatus::Stale);
    }

    void pollingStopsWhileOffline()
    {
        const EndpointPtr items = endpoint("GET", std::nullopt, 100);
        controller->setResponse(items, {}, QJsonArray {});
        QVERIFY(controller->subscribe(items));
        QCOMPARE(controller->nextTimerDue(), clock->now() + 100);
        connectivity->setOnline(false);
        QCOMPARE(controller->nextTimerDue(), -1);
        clock->advance(61000); // the stored list goes stale meanwhile
        QVERIFY(receivedExactly(0));
        QCOMPARE(controller->pollInterval(items), 100);

        // Back online: the stale polled key is refetched once, then polling resumes.
        connectivity->setOnline(true);
        QVERIFY(waitForRequests(2)); // the sentinel and the refetch
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
        QCOMPARE(controller->nextTimerDue(), clock->now() + 100);
        QVERIFY(await(controller->fetchIfStale(items)).value); // the refetch settled
        clock->advance(100);
        QVERIFY(waitForRequests(3));
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 2);
    }

    void backoffWaitsWhileOffline()
    {
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {9})};
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future;
        QVERIFY(fetchUntilRetrying(items, &future));
        connectivity->setOnline(false);
        clock->advance(60000); // the backoff ends offline: the attempt waits
        const ResponseState state = controller->getResponse(items);
        QVERIFY(state.paused);
        QVERIFY(!state.retrying);
        QCOMPARE(state.attempt, 2);
        QVERIFY(receivedExactly(1));
        connectivity->setOnline(true);
        QCOMPARE(await(future).value->toList(), (QVariantList {9}));
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 2);
    }

    void reconnectRefetchesEveryShownStaleKeyOnce()
    {
        const EndpointPtr items = endpoint();
        const QList<Params> shown = showStaleItems(items, 5);
        // Fresh and shown: not refetched. Stale but shown by nobody: not refetched.
        const Params fresh {{u"id"_s, 6}};
        controller->setResponse(items, fresh, QJsonObject {{u"id"_s, 6}});
        controller->watch(items, fresh);
        controller->setResponse(items, {{u"id"_s, 7}}, QJsonObject {{u"id"_s, 7}});
        controller->expireAll([](const QString &key) { return key.endsWith(u"/7"); });
        // Invalid (never fetched) and shown: fetched.
        controller->watch(items, {{u"id"_s, 8}});

        connectivity->setOnline(false);
        connectivity->setOnline(true);
        QTRY_COMPARE(server->requestCount(), 6);
        for (int id : {1, 2, 3, 4, 5, 8})
            QCOMPARE(requestsFor(id), 1);
        QVERIFY(receivedExactly(6));
        QCOMPARE(requestsFor(6), 0);
        QCOMPARE(requestsFor(7), 0);
    }

    void flappingRefetchesAtMostOncePerKey()
    {
        const EndpointPtr items = endpoint();
        showStaleItems(items, 3);
        for (int i = 0; i < 10; ++i) {
            connectivity->setOnline(false);
            clock->advance(50);
            connectivity->setOnline(true);
            clock->advance(50);
        }
        QTRY_COMPARE(server->requestCount(), 3);
        QVERIFY(receivedExactly(3));
        for (int id = 1; id <= 3; ++id)
            QCOMPARE(requestsFor(id), 1);
    }

    void anUnwatchedKeyIsNotRefetched()
    {
        const EndpointPtr items = endpoint();
        const QList<Params> shown = showStaleItems(items, 2);
        QVERIFY(controller->unwatch(items, shown.at(0)));
        QVERIFY(!controller->unwatch(items, {{u"id"_s, 99}}));
        connectivity->setOnline(false);
        connectivity->setOnline(true);
        QVERIFY(receivedExactly(1));
        QCOMPARE(requestsFor(2), 1);
    }
};

QTEST_GUILESS_MAIN(tst_Connectivity)
#include "tst_connectivity.moc"
