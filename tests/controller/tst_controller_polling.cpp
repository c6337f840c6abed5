// Polling subscriptions (docs/polling.md): one timer per cache key at the fastest
// pollFrequency of its live subscribers, counted by reference; the last unsubscribe stops it.
// Short intervals and QSignalSpy::wait / QTRY, never long sleeps.
#include "controllerfixture.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ControllerPolling : public BackendTest
{
    Q_OBJECT

private:
    EndpointPtr getEvery(int ms) const { return backend->todos.get->extend({.pollFrequency = ms}); }
    int gets(int id) const
    {
        return int(backend->server.requests("GET", u"/todos/%1"_s.arg(id)).size());
    }

private Q_SLOTS:
    void oneTimerAtTheFastestFrequencyOfItsSubscribers()
    {
        // 1000, 7000, 8000 on one key -> 1000; drop 1000 -> 7000; drop all -> stop.
        const Params id {{u"id"_s, 1}};
        const EndpointPtr fast = getEvery(1000);
        const EndpointPtr medium = getEvery(7000);
        const EndpointPtr slow = getEvery(8000);
        QCOMPARE(controller->pollInterval(fast, id), 0);
        QVERIFY(controller->subscribe(medium, id));
        QCOMPARE(controller->pollInterval(medium, id), 7000);
        QVERIFY(controller->subscribe(fast, id));
        QVERIFY(controller->subscribe(slow, id));
        QVERIFY(controller->subscribe(fast, id)); // a second subscriber at 1000
        // One key, one interval, whichever endpoint asks.
        QCOMPARE(controller->pollInterval(slow, id), 1000);
        // Another key is independent.
        QCOMPARE(controller->pollInterval(fast, {{u"id"_s, 2}}), 0);

        QVERIFY(controller->unsubscribe(fast, id));
        QCOMPARE(controller->pollInterval(fast, id), 1000); // still one fast subscriber
        QVERIFY(controller->unsubscribe(fast, id));
        QCOMPARE(controller->pollInterval(fast, id), 7000);
        QVERIFY(controller->unsubscribe(medium, id));
        QCOMPARE(controller->pollInterval(fast, id), 8000);
        QVERIFY(controller->unsubscribe(slow, id));
        QCOMPARE(controller->pollInterval(fast, id), 0);
        // Unsubscribing once more is refused.
        QVERIFY(!controller->unsubscribe(slow, id));
    }

    void pollsAtTheIntervalAndStopsOnTheLastUnsubscribe()
    {
        // Subscribing to fresh data does not fetch; each tick does.
        const Params id {{u"id"_s, 3}};
        const EndpointPtr endpoint = getEvery(30);
        QVERIFY(await(controller->fetch(endpoint, id)).value);
        QCOMPARE(gets(3), 1);
        QSignalSpy received(&backend->server, &TestServer::requestReceived);
        QVERIFY(controller->subscribe(endpoint, id));
        QCOMPARE(gets(3), 1); // nothing at once, the data is fresh
        QTRY_VERIFY_WITH_TIMEOUT(gets(3) >= 4, 5000);

        // A changed record shows up through polling alone.
        backend->api.setItem(u"/todos"_s, todo(3, 1, u"polled"_s));
        QTRY_COMPARE_WITH_TIMEOUT(
            controller->getResponse(endpoint, id).data.toMap().value(u"title"_s).toString(),
            u"polled"_s, 5000);

        QVERIFY(controller->unsubscribe(endpoint, id));
        QCOMPARE(controller->pollInterval(endpoint, id), 0);
        // Let a request already in flight land, then nothing more arrives.
        QTRY_VERIFY(!controller->isLoading(endpoint, id));
        received.clear();
        QVERIFY(!received.wait(150));
    }

    void theFastestSubscriberDrivesTheRequests()
    {
        const Params id {{u"id"_s, 2}};
        const EndpointPtr fast = getEvery(25);
        const EndpointPtr slow = getEvery(60000);
        QVERIFY(controller->subscribe(slow, id));
        QVERIFY(controller->subscribe(fast, id));
        QTRY_VERIFY_WITH_TIMEOUT(gets(2) >= 3, 5000);
        QVERIFY(controller->unsubscribe(fast, id));
        QCOMPARE(controller->pollInterval(slow, id), 60000);
        QVERIFY(controller->unsubscribe(slow, id));
    }

    void subscribeNeedsAPollFrequency()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"pollFrequency"_s));
        QVERIFY(!controller->subscribe(backend->todos.get, {{u"id"_s, 1}}));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"subscribe.*id"_s));
        QVERIFY(!controller->subscribe(getEvery(100), {})); // missing parameter
        QCOMPARE(controller->pollInterval(getEvery(100), {{u"id"_s, 1}}), 0);
    }

    void subscriptionsSurviveAResetAndDieWithTheController()
    {
        const Params id {{u"id"_s, 4}};
        const EndpointPtr endpoint = getEvery(20);
        QVERIFY(controller->subscribe(endpoint, id));
        controller->resetEntireStore();
        QCOMPARE(controller->pollInterval(endpoint, id), 20);
        QTRY_VERIFY_WITH_TIMEOUT(controller->getResponse(endpoint, id).found, 5000);
        controller.reset(); // with a live subscription and maybe a request in flight
        QSignalSpy received(&backend->server, &TestServer::requestReceived);
        // Absence can only be watched for a while: a live 20 ms poll would send about ten
        // requests in 250 ms. One may still arrive: a poll already on the wire when the
        // Controller went (reads are deduplicated, so there is at most one).
        QTest::qWait(250);
        QVERIFY2(received.size() <= 1, qPrintable(u"%1 requests"_s.arg(received.size())));
        // The Controller released the endpoint (the test holds the only reference).
        QTRY_COMPARE(endpoint.use_count(), 1L);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerPolling)
#include "tst_controller_polling.moc"
