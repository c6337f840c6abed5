// Testing::VirtualClock as the kit offers it: installed by its constructor, refusing to go
// back, and polling made exact: a poll every 5000 ms sends nothing before 5000 ms of
// virtual time, one request at 5000 and a second at 10000.
#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/testing/virtualclock.h>

#include <QtCore/QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_VirtualClock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theConstructorInstallsIt()
    {
        Controller controller;
        {
            VirtualClock clock(&controller);
            QCOMPARE(controller.now(), clock.now());
            clock.advance(30'000);
            QCOMPARE(controller.now(), clock.now());
            QCOMPARE(clock.now(), 1704067200000 + 30'000);
        }
        // Destroyed: the system clock is back (far past 2024-01-01 + 30 s).
        QVERIFY(controller.now() > 1704067200000 + 60'000);
    }

    void aNegativeAdvanceIsRefused()
    {
        Controller controller;
        VirtualClock clock(&controller);
        clock.advance(1000);
        const qint64 before = clock.now();
        QSignalSpy advanced(&clock, &VirtualClock::advanced);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"advance\\(-5\\) refused.*time only moves "
                                                u"forward.*>= 0"_s));
        QCOMPARE(clock.advance(-5), -1);
        QCOMPARE(clock.now(), before);
        QCOMPARE(controller.now(), before);
        QCOMPARE(advanced.size(), 0);
        QCOMPARE(clock.advance(0), 0); // zero is fine
    }

    void cases45PollingIsExactOnVirtualTime()
    {
        TestServer server;
        QVERIFY(server.listen());
        server.route("GET", u"/todos/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(QJsonObject {{u"id"_s, request.pathParams.value(u"id"_s)}});
        });
        Controller controller;
        VirtualClock clock(&controller);
        const EndpointPtr todo = RestEndpoint::create(
            {.path = u"/todos/:id"_s, .urlPrefix = server.url(), .pollFrequency = 5000});
        const Params id {{u"id"_s, 1}};
        QFuture<QVariant> first = controller.fetch(todo, id);
        QTRY_VERIFY(first.isFinished());
        QCOMPARE(server.requestCount(), 1);

        QVERIFY(controller.subscribe(todo, id)); // fresh data: nothing at once
        QVERIFY(!controller.isLoading(todo, id));
        clock.advance(4999);
        QVERIFY(!controller.isLoading(todo, id)); // none before T
        clock.advance(1);
        QVERIFY(controller.isLoading(todo, id)); // one at T, sent synchronously by advance()
        QTRY_VERIFY(!controller.isLoading(todo, id));
        QCOMPARE(server.requestCount(), 2);
        clock.advance(4999);
        QVERIFY(!controller.isLoading(todo, id));
        clock.advance(1);
        QVERIFY(controller.isLoading(todo, id)); // two at 2T
        QTRY_VERIFY(!controller.isLoading(todo, id));
        QCOMPARE(server.requestCount(), 3);
        QVERIFY(controller.unsubscribe(todo, id));
        clock.advance(60'000);
        QVERIFY(!controller.isLoading(todo, id)); // unsubscribed: no more
        QCOMPARE(server.requestCount(), 3);
    }
};

QTEST_GUILESS_MAIN(tst_VirtualClock)
#include "tst_virtualclock.moc"
