// A LiveFeed's connection life against real sockets, in virtual time: reconnect with the retry
// backoff through the Controller's scheduler, no loop after a policy violation, nothing while
// offline and at once when back online, catch-up (Last-Event-ID resume, or one refetch per
// watched key), the subscribe hook, the grace period, and reset and destruction stopping it.
#include "livefixture.h"

#include <DataClient/connectivity.h>
#include <DataClient/eventsource.h>
#include <DataClient/testing/virtualclock.h>

#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_LiveFeedConnection : public QObject
{
    Q_OBJECT

    std::unique_ptr<LiveFixture> f;
    std::unique_ptr<VirtualClock> clock;
    std::unique_ptr<Connectivity> connectivity;
    const Params user1 {{u"userId"_s, 1}};

    std::unique_ptr<LiveFeed> feedOn(LiveSource *source, const LiveMapping &mapping)
    {
        auto feed = std::make_unique<LiveFeed>(f->controller.get(), source, mapping);
        return feed;
    }

private Q_SLOTS:
    void init()
    {
        f = std::make_unique<LiveFixture>();
        QVERIFY(f->start());
        clock = std::make_unique<VirtualClock>();
        clock->install(f->controller.get());
        // Full jitter at one half: the first reconnect waits 500 ms, the second 1000.
        f->controller->setRandomSource([] { return 0.5; });
        connectivity = std::make_unique<Connectivity>();
        f->controller->setConnectivity(connectivity.get());
    }
    void cleanup()
    {
        f->controller.reset();
        clock.reset();
        connectivity.reset();
        f.reset();
    }

    void dropReconnectsWithBackoffAndRefetchesWatchedKeysOnce()
    {
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QVERIFY(feed->watch(f->todos.getList, user1));
        QVERIFY(feed->watch(f->todos.getList, user1)); // twice: still one key
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QCOMPARE(f->listRequests(), 0);

        f->ws.close(1001); // going away
        QTRY_COMPARE(source.state(), LiveSource::State::Reconnecting);
        QCOMPARE(source.attempt(), 1);
        clock->advance(499);
        QTest::qWait(30);
        QCOMPARE(f->ws.connectionCount(), 1); // still waiting
        clock->advance(1);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QCOMPARE(f->ws.connectionCount(), 2);
        // A WebSocket cannot resume: the watched key is read again, once.
        QTRY_COMPARE(f->listRequests(), 1);
        QCOMPARE(f->server.lastRequest().query.toString(), u"userId=1"_s);
        QCOMPARE(feed->catchUpCount(), 1);
    }

    void failedReconnectsBackOffFurther()
    {
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        f->ws.stopListening(); // nobody listens now
        f->ws.close(1001); // going away
        QTRY_COMPARE(source.state(), LiveSource::State::Reconnecting);
        clock->advance(500); // attempt 2 fails...
        QTRY_COMPARE(source.attempt(), 2);
        QTRY_COMPARE(source.state(), LiveSource::State::Reconnecting);
        clock->advance(999);
        QTest::qWait(30);
        QCOMPARE(source.attempt(), 2); // ...and the next waits 1000 ms
        clock->advance(1);
        QTRY_COMPARE(source.attempt(), 3);
    }

    void policyViolationDoesNotReconnect()
    {
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"code 1008"_s));
        f->ws.close(1008, u"banned"_s); // policy violation
        QTRY_COMPARE(source.state(), LiveSource::State::Closed);
        QVERIFY(source.errorString().contains(u"banned"_s));
        clock->advance(10 * 60 * 1000);
        QTest::qWait(50);
        QCOMPARE(f->ws.connectionCount(), 1);
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QVERIFY(feed->watch(f->todos.getList, user1)); // the feed changing keeps it closed
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QVERIFY(source.errorString().contains(u"banned"_s));
        QCOMPARE(f->ws.connectionCount(), 1);
    }

    void offlinePausesAndOnlineResumesAtOnce()
    {
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QVERIFY(feed->watch(f->todos.getList, user1));
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        connectivity->setOnline(false);
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QTRY_COMPARE(f->ws.openConnections(), 0);
        clock->advance(60 * 1000);
        QTest::qWait(30);
        QCOMPARE(f->ws.connectionCount(), 1); // nothing tried while offline
        // Counted from here: what the first opening fetched depends on whether the watch or the
        // socket's opening came first (a loaded machine opens later).
        const int listRequestsBefore = f->listRequests();
        connectivity->setOnline(true);
        QTRY_COMPARE(source.state(), LiveSource::State::Open); // at once, no backoff
        QCOMPARE(f->ws.connectionCount(), 2);
        QTRY_COMPARE(f->listRequests(), listRequestsBefore + 1); // caught up once
        QTest::qWait(30);
        QCOMPARE(f->listRequests(), listRequestsBefore + 1); // and only once
    }

    void openingWaitsWhileOffline()
    {
        connectivity->setOnline(false);
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QTest::qWait(30);
        QCOMPARE(f->ws.connectionCount(), 0);
        connectivity->setOnline(true);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QCOMPARE(feed->catchUpCount(), 0); // a first connection has nothing to catch up
    }

    void eventSourceResumesWithLastEventIdInsteadOfRefetching()
    {
        QList<TestServer::Responder> streams;
        f->server.routeDeferred("GET", u"/events"_s,
                                [&](const RecordedRequest &, const TestServer::Responder &r) {
                                    r.startEventStream();
                                    streams.append(r);
                                });
        EventSource source(QUrl(f->server.url(u"/events"_s)), nullptr);
        auto feed = feedOn(&source, f->mapping());
        QVERIFY(feed->watch(f->todos.getList, user1));
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        streams.last().write(
            "retry: 2000\nid: 7\ndata: {\"type\":\"refetch\",\"endpoint\":\"x\"}\n\n");
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"unknown endpoint"_s));
        QTRY_COMPARE(feed->malformedCount(), 1);
        streams.last().endStream();
        QTRY_COMPARE(source.state(), LiveSource::State::Reconnecting);
        clock->advance(1999); // the server's retry:, not the backoff
        QTest::qWait(30);
        QCOMPARE(f->server.requests("GET", u"/events"_s).size(), 1);
        clock->advance(1);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QCOMPARE(f->server.lastRequest().header("Last-Event-ID"), "7"_ba);
        QTest::qWait(30);
        QCOMPARE(f->listRequests(), 0); // resumed: nothing refetched
        QCOMPARE(feed->catchUpCount(), 0);
    }

    void subscribeMessagesFollowTheWatchedKeys()
    {
        WebSocketSource source(f->ws.url());
        LiveMapping mapping = f->mapping();
        mapping.setSubscribeMessage([](const EndpointPtr &, const Params &params, bool subscribe) {
            return QJsonDocument(QJsonObject {{subscribe ? u"subscribe"_s : u"unsubscribe"_s,
                                               params.value(u"userId"_s).toInt()}})
                .toJson(QJsonDocument::Compact);
        });
        auto feed = feedOn(&source, mapping);
        QVERIFY(feed->watch(f->todos.getList, user1)); // before the connection: sent on open
        QTRY_COMPARE(f->ws.received(), QStringList {uR"({"subscribe":1})"_s});
        QVERIFY(feed->watch(f->todos.getList, {{u"userId"_s, 2}}));
        QVERIFY(feed->watch(f->todos.getList, {{u"userId"_s, 2}})); // the same key: once
        QTRY_COMPARE(f->ws.received().size(), 2);
        QVERIFY(feed->unwatch(f->todos.getList, {{u"userId"_s, 2}}));
        QVERIFY(feed->unwatch(f->todos.getList, {{u"userId"_s, 2}}));
        QTRY_COMPARE(f->ws.received(),
                     (QStringList {uR"({"subscribe":1})"_s, uR"({"subscribe":2})"_s,
                                   uR"({"unsubscribe":2})"_s}));
        f->ws.clearReceived();
        f->ws.close(1001); // going away
        QTRY_COMPARE(source.state(), LiveSource::State::Reconnecting);
        clock->advance(500);
        QTRY_COMPARE(f->ws.received(),
                     QStringList {uR"({"subscribe":1})"_s}); // again, per connection
    }

    void onDemandClosesAfterTheGracePeriod()
    {
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        feed->setOnDemand(true);
        feed->setGraceMs(3000);
        QTest::qWait(30);
        QCOMPARE(f->ws.connectionCount(), 0); // nothing watched
        QVERIFY(feed->watch(f->todos.getList, user1));
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QVERIFY(feed->unwatch(f->todos.getList, user1));
        clock->advance(2999);
        QCOMPARE(source.state(), LiveSource::State::Open);
        QVERIFY(feed->watch(f->todos.getList, user1)); // back within the grace period
        clock->advance(10000);
        QCOMPARE(source.state(), LiveSource::State::Open);
        QVERIFY(feed->unwatch(f->todos.getList, user1));
        clock->advance(3000);
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QTRY_COMPARE(f->ws.openConnections(), 0);
        QCOMPARE(f->ws.connectionCount(), 1);
    }

    void resetClosesDropsTheQueueAndReopens()
    {
        auto list = f->model(user1);
        QVERIFY(list);
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QSignalSpy committed(feed.get(), &LiveFeed::committed);
        f->controller->resetEntireStore();
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QCOMPARE(f->ws.connectionCount(), 2);
        QCOMPARE(feed->catchUpCount(), 0);
    }

    void destroyingTheControllerStopsEverything()
    {
        auto list = f->model(user1);
        QVERIFY(list);
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        ModelSignals signals(list.get());
        const int id = list->get(0).toMap().value(u"id"_s).toInt();
        f->ws.send(LiveFixture::json({{u"type"_s, u"updated"_s},
                                      {u"entity"_s, u"Todo"_s},
                                      {u"data"_s, QJsonObject {{u"id"_s, id}}}}));
        f->controller.reset(); // with the message maybe read, maybe not
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QTRY_COMPARE(f->ws.openConnections(), 0);
        QTest::qWait(30);
        QCOMPARE(feed->appliedCount(), 0);
        QVERIFY(!feed->watch(f->todos.getList, user1));
    }

    void destroyingTheFeedClosesTheSource()
    {
        WebSocketSource source(f->ws.url());
        auto feed = feedOn(&source, f->mapping());
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QSignalSpy changed(f->controller.get(), &Controller::changed);
        f->ws.send(LiveFixture::json({{u"type"_s, u"updated"_s},
                                      {u"entity"_s, u"Todo"_s},
                                      {u"data"_s, QJsonObject {{u"id"_s, 1}}}}));
        feed.reset();
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QTRY_COMPARE(f->ws.openConnections(), 0);
        QTest::qWait(30);
        QCOMPARE(changed.size(), 0);
    }
};

QTEST_MAIN(tst_LiveFeedConnection)
#include "tst_livefeed_connection.moc"
