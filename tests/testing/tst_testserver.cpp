// The test server every network test relies on: routes, request log, delays, drops, raw bodies.
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_TestServer : public QObject
{
    Q_OBJECT

private:
    QNetworkReply *send(const QByteArray &verb, const QString &path, const QByteArray &body = {})
    {
        QNetworkRequest request(QUrl(server.url(path)));
        if (!body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
        QNetworkReply *reply = network.sendCustomRequest(request, verb, body);
        reply->setParent(this);
        return reply;
    }
    static bool waitFinished(QNetworkReply *reply)
    {
        if (reply->isFinished())
            return true;
        QSignalSpy finished(reply, &QNetworkReply::finished);
        return finished.wait(5000);
    }

    TestServer server;
    QNetworkAccessManager network;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        QVERIFY(server.port() != 0);
    }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
    }

    void baseUrlIsLoopbackWithEphemeralPort()
    {
        QCOMPARE(server.baseUrl().host(), u"127.0.0.1"_s);
        QCOMPARE(server.url(u"/x"_s), u"http://127.0.0.1:%1/x"_s.arg(server.port()));
    }

    void routesCaptureParamsAndLogRequests()
    {
        server.route("PATCH", u"/todos/:id"_s, [](const RecordedRequest &request) {
            QJsonObject answer = request.json().toObject();
            answer.insert(u"id"_s, request.pathParams.value(u"id"_s));
            return ServerResponse::json(answer);
        });
        QNetworkReply *reply = send("PATCH", u"/todos/7?a=1&b=x%20y"_s, R"({"title":"t"})"_ba);
        QVERIFY(waitFinished(reply));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        QCOMPARE(body.value(u"id"_s).toString(), u"7"_s);
        QCOMPARE(body.value(u"title"_s).toString(), u"t"_s);

        QCOMPARE(server.requestCount(), 1);
        const RecordedRequest logged = server.lastRequest();
        QCOMPARE(logged.method, "PATCH"_ba);
        QCOMPARE(logged.path, u"/todos/7"_s);
        QCOMPARE(logged.query.queryItemValue(u"b"_s, QUrl::FullyDecoded), u"x y"_s);
        QCOMPARE(logged.header("content-type"), "application/json"_ba);
        QCOMPARE(logged.json().toObject().value(u"title"_s).toString(), u"t"_s);
        QCOMPARE(server.requests("PATCH", u"/todos/7"_s).size(), 1);
        QCOMPARE(server.requests("GET", u"/todos/7"_s).size(), 0);
    }

    void laterRoutesOverrideEarlierOnes()
    {
        server.route("*", u"/a"_s, [](const RecordedRequest &) { return ServerResponse::json(1); });
        server.route("GET", u"/a"_s,
                     [](const RecordedRequest &) { return ServerResponse::json(2); });
        QNetworkReply *reply = send("GET", u"/a"_s);
        QVERIFY(waitFinished(reply));
        QCOMPARE(reply->readAll(), "2"_ba);
    }

    void unmatchedRequestIs404WithExplanation()
    {
        QNetworkReply *reply = send("DELETE", u"/nowhere"_s);
        QVERIFY(waitFinished(reply));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 404);
        QVERIFY(reply->readAll().contains("no route for DELETE /nowhere"));
        QCOMPARE(server.requestCount(), 1);
    }

    void rawBodiesStatusesAndHeaders()
    {
        server.route("GET", u"/html"_s, [](const RecordedRequest &) {
            return ServerResponse::raw("<html>oops</html>", "text/html", 503)
                .withHeader("Link", "<http://x/?page=2>; rel=\"next\"");
        });
        QNetworkReply *reply = send("GET", u"/html"_s);
        QVERIFY(waitFinished(reply));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
        QCOMPARE(reply->rawHeader("Link"), "<http://x/?page=2>; rel=\"next\""_ba);
        QCOMPARE(reply->readAll(), "<html>oops</html>"_ba);
    }

    void noContentHasEmptyBody()
    {
        server.route("DELETE", u"/x/:id"_s,
                     [](const RecordedRequest &) { return ServerResponse::noContent(); });
        QNetworkReply *reply = send("DELETE", u"/x/1"_s);
        QVERIFY(waitFinished(reply));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 204);
        QVERIFY(reply->readAll().isEmpty());
    }

    void droppedConnectionIsANetworkError()
    {
        server.route("GET", u"/drop"_s,
                     [](const RecordedRequest &) { return ServerResponse::drop(); });
        QNetworkReply *reply = send("GET", u"/drop"_s);
        QVERIFY(waitFinished(reply));
        QVERIFY(reply->error() != QNetworkReply::NoError);
        // QNetworkAccessManager resends an idempotent request once when a connection closes
        // before any answer, so the server may see it twice; never more.
        QVERIFY(server.requestCount() >= 1 && server.requestCount() <= 2);
    }

    void delayedAnswersArriveAfterFasterOnes()
    {
        server.route("GET", u"/slow"_s, [](const RecordedRequest &) {
            return ServerResponse::json(u"slow"_s).withDelay(300);
        });
        server.route("GET", u"/fast"_s,
                     [](const RecordedRequest &) { return ServerResponse::json(u"fast"_s); });
        QStringList order;
        QNetworkReply *slow = send("GET", u"/slow"_s);
        QNetworkReply *fast = send("GET", u"/fast"_s);
        connect(slow, &QNetworkReply::finished, this, [&] { order << u"slow"_s; });
        connect(fast, &QNetworkReply::finished, this, [&] { order << u"fast"_s; });
        QTRY_COMPARE(order.size(), 2);
        QCOMPARE(order, (QStringList {u"fast"_s, u"slow"_s}));
    }

    void deferredResponderAnswersWhenTheTestSays()
    {
        TestServer::Responder held;
        server.routeDeferred(
            "GET", u"/held"_s,
            [&](const RecordedRequest &, const TestServer::Responder &r) { held = r; });
        QNetworkReply *reply = send("GET", u"/held"_s);
        QTRY_COMPARE(server.requestCount(), 1);
        QVERIFY(!reply->isFinished());
        QVERIFY(held.isConnected());
        held.send(ServerResponse::json(QJsonObject {{u"ok"_s, true}}));
        QVERIFY(waitFinished(reply));
        QCOMPARE(QJsonDocument::fromJson(reply->readAll()).object().value(u"ok"_s).toBool(), true);
    }

    void malformedJsonIsSentVerbatim()
    {
        server.route("GET", u"/bad"_s, [](const RecordedRequest &) {
            return ServerResponse::raw("{\"id\": 1,", "application/json");
        });
        QNetworkReply *reply = send("GET", u"/bad"_s);
        QVERIFY(waitFinished(reply));
        QCOMPARE(reply->readAll(), "{\"id\": 1,"_ba);
    }

    void jsonOfNonJsonBodyIsUndefined()
    {
        RecordedRequest request;
        request.body = "not json";
        QVERIFY(request.json().isUndefined());
        request.body = "\"text\"";
        QCOMPARE(request.json().toString(), u"text"_s);
    }
};

QTEST_GUILESS_MAIN(tst_TestServer)
#include "tst_testserver.moc"
