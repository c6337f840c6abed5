// Testing::MockNetwork: a QNetworkAccessManager answering from fixtures without a
// socket — real replies the REST layer cannot tell from the network, matching by endpoint or
// by method + URL pattern + params + JSON body, interceptors, delays and failures, and a loud
// failure (method, URL, body, closest fixture) for a request nothing answers.
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/mocknetwork.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_MockNetwork : public QObject
{
    Q_OBJECT

    const Resource todos = createResource({.path = u"/todos/:id"_s,
                                           .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                           .urlPrefix = u"http://api.test"_s});

    static QJsonObject todo(int id, const QString &title)
    {
        return {{u"id"_s, id}, {u"title"_s, title}};
    }

    //! Fetches and returns the error it failed with (null when it did not fail).
    static NetworkError failureOf(QFuture<QVariant> future)
    {
        return awaitOutcome(future).error.value_or(NetworkError());
    }

private Q_SLOTS:
    void answersAnEndpointFixtureThroughTheController()
    {
        MockNetwork network(
            {{.endpoint = todos.get, .params = {{u"id"_s, 1}}, .response = todo(1, u"first"_s)}});
        Controller controller(&network);
        const std::optional<QVariant> value = await(controller.fetch(todos.get, {{u"id"_s, 1}}));
        QVERIFY(value);
        QCOMPARE(value->toMap().value(u"title"_s).toString(), u"first"_s);
        QCOMPARE(network.requests().size(), 1);
        QCOMPARE(network.requests().first().method, "GET"_ba);
        QCOMPARE(network.requests().first().url, QUrl(u"http://api.test/todos/1"_s));
        QCOMPARE(network.requests("GET", u"/todos/1"_s).size(), 1);
        QVERIFY(network.unmatched().isEmpty());
        // Stored like any answer.
        QCOMPARE(controller.getResponse(todos.get, {{u"id"_s, 1}}).data.toMap().value(u"id"_s),
                 QVariant(1));
    }

    void repliesAreRealReplies()
    {
        MockNetwork network({{.method = "GET",
                              .url = u"/things/:id"_s,
                              .response = QJsonArray {1, 2},
                              .status = 203,
                              .headers = {{"ETag", "\"v1\""}}}});
        std::unique_ptr<QNetworkReply> reply(
            network.get(QNetworkRequest(QUrl(u"http://host.test/things/7"_s))));
        QStringList order;
        connect(reply.get(), &QNetworkReply::metaDataChanged, this, [&] { order << u"meta"_s; });
        connect(reply.get(), &QNetworkReply::downloadProgress, this,
                [&](qint64 received, qint64 total) {
                    order << u"progress %1/%2"_s.arg(received).arg(total);
                });
        connect(reply.get(), &QNetworkReply::readyRead, this, [&] { order << u"readyRead"_s; });
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(!reply->isFinished()); // never answered inside get()
        QVERIFY(finished.wait(5000));
        QCOMPARE(order, (QStringList {u"meta"_s, u"progress 5/5"_s, u"readyRead"_s}));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 203);
        QCOMPARE(reply->rawHeader("etag"), "\"v1\""_ba);
        QCOMPARE(reply->header(QNetworkRequest::ContentTypeHeader).toString(),
                 u"application/json"_s);
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->readAll(), "[1,2]"_ba);
    }

    void matchesMethodUrlParamsAndBody()
    {
        MockNetwork network({
            {.method = "GET",
             .url = u"http://api.test/todos"_s,
             .params = {{u"userId"_s, 2}},
             .response = QJsonArray {todo(4, u"of user 2"_s)}},
            {.method = "POST",
             .url = u"/todos"_s,
             .body = QJsonObject {{u"title"_s, u"a"_s}},
             .response = todo(9, u"a"_s),
             .status = 201},
        });
        Controller controller(&network);
        const std::optional<QVariant> list
            = await(controller.fetch(todos.getList, {{u"userId"_s, 2}}));
        QVERIFY(list);
        QCOMPARE(list->toList().size(), 1);
        const std::optional<QVariant> created
            = await(controller.fetch(todos.getList.push, {}, QJsonObject {{u"title"_s, u"a"_s}}));
        QVERIFY(created);
        QCOMPARE(created->toMap().value(u"id"_s), QVariant(9));
        QCOMPARE(network.requests().last().json(), QJsonValue(QJsonObject {{u"title"_s, u"a"_s}}));
        QCOMPARE(network.requests().last().header("content-type"), "application/json"_ba);

        // Another body, another user: not these fixtures.
        network.setFailOnUnmatched(false);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"no fixture"_s));
        QCOMPARE(
            failureOf(controller.fetch(todos.getList.push, {}, QJsonObject {{u"title"_s, u"b"_s}}))
                .status(),
            404);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"no fixture"_s));
        QCOMPARE(failureOf(controller.fetch(todos.getList, {{u"userId"_s, 3}})).status(), 404);
        QCOMPARE(network.unmatched().size(), 2);
    }

    void errorsAndFailuresReachTheController()
    {
        MockNetwork network({
            {.endpoint = todos.get,
             .params = {{u"id"_s, 1}},
             .response = QJsonObject {{u"message"_s, u"boom"_s}},
             .error = true},
            {.endpoint = todos.get, .params = {{u"id"_s, 2}}, .status = 404},
            {.endpoint = todos.get,
             .params = {{u"id"_s, 3}},
             .networkError = QNetworkReply::ConnectionRefusedError},
        });
        Controller controller(&network);
        // No retries (a 500 and a refused connection are retried by default); fixtures match
        // by URL, so those of todos.get answer this copy of it too.
        const EndpointPtr get = todos.get->extend({.retry = RetryPolicy::none()});
        const NetworkError serverError = failureOf(controller.fetch(get, {{u"id"_s, 1}}));
        QCOMPARE(serverError.status(), 500);
        QVERIFY2(serverError.bodyText().contains(u"boom"_s), qPrintable(serverError.bodyText()));
        QVERIFY(controller.getError(get, {{u"id"_s, 1}}));
        QCOMPARE(failureOf(controller.fetch(get, {{u"id"_s, 2}})).status(), 404);
        const NetworkError refused = failureOf(controller.fetch(get, {{u"id"_s, 3}}));
        QCOMPARE(refused.kind(), NetworkError::Kind::Network);
        QCOMPARE(refused.status(), 0);
    }

    void aDelayedReplyCanBeAborted()
    {
        MockNetwork network({{.method = "GET", .url = u"/slow"_s, .delayMs = 600'000}});
        std::unique_ptr<QNetworkReply> reply(
            network.get(QNetworkRequest(QUrl(u"http://api.test/slow"_s))));
        QCoreApplication::processEvents(); // a turn of the event loop: still waiting
        QVERIFY(!reply->isFinished());
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        reply->abort();
        QCOMPARE(finished.size(), 1); // at once, as QNetworkReply::abort() does
        QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    }

    void interceptorsComeFirstWhileTheirContextLives()
    {
        MockNetwork network({{.endpoint = todos.get,
                              .params = {{u"id"_s, 5}},
                              .response = todo(5, u"from the fixture"_s)}});
        auto context = std::make_unique<QObject>();
        network.addInterceptor(context.get(), [](const MockRequest &request) {
            if (!request.url.path().endsWith(u"/5"_s))
                return std::optional<MockReply>();
            return std::optional(MockReply::json(todo(5, u"intercepted"_s)));
        });
        Controller controller(&network);
        const std::optional<QVariant> first = await(controller.fetch(todos.get, {{u"id"_s, 5}}));
        QVERIFY(first);
        QCOMPARE(first->toMap().value(u"title"_s).toString(), u"intercepted"_s);
        context.reset();
        const std::optional<QVariant> second = await(controller.fetch(todos.get, {{u"id"_s, 5}}));
        QVERIFY(second);
        QCOMPARE(second->toMap().value(u"title"_s).toString(), u"from the fixture"_s);
    }

    void anUnmatchedRequestSaysWhatAndTheClosestFixture()
    {
        MockNetwork network(
            {{.method = "GET", .url = u"/users"_s},
             {.method = "POST", .url = u"/todos"_s, .body = QJsonObject {{u"title"_s, u"a"_s}}}});
        network.setFailOnUnmatched(false);
        Controller controller(&network);
        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(u"no fixture or interceptor answers POST http://api.test/todos "
                               u"\\{\"title\":\"typo\"\\}; closest fixture: POST /todos body "
                               u"\\{\"title\":\"a\"\\} -> 200"_s));
        const NetworkError error = failureOf(
            controller.fetch(todos.getList.push, {}, QJsonObject {{u"title"_s, u"typo"_s}}));
        QCOMPARE(error.status(), 404); // the code under test sees a failure too
        QCOMPARE(network.unmatched().size(), 1);
        QCOMPARE(network.unmatched().first().json(),
                 QJsonValue(QJsonObject {{u"title"_s, u"typo"_s}}));
    }

    void anUnmatchedRequestFailsTheTest()
    {
        MockNetwork network;
        Controller controller(&network);
        // The failure comes from inside the event loop, while the fetch is awaited: expected
        // here, so this test passes only if the mock did fail it.
        QEXPECT_FAIL("", "MockNetwork fails the test on an unmatched request", Continue);
        QFuture<QVariant> future = controller.fetch(todos.get, {{u"id"_s, 1}});
        QTRY_VERIFY(future.isFinished());
        QVERIFY(true); // an XPASS here would mean that no failure was reported
        QCOMPARE(network.unmatched().size(), 1);
    }

    void aFixtureWithMissingParamsIsRefused()
    {
        MockNetwork network;
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"refused:.*'id'"_s));
        QVERIFY(!network.addFixture({.endpoint = todos.get, .response = todo(1, u"x"_s)}));
        QVERIFY(network.fixtures().isEmpty());
    }

    void twoMockNetworksOnOneControllerIsAnError()
    {
        MockNetwork first;
        MockNetwork second;
        Controller controller(&first);
        QTest::ignoreMessage(QtCriticalMsg,
                             QRegularExpression(u"already has another MockNetwork"_s));
        QVERIFY(!second.attach(&controller));
        QCOMPARE(controller.networkAccessManager(), &first);
        QVERIFY(first.attach(&controller)); // the same one again is fine

        Controller plain; // its own manager: a mock may take its place
        QVERIFY(second.attach(&plain));
        QCOMPARE(plain.networkAccessManager(), &second);
    }
};

QTEST_GUILESS_MAIN(tst_MockNetwork)
#include "tst_mocknetwork.moc"
