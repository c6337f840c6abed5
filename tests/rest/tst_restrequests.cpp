// What the server receives (method, path, query, headers, body) for RestEndpoint::fetch(), bad
// input that must send nothing, cancel and timeout. Real sockets: DataClient::Testing::TestServer.
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

class tst_RestRequests : public ServerTest
{
    Q_OBJECT

private:
    EndpointPtr endpoint(const QByteArray &method, const QString &path,
                         const EndpointOverrides &more = {})
    {
        return RestEndpoint::create(
            more.applyTo({.method = method, .path = path, .urlPrefix = server.url()}));
    }

protected:
    void setUp() override
    {
        server.route("*", u"/*"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(
                QJsonObject {{u"echo"_s, QString::fromLatin1(request.method)}});
        });
    }

private Q_SLOTS:
    // A body goes as JSON with Content-Type: application/json; no body, no header.
    void methodsPathsQueriesAndBodies_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QJsonValue>("body");
        QTest::addColumn<bool>("bodySent");
        const QJsonValue body = QJsonObject {{u"username"_s, u"never"_s}, {u"n"_s, 1}};
        QTest::newRow("GET") << "GET"_ba << QJsonValue() << false;
        QTest::newRow("POST") << "POST"_ba << body << true;
        QTest::newRow("PUT") << "PUT"_ba << body << true;
        QTest::newRow("PATCH") << "PATCH"_ba << body << true;
        QTest::newRow("DELETE") << "DELETE"_ba << QJsonValue() << false;
        QTest::newRow("POST without body") << "POST"_ba << QJsonValue() << false;
    }
    void methodsPathsQueriesAndBodies()
    {
        QFETCH(QByteArray, method);
        QFETCH(QJsonValue, body);
        QFETCH(bool, bodySent);
        const EndpointPtr e = endpoint(method, u"/groups/:group/users/:id"_s);
        const auto outcome = await(e->fetch(
            &network, {{u"group"_s, u"five"_s}, {u"id"_s, 5}, {u"sort"_s, u"name"_s}}, body));
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toObject().value(u"echo"_s).toString(),
                 QString::fromLatin1(method));

        QCOMPARE(server.requestCount(), 1);
        const RecordedRequest received = server.lastRequest();
        QCOMPARE(received.method, method);
        QCOMPARE(received.path, u"/groups/five/users/5"_s);
        QCOMPARE(received.query.toString(), u"sort=name"_s);
        QCOMPARE(received.hasHeader("content-type"), bodySent);
        if (bodySent) {
            QCOMPARE(received.header("content-type"), "application/json"_ba);
            QCOMPARE(received.json(), body);
        } else {
            QVERIFY(received.body.isEmpty());
        }
    }

    // GET and DELETE never send a body, even when one is given (a warning says it is ignored).
    void getAndDeleteNeverSendABody()
    {
        for (const QByteArray &method : {"GET"_ba, "DELETE"_ba}) {
            server.clearRequests();
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"never send one"_s));
            const auto outcome
                = await(endpoint(method, u"/a"_s)->fetch(&network, {}, QJsonObject {{u"x"_s, 1}}));
            QVERIFY(outcome.value);
            QVERIFY(server.lastRequest().body.isEmpty());
            QVERIFY(!server.lastRequest().hasHeader("content-type"));
        }
    }

    // A header given by the endpoint wins over the default.
    void endpointHeadersAreSentAndWin()
    {
        const EndpointPtr e = endpoint(
            "PATCH", u"/a"_s,
            {.headers = QList<QPair<QByteArray, QByteArray>> {
                 {"Content-Type", "application/merge-patch+json"}, {"X-Client", "tests"}}});
        QVERIFY(await(e->fetch(&network, {}, QJsonObject {{u"a"_s, 1}})).value);
        QCOMPARE(server.lastRequest().header("content-type"), "application/merge-patch+json"_ba);
        QCOMPARE(server.lastRequest().header("x-client"), "tests"_ba);
    }

    // Values with / ? # .. spaces, unicode and CR/LF stay inside their segment and never add a
    // header: the server sees one request, the encoded target, and no injected header.
    void hostileParameterValues_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("target");
        QTest::newRow("slash") << u"a/b"_s << "/users/a%2Fb/posts"_ba;
        QTest::newRow("question mark") << u"x?admin=1"_s << "/users/x%3Fadmin%3D1/posts"_ba;
        QTest::newRow("hash") << u"x#y"_s << "/users/x%23y/posts"_ba;
        QTest::newRow("dot dot slash") << u"../../etc"_s << "/users/..%2F..%2Fetc/posts"_ba;
        QTest::newRow("spaces") << u"a b"_s << "/users/a%20b/posts"_ba;
        QTest::newRow("unicode") << u"日本"_s << "/users/%E6%97%A5%E6%9C%AC/posts"_ba;
        QTest::newRow("CR LF")
            << u"1 HTTP/1.1\r\nX-Injected: yes\r\n\r\n"_s
            << "/users/1%20HTTP%2F1.1%0D%0AX-Injected%3A%20yes%0D%0A%0D%0A/posts"_ba;
    }
    void hostileParameterValues()
    {
        QFETCH(QString, value);
        QFETCH(QByteArray, target);
        const EndpointPtr e = endpoint("GET", u"/users/:id/posts"_s);
        QVERIFY(await(e->fetch(&network, {{u"id"_s, value}, {u"q"_s, value}})).value);
        QCOMPARE(server.requestCount(), 1);
        const RecordedRequest received = server.lastRequest();
        QVERIFY2(received.rawTarget.startsWith(target + '?'), received.rawTarget.constData());
        QCOMPARE(received.path, u"/users/"_s + value + u"/posts"_s);
        QCOMPARE(received.query.queryItemValue(u"q"_s, QUrl::FullyDecoded), value);
        QVERIFY(!received.hasHeader("X-Injected"));
    }

    // Bad input: a clear error (what, where, what was expected) and nothing sent.
    void badInputSendsNothing_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("paginationField");
        QTest::addColumn<QStringList>("messageParts");
        QTest::newRow("missing parameter")
            << u"/groups/:group/users/:id"_s << Params {{u"id"_s, u"5"_s}} << QString()
            << QStringList {u"missing required parameter 'group'"_s, u"/groups/:group/users/:id"_s,
                            u"given: id"_s};
        QTest::newRow("dot segment") << u"/users/:id"_s << Params {{u"id"_s, u".."_s}} << QString()
                                     << QStringList {u"dot segment"_s, u"'id'"_s};
        QTest::newRow("map as path value")
            << u"/users/:id"_s << Params {{u"id"_s, QVariantMap {{u"a"_s, 1}}}} << QString()
            << QStringList {u"'id'"_s, u"expected a string, number or boolean"_s};
        QTest::newRow("getPage without its field")
            << u"/articles"_s << Params {{u"group"_s, u"happy"_s}} << u"cursor"_s
            << QStringList {u"missing the pagination field 'cursor'"_s,
                            u"getList parameters plus 'cursor'"_s};
        QTest::newRow("malformed template") << u"/users/:"_s << Params {} << QString()
                                            << QStringList {u"position 7"_s, u"parameter name"_s};
    }
    void badInputSendsNothing()
    {
        QFETCH(QString, path);
        QFETCH(Params, params);
        QFETCH(QString, paginationField);
        QFETCH(QStringList, messageParts);
        if (path.endsWith(u':'))
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"parameter name"_s));
        const EndpointPtr e = endpoint(
            "GET", path, {.name = u"getList.getPage"_s, .paginationField = paginationField});
        const auto outcome = await(e->fetch(&network, params));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
        QCOMPARE(outcome.error->status(), 0);
        const QString message = outcome.error->message();
        for (const QString &part : std::as_const(messageParts))
            QVERIFY2(message.contains(part), qPrintable(message));
        QVERIFY2(message.contains(u"nothing was sent"_s), qPrintable(message));
        QVERIFY2(message.contains(u"getList.getPage"_s), qPrintable(message)); // where
        QCOMPARE(server.requestCount(), 0);
    }

    void headerWithLineBreakSendsNothing()
    {
        const EndpointPtr e = endpoint(
            "GET", u"/a"_s,
            {.headers = QList<QPair<QByteArray, QByteArray>> {{"X-Bad", "1\r\nX-Injected: yes"}}});
        const auto outcome = await(e->fetch(&network, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(outcome.error->message().contains(u"line break"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(server.requestCount(), 0);
    }

    void cancellingTheFutureAbortsTheRequest()
    {
        TestServer::Responder held;
        server.routeDeferred(
            "GET", u"/slow"_s,
            [&](const RecordedRequest &, const TestServer::Responder &r) { held = r; });
        QFuture<QJsonValue> future = endpoint("GET", u"/slow"_s)->fetch(&network, {});
        QTRY_COMPARE(server.requestCount(), 1);
        QVERIFY(held.isConnected());
        future.cancel();
        // The reply is aborted: the client closes the connection.
        QTRY_VERIFY(!held.isConnected());
        QVERIFY(future.isCanceled());
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 5000));
        QCOMPARE(future.resultCount(), 0);
    }

    void timeoutIsAnError()
    {
        TestServer::Responder held;
        server.routeDeferred(
            "GET", u"/never"_s,
            [&](const RecordedRequest &, const TestServer::Responder &r) { held = r; });
        const EndpointPtr e = endpoint("GET", u"/never"_s, {.timeout = 150});
        const auto outcome = await(e->fetch(&network, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QCOMPARE(outcome.error->status(), 0);
        QVERIFY2(outcome.error->message().contains(u"150 ms"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(server.requestCount(), 1);
    }

    void defaultNetworkAccessManagerIsUsedWhenNoneIsGiven()
    {
        QVERIFY(RestEndpoint::defaultNetworkAccessManager());
        QCOMPARE(RestEndpoint::defaultNetworkAccessManager(),
                 RestEndpoint::defaultNetworkAccessManager());
        const auto outcome = await(endpoint("GET", u"/a"_s)->fetch(nullptr, {}));
        QVERIFY(outcome.value);
        QCOMPARE(server.requestCount(), 1);
    }

    // The shared endpoint stays alive until its answer is read, even when nothing else holds it.
    void droppedEndpointStillAnswers()
    {
        QFuture<QJsonValue> future;
        {
            const EndpointPtr e = endpoint("GET", u"/a"_s);
            future = e->fetch(&network, {});
        }
        const auto outcome = await(future);
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toObject().value(u"echo"_s).toString(), u"GET"_s);
    }
};

QTEST_GUILESS_MAIN(tst_RestRequests)
#include "tst_restrequests.moc"
