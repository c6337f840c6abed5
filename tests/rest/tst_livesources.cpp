// The two push sources against real sockets: an EventSource against a streamed answer of the
// in-process TestServer, a WebSocketSource against an in-process QWebSocketServer. What the
// server received (headers, frames) and what the source says (state, messages, drops).
#include <DataClient/eventsource.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/websocketsource.h>

#include <DataClient/testing/websockettestserver.h>

#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

//! The states a source went through, as names.
QStringList statesOf(const QList<LiveSource::State> &states)
{
    QStringList out;
    for (const LiveSource::State state : states)
        out.append(
            QString::fromLatin1(QMetaEnum::fromType<LiveSource::State>().valueToKey(int(state))));
    return out;
}

struct StateLog
{
    explicit StateLog(LiveSource *source)
    {
        QObject::connect(source, &LiveSource::stateChanged, source,
                         [this, source] { states.append(source->state()); });
    }
    QStringList names() const { return statesOf(states); }
    QList<LiveSource::State> states;
};

} // namespace

class tst_LiveSources : public QObject
{
    Q_OBJECT

    TestServer server;
    QNetworkAccessManager network;
    QList<TestServer::Responder> streams;

    //! /events answers a stream the test writes to (streams.last()).
    void routeEvents()
    {
        server.routeDeferred("GET", u"/events"_s,
                             [this](const RecordedRequest &, const TestServer::Responder &r) {
                                 r.startEventStream();
                                 streams.append(r);
                             });
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(server.listen()); }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        streams.clear();
    }

    void eventSourceReceivesEvents()
    {
        routeEvents();
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        StateLog log(&source);
        QSignalSpy messages(&source, &LiveSource::messageReceived);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        QCOMPARE(log.names(), (QStringList {u"Connecting"_s, u"Open"_s}));
        QCOMPARE(server.lastRequest().header("Accept"), "text/event-stream"_ba);
        QVERIFY(!server.lastRequest().hasHeader("Last-Event-ID"));

        streams.last().write("event: updated\nid: 1\ndata: {\"a\":\n");
        streams.last().write("data: 1}\n\n: heartbeat\n\n");
        QVERIFY(messages.wait());
        const auto message = messages.takeFirst().at(0).value<LiveMessage>();
        QCOMPARE(message.event, u"updated"_s);
        QCOMPARE(message.id, u"1"_s);
        QCOMPARE(message.data, "{\"a\":\n1}"_ba);
        QCOMPARE(source.lastEventId(), u"1"_s);
        QVERIFY(source.canResume());
        source.close();
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QVERIFY(source.errorString().isEmpty());
    }

    void eventSourceResumesWithLastEventIdAfterTheServerClosed()
    {
        routeEvents();
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        QSignalSpy messages(&source, &LiveSource::messageReceived);
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        streams.last().write("retry: 1500\nid: 41\ndata: x\n\n");
        QVERIFY(messages.wait());
        streams.last().endStream();
        QVERIFY(dropped.wait());
        QCOMPARE(dropped.last().at(1).toBool(), true); // reconnect
        QCOMPARE(source.state(), LiveSource::State::Reconnecting);
        QCOMPARE(source.attempt(), 1);
        QCOMPARE(source.retryHintMs(), qint64(1500));
        QVERIFY2(source.errorString().contains(u"closed the stream"_s),
                 qPrintable(source.errorString()));
        source.open();
        QVERIFY(opened.wait());
        QCOMPARE(server.requests("GET", u"/events"_s).size(), 2);
        QCOMPARE(server.lastRequest().header("Last-Event-ID"), "41"_ba);
        QCOMPARE(source.attempt(), 0);
    }

    void eventSourceClosedMidEventDropsThePartAndReconnects()
    {
        routeEvents();
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        QSignalSpy messages(&source, &LiveSource::messageReceived);
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        streams.last().write("data: whole\n\ndata: {\"half\":");
        streams.last().endStream();
        QVERIFY(dropped.wait());
        QCOMPARE(messages.size(), 1); // the half event is never delivered
        QCOMPARE(messages.at(0).at(0).value<LiveMessage>().data, "whole"_ba);
        QCOMPARE(dropped.last().at(1).toBool(), true);
        source.open();
        QVERIFY(opened.wait());
        streams.last().write("data: next\n\n");
        QVERIFY(messages.wait());
        QCOMPARE(messages.last().at(0).value<LiveMessage>().data, "next"_ba); // nothing left over
    }

    void webSocketServerGoneMidMessageReconnects()
    {
        WebSocketTestServer ws;
        QVERIFY(ws.listen());
        WebSocketSource source(ws.url());
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        ws.drop(); // no close frame: the network failed
        QVERIFY(dropped.wait());
        QCOMPARE(dropped.last().at(1).toBool(), true);
        QCOMPARE(source.state(), LiveSource::State::Reconnecting);
    }

    void eventSource204Stops()
    {
        server.route("GET", u"/events"_s,
                     [](const RecordedRequest &) { return ServerResponse::noContent(); });
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        QSignalSpy dropped(&source, &LiveSource::dropped);
        source.open();
        QVERIFY(dropped.wait());
        QCOMPARE(dropped.last().at(1).toBool(), false);
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QVERIFY(source.errorString().isEmpty());
    }

    void eventSourceRefusesAnotherContentType()
    {
        server.route("GET", u"/events"_s, [](const RecordedRequest &) {
            return ServerResponse::raw("<html></html>", "text/html");
        });
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(dropped.wait());
        QCOMPARE(dropped.last().at(1).toBool(), false);
        QCOMPARE(opened.size(), 0);
        QCOMPARE(source.state(), LiveSource::State::Closed);
        QVERIFY2(source.errorString().contains(u"\"text/html\", not text/event-stream"_s),
                 qPrintable(source.errorString()));
    }

    void eventSourceStatuses_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("reconnect");
        QTest::newRow("503 reconnects") << 503 << true;
        QTest::newRow("429 reconnects") << 429 << true;
        QTest::newRow("401 stops") << 401 << false;
        QTest::newRow("404 stops") << 404 << false;
    }
    void eventSourceStatuses()
    {
        QFETCH(int, status);
        QFETCH(bool, reconnect);
        server.route("GET", u"/events"_s, [status](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject(), status);
        });
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        QSignalSpy dropped(&source, &LiveSource::dropped);
        source.open();
        QVERIFY(dropped.wait());
        QCOMPARE(dropped.last().at(1).toBool(), reconnect);
        QVERIFY2(source.errorString().contains(u"HTTP %1"_s.arg(status)),
                 qPrintable(source.errorString()));
    }

    void eventSourceOverTheSizeLimitDropsAndReconnects()
    {
        routeEvents();
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        source.setMaxMessageBytes(64);
        QSignalSpy messages(&source, &LiveSource::messageReceived);
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        streams.last().write("data: small\n\ndata: " + QByteArray(100, 'x') + "\n\n");
        QVERIFY(dropped.wait());
        QCOMPARE(messages.size(), 1);
        QCOMPARE(dropped.last().at(1).toBool(), true);
        QVERIFY2(source.errorString().contains(u"over maxMessageBytes (64 bytes)"_s),
                 qPrintable(source.errorString()));
    }

    void heartbeatTimeoutDropsAHalfOpenConnection()
    {
        routeEvents();
        EventSource source(QUrl(server.url(u"/events"_s)), &network);
        source.setHeartbeatTimeout(1000); // wide: a loaded machine delays the writes below
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        // Comments keep it alive...
        for (int i = 0; i < 3; ++i) {
            QTest::qWait(100);
            streams.last().write(": ping\n");
        }
        QCOMPARE(dropped.size(), 0);
        // ...silence does not.
        QVERIFY(dropped.wait(5000));
        QCOMPARE(dropped.last().at(1).toBool(), true);
        QVERIFY2(source.errorString().contains(u"half-open"_s), qPrintable(source.errorString()));
    }

    void credentialsFollowTheSameOriginRule_data()
    {
        QTest::addColumn<int>("credentials");
        QTest::addColumn<QString>("apiOrigin");
        QTest::addColumn<bool>("sent");
        QTest::newRow("same origin")
            << int(Credentials::SameOrigin) << u"http://127.0.0.1:%1"_s << true;
        QTest::newRow("no API origin: the source's own")
            << int(Credentials::SameOrigin) << QString() << true;
        QTest::newRow("another origin")
            << int(Credentials::SameOrigin) << u"https://api.example.com"_s << false;
        QTest::newRow("omit") << int(Credentials::Omit) << QString() << false;
        QTest::newRow("include, another origin")
            << int(Credentials::Include) << u"https://api.example.com"_s << true;
    }
    void credentialsFollowTheSameOriginRule()
    {
        QFETCH(int, credentials);
        QFETCH(QString, apiOrigin);
        QFETCH(bool, sent);
        routeEvents();
        WebSocketTestServer ws;
        QVERIFY(ws.listen());
        EventSource events(QUrl(server.url(u"/events"_s)), &network);
        WebSocketSource socket(ws.url());
        for (LiveSource *source :
             {static_cast<LiveSource *>(&events), static_cast<LiveSource *>(&socket)}) {
            source->setHeaders({{"Authorization", "Bearer t"}});
            source->setCredentials(Credentials(credentials));
            // The WebSocket's origin is its ws: scheme read as http: on its own port.
            const quint16 port = source == &events ? server.port() : ws.port();
            source->setApiOrigin(apiOrigin.contains(u"%1"_s) ? QUrl(apiOrigin.arg(port))
                                                             : QUrl(apiOrigin));
            QSignalSpy opened(source, &LiveSource::opened);
            source->open();
            QVERIFY(opened.wait());
        }
        QCOMPARE(server.lastRequest().header("Authorization"), sent ? "Bearer t"_ba : ""_ba);
        QCOMPARE(ws.handshakeHeader(-1, "Authorization"), sent ? "Bearer t"_ba : ""_ba);
    }

    void webSocketSendsAndReceives()
    {
        WebSocketTestServer ws;
        QVERIFY(ws.listen());
        WebSocketSource source(ws.url());
        StateLog log(&source);
        QSignalSpy messages(&source, &LiveSource::messageReceived);
        QSignalSpy opened(&source, &LiveSource::opened);
        QVERIFY(!source.send("early")); // not open
        source.open();
        QVERIFY(opened.wait());
        QCOMPARE(log.names(), (QStringList {u"Connecting"_s, u"Open"_s}));
        QVERIFY(source.send(R"({"subscribe":"todos"})"));
        QTRY_COMPARE(ws.received(), QStringList {uR"({"subscribe":"todos"})"_s});
        QCOMPARE(ws.send(uR"({"type":"updated"})"_s), 1);
        QVERIFY(messages.wait());
        QCOMPARE(messages.last().at(0).value<LiveMessage>().data, R"({"type":"updated"})"_ba);
        QVERIFY(!source.canResume());
    }

    void webSocketCloseCodes_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<bool>("reconnect");
        QTest::newRow("going away reconnects") << 1001 << true;
        QTest::newRow("normal close reconnects") << 1000 << true;
        QTest::newRow("policy violation stops") << 1008 << false;
    }
    void webSocketCloseCodes()
    {
        QFETCH(int, code);
        QFETCH(bool, reconnect);
        WebSocketTestServer ws;
        QVERIFY(ws.listen());
        WebSocketSource source(ws.url());
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        ws.close(code, u"bye"_s);
        QVERIFY(dropped.wait());
        QCOMPARE(dropped.last().at(1).toBool(), reconnect);
        QCOMPARE(source.state(),
                 reconnect ? LiveSource::State::Reconnecting : LiveSource::State::Closed);
        QVERIFY2(source.errorString().contains(u"code %1"_s.arg(code)),
                 qPrintable(source.errorString()));
    }

    void webSocketOverTheSizeLimitDropsAndReconnects()
    {
        WebSocketTestServer ws;
        QVERIFY(ws.listen());
        WebSocketSource source(ws.url());
        source.setMaxMessageBytes(64);
        QSignalSpy messages(&source, &LiveSource::messageReceived);
        QSignalSpy dropped(&source, &LiveSource::dropped);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        ws.send(u"small"_s);
        ws.send(QString(100, u'x'));
        QVERIFY(dropped.wait());
        QCOMPARE(messages.size(), 1);
        QCOMPARE(dropped.last().at(1).toBool(), true);
        QVERIFY2(source.errorString().contains(u"over maxMessageBytes (64 bytes)"_s),
                 qPrintable(source.errorString()));
    }

    void closeStopsEveryMessage()
    {
        WebSocketTestServer ws;
        QVERIFY(ws.listen());
        WebSocketSource source(ws.url());
        QSignalSpy messages(&source, &LiveSource::messageReceived);
        QSignalSpy opened(&source, &LiveSource::opened);
        source.open();
        QVERIFY(opened.wait());
        ws.send(u"one"_s);
        source.close(); // before the frame is read
        QTRY_COMPARE(ws.openConnections(), 0);
        QTest::qWait(20);
        QCOMPARE(messages.size(), 0);
        QCOMPARE(source.state(), LiveSource::State::Closed);
    }
};

QTEST_MAIN(tst_LiveSources)
#include "tst_livesources.moc"
