// Servers and networks that misbehave: answers cut short, stalled or trickled, error
// bodies of any size, answers larger than the limit, redirects to other origins, loops and
// other schemes. Nothing partial is ever handed on, the deadline holds, credentials stay home.
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkCookie>
#include <QtNetwork/QNetworkCookieJar>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

using Ending = ServerResponse::Ending;
Q_DECLARE_METATYPE(DataClient::Testing::ServerResponse)
Q_DECLARE_METATYPE(DataClient::NetworkError::Kind)
Q_DECLARE_METATYPE(DataClient::Credentials)

class tst_HostileServer : public ServerTest
{
    Q_OBJECT

private:
    EndpointPtr endpoint(const QString &path, EndpointOptions options = {})
    {
        options.name = u"hostile"_s;
        options.path = path;
        options.urlPrefix = server.url();
        options.schema = user();
        options.headers = {{"Authorization", "Bearer secret"}};
        return RestEndpoint::create(options);
    }
    Outcome<QJsonValue> fetch(const EndpointPtr &e, const QJsonValue &body = {})
    {
        return await(e->fetch(&network, {}, body));
    }

    TestServer elsewhere; // another origin: same host, another port

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        QVERIFY(elsewhere.listen());
    }
    void cleanup()
    {
        elsewhere.clearRoutes();
        elsewhere.clearRequests();
        network.setCookieJar(new QNetworkCookieJar);
    }

    // Only a whole answer is an answer.
    void answersCutShortFail_data()
    {
        QTest::addColumn<ServerResponse>("answer");
        QTest::addColumn<NetworkError::Kind>("kind");
        const QByteArray list = R"([{"id":"1","name":"one"},{"id":"2","name":"two"}])";
        auto json = [](const QByteArray &body, int status = 200) {
            return ServerResponse::raw(body, "application/json", status);
        };
        QTest::newRow("stalled after 6 bytes: the deadline")
            << json(list).cutAfter(6, Ending::Stall) << NetworkError::Kind::Timeout;
        QTest::newRow("stalled after the head")
            << json(list).cutAfter(0, Ending::Stall) << NetworkError::Kind::Timeout;
        QTest::newRow("closed after 6 bytes")
            << json(list).cutAfter(6, Ending::Close) << NetworkError::Kind::Network;
        QTest::newRow("closed after the head")
            << json(list).cutAfter(0, Ending::Close) << NetworkError::Kind::Network;
        // The part that arrived parses: it must still not count.
        QTest::newRow("closed after a part that parses")
            << json(R"({"id":"50"})" + QByteArray(40, ' ')).cutAfter(11, Ending::Close)
            << NetworkError::Kind::Network;
        QTest::newRow("a 500 closed mid-body")
            << json(list, 500).cutAfter(6, Ending::Close) << NetworkError::Kind::Network;
    }
    void answersCutShortFail()
    {
        QFETCH(ServerResponse, answer);
        QFETCH(NetworkError::Kind, kind);
        server.route("GET", u"/users/1"_s, [answer](const RecordedRequest &) { return answer; });
        const auto outcome = fetch(endpoint(u"/users/1"_s, {.timeout = 500}));
        QVERIFY(outcome.finished);
        QVERIFY2(!outcome.value, "a body cut short was handed on as an answer");
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), kind);
        QCOMPARE(outcome.error->status(), 0);
        QVERIFY2(outcome.error->message().contains(server.url(u"/users/1"_s)),
                 qPrintable(outcome.error->message()));
    }

    // A server sending one byte at a time cannot hold a request past its timeout.
    void timeoutIsADeadlineForTheWholeAnswer()
    {
        server.route("GET", u"/users/1"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}, {u"name"_s, u"x"_s}})
                .withTrickle(100); // ~2.5 s for the body, a byte every 100 ms
        });
        const auto outcome = fetch(endpoint(u"/users/1"_s, {.timeout = 600}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QVERIFY2(outcome.error->message().contains(u"600 ms"_s),
                 qPrintable(outcome.error->message()));

        // Without a deadline the same answer arrives whole.
        const auto patient = fetch(endpoint(u"/users/1"_s, {.timeout = 0}));
        QVERIFY(patient.value);
        QCOMPARE(patient.value->toObject().value(u"name"_s).toString(), u"x"_s);
    }

    // The size limit, by the announced length and by what arrives.
    void answersLargerThanTheLimitAreRefused_data()
    {
        QTest::addColumn<ServerResponse>("answer");
        const QByteArray big = "[\"" + QByteArray(100000, 'x') + "\"]";
        QTest::newRow("announced, then stalled")
            << ServerResponse::raw(big, "application/json").cutAfter(0, Ending::Stall);
        QTest::newRow("sent whole") << ServerResponse::raw(big, "application/json");
        QTest::newRow("an error body") << ServerResponse::raw(big, "text/plain", 500);
    }
    void answersLargerThanTheLimitAreRefused()
    {
        QFETCH(ServerResponse, answer);
        server.route("GET", u"/users/1"_s, [answer](const RecordedRequest &) { return answer; });
        // The default timeout (30 s) would outlast await(): refused on the head, not on time.
        const auto outcome = fetch(endpoint(u"/users/1"_s, {.maxResponseBytes = 1000}));
        QVERIFY(outcome.finished);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::TooLarge);
        QCOMPARE(outcome.error->status(), answer.status);
        QVERIFY2(outcome.error->message().contains(u"maxResponseBytes (1000 bytes)"_s),
                 qPrintable(outcome.error->message()));
    }
    void theDefaultLimitIs64MiB()
    {
        QCOMPARE(RestEndpoint::create({})->getRequestInit({}).maxResponseBytes, 64 * 1024 * 1024);
    }

    // An error keeps the start of a huge body, and says so.
    void errorBodiesAreKeptUpToACap()
    {
        const QByteArray body = QByteArray(1024 * 1024, 'e');
        server.route("GET", u"/users/1"_s, [body](const RecordedRequest &) {
            return ServerResponse::raw(body, "text/plain", 502);
        });
        const auto outcome = fetch(endpoint(u"/users/1"_s));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Http);
        QCOMPARE(outcome.error->body().size(), NetworkError::MaxKeptBodyBytes);
        QCOMPARE(outcome.error->bodySize(), body.size());
        QVERIFY(outcome.error->bodyTruncated());
        QVERIFY2(outcome.error->message().contains(u"a body of 1048576 bytes; the first 65536"_s),
                 qPrintable(outcome.error->message()));
        // A small body is kept whole.
        server.route("GET", u"/users/2"_s, [](const RecordedRequest &) {
            return ServerResponse::raw("gone", "text/plain", 404);
        });
        const auto small = fetch(endpoint(u"/users/2"_s));
        QVERIFY(small.error);
        QCOMPARE(small.error->body(), "gone"_ba);
        QVERIFY(!small.error->bodyTruncated());
    }

    // JSON is UTF-8 only, on both read paths; a text body is decoded from its charset.
    void charsets_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("withSchema");
        QTest::addColumn<QString>("expected"); // the text read, or the start of the error
        const QByteArray json = "{\"id\":\"1\",\"name\":\"caf\xe9\"}";
        QTest::newRow("JSON in latin-1: refused")
            << "application/json; charset=ISO-8859-1"_ba << json << true
            << u"error: the body's charset is 'iso-8859-1'"_s;
        QTest::newRow("JSON, invalid UTF-8: refused with its offset")
            << "application/json"_ba << json << true
            << u"error: the response is not valid JSON: invalid UTF-8 at byte offset 21"_s;
        QTest::newRow("JSON declared UTF-8, quoted")
            << "application/json; charset=\"UTF-8\""_ba
            << R"({"id":"1","name":"ok"})"_ba << true << u"ok"_s;
        QTest::newRow("text in latin-1: decoded") << "text/plain; charset=iso-8859-1"_ba
                                                  << "caf\xe9"_ba << false << u"caf\u00e9"_s;
        QTest::newRow("text, invalid UTF-8: refused")
            << "text/plain"_ba
            << "caf\xe9!"_ba << false << u"error: the body is not valid UTF-8"_s;
        QTest::newRow("text in an unknown charset: refused")
            << "text/plain; charset=x-unknown"_ba
            << "abc"_ba << false
            << u"error: the body's charset 'x-unknown' is not one Qt can decode"_s;
    }
    void charsets()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(bool, withSchema);
        QFETCH(QString, expected);
        server.route("GET", u"/users/1"_s, [=](const RecordedRequest &) {
            return ServerResponse::raw(body, contentType);
        });
        EndpointOptions options {.path = u"/users/1"_s, .urlPrefix = server.url()};
        if (withSchema)
            options.schema = user();
        const EndpointPtr e = RestEndpoint::create(options);
        auto read = [&](const auto &outcome, const auto &text) {
            if (outcome.error)
                return u"error: "_s + outcome.error->message().section(u": "_s, 1);
            return outcome.value ? text(*outcome.value) : u"<nothing>"_s;
        };
        const QString viaFetch = read(await(e->fetch(&network, {})), [](const QJsonValue &v) {
            return v.isString() ? v.toString() : v.toObject().value(u"name"_s).toString();
        });
        QVERIFY2(viaFetch.startsWith(expected), qPrintable(viaFetch));
        const QString viaCompact
            = read(await(e->fetchCompact(&network, {})), [](const CompactAnswer &answer) {
                  const QJsonValue v = answer.value.toJsonValue();
                  return v.isString() ? v.toString() : v.toObject().value(u"name"_s).toString();
              });
        QCOMPARE(viaCompact, viaFetch);
    }

    // Redirects are followed within the origin; the token and cookies stay there.
    void redirectsWithinTheOriginAreFollowed_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("methodAfter");
        QTest::addColumn<bool>("bodyAfter");
        QTest::newRow("302 GET") << 302 << "GET"_ba
                                 << "GET"_ba << false;
        QTest::newRow("301 GET") << 301 << "GET"_ba
                                 << "GET"_ba << false;
        QTest::newRow("307 POST keeps the body") << 307 << "POST"_ba
                                                 << "POST"_ba << true;
        QTest::newRow("308 PUT keeps the body") << 308 << "PUT"_ba
                                                << "PUT"_ba << true;
        QTest::newRow("303 POST becomes a GET") << 303 << "POST"_ba
                                                << "GET"_ba << false;
        QTest::newRow("303 DELETE becomes a GET") << 303 << "DELETE"_ba
                                                  << "GET"_ba << false;
        QTest::newRow("307 PATCH keeps the body") << 307 << "PATCH"_ba
                                                  << "PATCH"_ba << true;
    }
    void redirectsWithinTheOriginAreFollowed()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, methodAfter);
        QFETCH(bool, bodyAfter);
        server.route(method, u"/users/1"_s, [status](const RecordedRequest &) {
            return ServerResponse::redirect(status, "/moved/1");
        });
        server.route(methodAfter, u"/moved/1"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}, {u"moved"_s, true}});
        });
        network.cookieJar()->setCookiesFromUrl({QNetworkCookie("session", "abc")},
                                               server.baseUrl());
        const bool withBody = method != "GET" && method != "DELETE";
        const auto outcome = fetch(endpoint(u"/users/1"_s, {.method = method}),
                                   withBody ? QJsonObject {{u"a"_s, 1}} : QJsonValue());
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toObject().value(u"moved"_s).toBool(), true);
        QCOMPARE(server.requestCount(), 2);
        QCOMPARE(server.requests().first().method, method);
        const RecordedRequest moved = server.lastRequest();
        QCOMPARE(moved.path, u"/moved/1"_s);
        QCOMPARE(moved.method, methodAfter);
        QCOMPARE(moved.header("authorization"), "Bearer secret"_ba);
        QCOMPARE(moved.header("cookie"), "session=abc"_ba);
        QCOMPARE(moved.body.isEmpty(), !bodyAfter);
        QCOMPARE(moved.hasHeader("content-type"), bodyAfter);
        if (bodyAfter) // the same body, byte for byte
            QCOMPARE(moved.body, server.requests().first().body);
    }

    // A 301/302 to a request that changes data: following it as a GET (as browsers do) would
    // hand on what the GET reads as the result of a change the server never made.
    void aMovedMutationIsRefused_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("method");
        for (const int status : {301, 302}) {
            for (const QByteArray &method : {"POST"_ba, "PUT"_ba, "PATCH"_ba, "DELETE"_ba})
                QTest::addRow("%d %s", status, method.constData()) << status << method;
        }
    }
    void aMovedMutationIsRefused()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, method);
        // A trailing-slash route (the server's routes ignore the slash: the handler looks).
        server.route("*", u"/users/1"_s, [status](const RecordedRequest &request) {
            if (!request.path.endsWith(u'/'))
                return ServerResponse::redirect(status, "/users/1/");
            return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}, {u"read"_s, true}});
        });
        const auto outcome = fetch(endpoint(u"/users/1"_s, {.method = method}),
                                   method == "DELETE" ? QJsonValue() : QJsonObject {{u"a"_s, 1}});
        QVERIFY(outcome.finished);
        QVERIFY2(!outcome.value, "a redirected mutation resolved with what a GET read");
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Redirect);
        QCOMPARE(outcome.error->status(), status);
        const QString message = outcome.error->message();
        QVERIFY2(message.startsWith(QString::fromLatin1(method) + u' ' + server.url(u"/users/1"_s)
                                    + u" was redirected ("_s + QString::number(status)),
                 qPrintable(message));
        QVERIFY2(message.contains(u"to "_s + server.url(u"/users/1/"_s)
                                  + u". The server did not "
                                    "apply the "_s
                                  + QString::fromLatin1(method)),
                 qPrintable(message));
        QVERIFY2(message.contains(u"trailing slash"_s), qPrintable(message));
        QVERIFY2(message.contains(u"307 or 308"_s), qPrintable(message));
        // One request, the one refused: nothing was sent to the Location.
        QCOMPARE(server.requestCount(), 1);
        QCOMPARE(server.lastRequest().method, method);
        QCOMPARE(server.lastRequest().path, u"/users/1"_s);
    }

    void aMovedMutationElsewhereIsRefusedAsAMutation()
    {
        const QByteArray target = elsewhere.url(u"/users/1/"_s).toUtf8();
        server.route("POST", u"/users/1"_s, [target](const RecordedRequest &) {
            return ServerResponse::redirect(301, target);
        });
        const auto outcome = fetch(
            endpoint(u"/users/1"_s, {.method = "POST", .credentials = Credentials::Include}),
            QJsonObject {{u"a"_s, 1}});
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Redirect);
        QVERIFY2(outcome.error->message().contains(u"did not apply the POST"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(elsewhere.requestCount(), 0);
    }

    void redirectsElsewhereAreRefused_data()
    {
        QTest::addColumn<Credentials>("credentials");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("method");
        QTest::newRow("same-origin 302") << Credentials::SameOrigin << 302 << "GET"_ba;
        QTest::newRow("same-origin 307 POST") << Credentials::SameOrigin << 307 << "POST"_ba;
        QTest::newRow("same-origin 308 PATCH") << Credentials::SameOrigin << 308 << "PATCH"_ba;
        QTest::newRow("omit 302") << Credentials::Omit << 302 << "GET"_ba;
    }
    void redirectsElsewhereAreRefused()
    {
        QFETCH(Credentials, credentials);
        QFETCH(int, status);
        QFETCH(QByteArray, method);
        const QByteArray target = elsewhere.url(u"/steal"_s).toUtf8();
        server.route(method, u"/users/1"_s, [status, target](const RecordedRequest &) {
            return ServerResponse::redirect(status, target);
        });
        network.cookieJar()->setCookiesFromUrl({QNetworkCookie("session", "abc")},
                                               server.baseUrl());
        const auto outcome
            = fetch(endpoint(u"/users/1"_s, {.method = method, .credentials = credentials}),
                    method == "GET" ? QJsonValue() : QJsonObject {{u"a"_s, 1}});
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Redirect);
        QCOMPARE(outcome.error->status(), status);
        QVERIFY2(
            outcome.error->message().contains(u"to another origin ("_s + QString::fromUtf8(target)),
            qPrintable(outcome.error->message()));
        QCOMPARE(elsewhere.requestCount(), 0);
    }

    void includeFollowsRedirectsElsewhereWithItsCredentials()
    {
        const QByteArray target = elsewhere.url(u"/partner"_s).toUtf8();
        server.route("GET", u"/users/1"_s, [target](const RecordedRequest &) {
            return ServerResponse::redirect(302, target);
        });
        elsewhere.route("GET", u"/partner"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}});
        });
        // Both origins share the host: a jar cookie for it matches both.
        network.cookieJar()->setCookiesFromUrl({QNetworkCookie("session", "abc")},
                                               server.baseUrl());
        const auto outcome = fetch(endpoint(u"/users/1"_s, {.credentials = Credentials::Include}));
        QVERIFY(outcome.value);
        QCOMPARE(elsewhere.requestCount(), 1);
        // The cookies go (the app said so); the Authorization header stays behind, as browsers
        // do: a token is for the origin it was given for.
        QVERIFY(!elsewhere.lastRequest().hasHeader("authorization"));
        QCOMPARE(elsewhere.lastRequest().header("cookie"), "session=abc"_ba);
    }

    // Qt itself loads jar cookies into a redirect it follows, whatever the request said.
    void omitSendsNoCookieAfterASameOriginRedirect()
    {
        server.route("GET", u"/users/1"_s, [](const RecordedRequest &) {
            return ServerResponse::redirect(302, "/moved/1");
        });
        server.route("GET", u"/moved/1"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}});
        });
        network.cookieJar()->setCookiesFromUrl({QNetworkCookie("session", "abc")},
                                               server.baseUrl());
        const auto outcome = fetch(endpoint(u"/users/1"_s, {.credentials = Credentials::Omit}));
        QVERIFY(outcome.value);
        QCOMPARE(server.requestCount(), 2);
        for (const RecordedRequest &request : server.requests())
            QVERIFY2(!request.hasHeader("cookie"), qPrintable(request.path));
    }

    void badRedirectsAreClearErrors_data()
    {
        QTest::addColumn<QByteArray>("location");
        QTest::addColumn<QString>("says");
        QTest::newRow("a loop") << "/users/1"_ba << u"more than 20 times (a loop?)"_s;
        QTest::newRow("to a file")
            << "file:///etc/passwd"_ba << u"to 'file:///etc/passwd', which is not an http"_s;
        QTest::newRow("to another scheme")
            << "ftp://127.0.0.1/x"_ba << u"which is not an http or https URL"_s;
    }
    void badRedirectsAreClearErrors()
    {
        QFETCH(QByteArray, location);
        QFETCH(QString, says);
        server.route("GET", u"/users/1"_s, [location](const RecordedRequest &) {
            return ServerResponse::redirect(302, location);
        });
        const auto outcome = fetch(endpoint(u"/users/1"_s));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Redirect);
        QVERIFY2(outcome.error->message().contains(says), qPrintable(outcome.error->message()));
        QVERIFY(server.requestCount() <= 21);
    }
};

QTEST_GUILESS_MAIN(tst_HostileServer)
#include "tst_hostileserver.moc"
