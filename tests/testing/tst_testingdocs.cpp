// The code of docs/testing.md, compiled and run (tst_docsnippets checks the page quotes it).
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/initialstate.h>
#include <DataClient/testing/mocknetwork.h>
#include <DataClient/testing/virtualclock.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/testing/websockettestserver.h>
#include <DataClient/eventsource.h>
#include <DataClient/livefeed.h>
#include <DataClient/websocketsource.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_TestingDocs : public QObject
{
    Q_OBJECT

    static QByteArray get(QNetworkAccessManager &network, const QString &url)
    {
        std::unique_ptr<QNetworkReply> reply(network.get(QNetworkRequest(QUrl(url))));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        if (!reply->isFinished() && !finished.wait(5000))
            return {};
        return reply->readAll();
    }

    // clang-format off
    const Resource todos = createResource({.path = u"/todos/:id"_s,
                                           .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                           .urlPrefix = u"http://api.test"_s});
    // clang-format on

private Q_SLOTS:
    void fiveLineSnippet()
    {
        // clang-format off
        Testing::MockNetwork network({{.endpoint = todos.get, .params = {{u"id"_s, 1}},
                                       .response = QJsonObject{{u"id"_s, 1}, {u"title"_s, u"Buy milk"_s}}}});
        Controller controller(&network);
        const std::optional<QVariant> todo = Testing::await(controller.fetch(todos.get, {{u"id"_s, 1}}));
        QVERIFY(todo);
        QCOMPARE(todo->toMap().value(u"title"_s), QVariant(u"Buy milk"_s));
        // clang-format on
    }

    void mockNetworkSnippet()
    {
        // clang-format off
        Testing::MockNetwork network({
            {.endpoint = todos.getList, .response = QJsonArray{}},                     // GET /todos
            {.method = "POST", .url = u"/todos"_s, .body = QJsonObject{{u"title"_s, u"a"_s}},
             .response = QJsonObject{{u"id"_s, 9}, {u"title"_s, u"a"_s}}, .status = 201},
            {.endpoint = todos.get, .params = {{u"id"_s, 2}}, .status = 404, .delayMs = 10},
            {.method = "GET", .url = u"/users/:id"_s, .networkError = QNetworkReply::HostNotFoundError},
        });
        network.addInterceptor(this, [](const Testing::MockRequest &request) {
            if (request.header("authorization").isEmpty() && request.url.path() == u"/me"_s)
                return std::optional(Testing::MockReply::json(QJsonObject{}, 401));
            return std::optional<Testing::MockReply>();   // let the fixtures answer
        });
        Controller controller(&network);
        QVERIFY(Testing::await(controller.fetch(todos.getList.push, {}, QJsonObject{{u"title"_s, u"a"_s}})));
        QCOMPARE(network.requests("POST", u"/todos"_s).size(), 1);
        QCOMPARE(network.requests().last().json(), QJsonValue(QJsonObject{{u"title"_s, u"a"_s}}));
        // clang-format on
    }

    void initialStateSnippet()
    {
        // clang-format off
        Testing::MockNetwork network;                      // no fixtures: any request fails the test
        Controller controller(&network);
        QVERIFY(Testing::mockInitialState(&controller, {
            {.endpoint = todos.get, .params = {{u"id"_s, 1}}, .response = QJsonObject{{u"id"_s, 1}}},
            {.endpoint = todos.get, .params = {{u"id"_s, 2}}, .error = true, .status = 500},
        }));
        QVERIFY(controller.getResponse(todos.get, {{u"id"_s, 1}}).found);   // synchronously
        QCOMPARE(controller.getError(todos.get, {{u"id"_s, 2}})->status(), 500);
        QVERIFY(network.requests().isEmpty());
        // clang-format on
    }

    void virtualClockSnippet()
    {
        // clang-format off
        Testing::MockNetwork network({{.endpoint = todos.get, .params = {{u"id"_s, 1}},
                                       .response = QJsonObject{{u"id"_s, 1}}}});
        Controller controller(&network);
        Testing::VirtualClock clock(&controller);          // installed; uninstalled when destroyed
        const EndpointPtr polled = todos.get->extend({.pollFrequency = 5000});
        QVERIFY(Testing::await(controller.fetch(polled, {{u"id"_s, 1}})));
        controller.subscribe(polled, {{u"id"_s, 1}});
        clock.advance(4999);
        QVERIFY(!controller.isLoading(polled, {{u"id"_s, 1}}));  // nothing before 5 s
        clock.advance(1);
        QVERIFY(controller.isLoading(polled, {{u"id"_s, 1}}));   // the poll, sent synchronously
        QTRY_COMPARE(network.requests().size(), 2);
        // clang-format on
    }

    void testServerSnippet()
    {
        // clang-format off
        DataClient::Testing::TestServer server;
        QVERIFY(server.listen());
        server.route("GET", u"/todos/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(QJsonObject{{u"id"_s, request.pathParams.value(u"id"_s)}});
        });
        // clang-format on
        QNetworkAccessManager network;
        QCOMPARE(get(network, server.url(u"/todos/5"_s)), R"({"id":"5"})"_ba);
        QCOMPARE(server.lastRequest().method, "GET"_ba);
    }

    void pushSnippet()
    {
        const Schema todo = Schema::entity(EntitySchema(u"Todo"_s));
        LiveMapping mapping;
        mapping.addEntity(u"Todo"_s, todo);
        Controller controller;
        // clang-format off
        WebSocketTestServer ws;
        QVERIFY(ws.listen());
        WebSocketSource socket(ws.url());
        LiveFeed feed(&controller, &socket, mapping);
        QTRY_COMPARE(ws.openConnections(), 1);
        ws.sendJson(QJsonObject{{u"type"_s, u"updated"_s}, {u"entity"_s, u"Todo"_s},
                                {u"data"_s, QJsonObject{{u"id"_s, 1}, {u"title"_s, u"pushed"_s}}}});
        QTRY_COMPARE(feed.appliedCount(), 1);
        ws.close(1001);                  // going away: the feed reconnects after its backoff
        // clang-format on
        QTRY_COMPARE(socket.state(), LiveSource::State::Reconnecting);
        QCOMPARE(controller.get(todo, {{u"id"_s, 1}}).data.toMap().value(u"title"_s),
                 QVariant(u"pushed"_s));
    }

    void eventStreamSnippet()
    {
        QNetworkAccessManager network;
        // clang-format off
        TestServer server;
        QVERIFY(server.listen());
        QList<TestServer::Responder> streams;
        server.routeDeferred("GET", u"/events"_s,
                             [&](const RecordedRequest &, const TestServer::Responder &responder) {
            responder.startEventStream();              // 200, text/event-stream, no length
            streams.append(responder);
        });
        EventSource events(QUrl(server.url(u"/events"_s)), &network);
        events.open();
        QTRY_COMPARE(streams.size(), 1);
        streams.last().write(sseEvent(R"({"type":"refetch"})", "message", "42"));
        streams.last().endStream();                    // the client reconnects with Last-Event-ID
        // clang-format on
        QTRY_COMPARE(events.lastEventId(), u"42"_s);
        QTRY_COMPARE(events.state(), LiveSource::State::Reconnecting);
    }

    void fakeRestApiSnippet()
    {
        // clang-format off
        TestServer server;
        QVERIFY(server.listen());
        FakeRestApi api(&server);

        FakeRestApi::Options todoOptions;
        todoOptions.pagination = FakeRestApi::Pagination::PageNumber; // ?page=N, pageSize 20
        todoOptions.expand = {{u"author"_s, u"/users"_s, u"userId"_s}}; // embed users by userId
        api.addCollection(u"/users"_s, SampleData::users(10));
        api.addCollection(u"/todos"_s, SampleData::todos(200, 10), todoOptions);
        api.mount(u"/users/:userId/todos"_s, u"/todos"_s);             // same data, nested
        // or all of the above: SampleData::install(&api, 10, 200);
        // clang-format on

        QNetworkAccessManager network;
        const QJsonArray page2
            = QJsonDocument::fromJson(get(network, server.url(u"/todos?page=2"_s))).array();
        QCOMPARE(page2.size(), 20);
        QCOMPARE(page2.first().toObject().value(u"id"_s).toInt(), 21);
        const QJsonObject author = page2.first().toObject().value(u"author"_s).toObject();
        QCOMPARE(author.value(u"id"_s).toInt(),
                 page2.first().toObject().value(u"userId"_s).toInt());
        const QJsonArray nested
            = QJsonDocument::fromJson(get(network, server.url(u"/users/3/todos"_s))).array();
        QVERIFY(!nested.isEmpty());
        for (const QJsonValue &todo : nested)
            QCOMPARE(todo.toObject().value(u"userId"_s).toInt(), 3);
    }
};

QTEST_GUILESS_MAIN(tst_TestingDocs)
#include "tst_testingdocs.moc"
