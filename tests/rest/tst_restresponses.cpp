// How answers are read (docs/errors.md): 204/empty -> null, JSON, text,
// HTML and invalid JSON with and without a schema, non-2xx, network failure; the fetchResponse,
// parseResponse and process hooks.
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QTcpServer>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

namespace {

// Records what each hook saw, to prove the order and the arguments.
class RecordingEndpoint : public EndpointBase<RecordingEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    mutable QStringList calls;
    mutable QByteArray seenHeader;
    mutable Params seenParams;

    QFuture<Response> fetchResponse(QNetworkAccessManager *network, const QUrl &url,
                                    const RequestInit &init) const override
    {
        calls << u"fetchResponse"_s;
        return RestEndpoint::fetchResponse(network, url, init);
    }
    QJsonValue parseResponse(const Response &response) const override
    {
        calls << u"parseResponse"_s;
        seenHeader = response.header("x-total-count");
        return RestEndpoint::parseResponse(response);
    }
    QJsonValue process(const QJsonValue &value, const Params &params) const override
    {
        calls << u"process"_s;
        seenParams = params;
        QJsonObject object = RestEndpoint::process(value, params).toObject();
        object.insert(u"processed"_s, true);
        return object;
    }
};

} // namespace

class tst_RestResponses : public ServerTest
{
    Q_OBJECT

private:
    Outcome<QJsonValue> get(const ServerResponse &answer, const Schema &schema = {})
    {
        server.route("GET", u"/x"_s, [answer](const RecordedRequest &) { return answer; });
        const EndpointPtr e = RestEndpoint::create(
            {.name = u"get"_s, .path = u"/x"_s, .urlPrefix = server.url(), .schema = schema});
        return await(e->fetch(&network, {}));
    }

private Q_SLOTS:
    void noContentAndEmptyBodiesAreNull()
    {
        auto outcome = get(ServerResponse::noContent(), user());
        QVERIFY(outcome.value);
        QVERIFY(outcome.value->isNull());
        outcome = get(ServerResponse::raw({}, "application/json"), user());
        QVERIFY(outcome.value);
        QVERIFY(outcome.value->isNull());
    }

    void jsonIsParsed()
    {
        const QJsonObject body {{u"id"_s, u"5"_s}, {u"tags"_s, QJsonArray {1, 2}}};
        auto outcome = get(ServerResponse::json(body), user());
        QVERIFY(outcome.value);
        QCOMPARE(*outcome.value, QJsonValue(body));
        // Scalars are JSON too: a delete may answer with a bare pk.
        outcome = get(ServerResponse::raw("\"500\"", "application/json"));
        QCOMPARE(outcome.value, std::optional(QJsonValue(u"500"_s)));
        outcome = get(ServerResponse::raw("42", "application/json; charset=utf-8"));
        QCOMPARE(outcome.value, std::optional(QJsonValue(42)));
    }

    // HTML for an endpoint with a schema is an error; where we differ from the JavaScript
    // reference library on purpose: status 400 (the answer cannot be read), not 404
    // (docs/errors.md, "Where we differ").
    void htmlWithSchemaIsAnError()
    {
        const auto outcome
            = get(ServerResponse::raw("<html><body>Login</body></html>", "text/html"), user());
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidResponse);
        QCOMPARE(outcome.error->status(), 400);
        const QString message = outcome.error->message();
        QVERIFY2(message.contains(u"unexpected text response"_s), qPrintable(message));
        QVERIFY2(message.contains(u"schema 'User'"_s), qPrintable(message));
        QVERIFY2(message.contains(u"text/html"_s), qPrintable(message));
        QVERIFY2(message.contains(u"<html><body>Login"_s), qPrintable(message));
        QVERIFY2(message.contains(u"GET "_s + server.url(u"/x"_s)), qPrintable(message));
        QCOMPARE(outcome.error->body(), "<html><body>Login</body></html>"_ba);
    }
    void textWithoutSchemaIsTheText()
    {
        const auto outcome = get(ServerResponse::raw("<p>hello</p>", "text/html"));
        QCOMPARE(outcome.value, std::optional(QJsonValue(u"<p>hello</p>"_s)));
    }

    // A JSON body under a non-JSON content type is accepted for a schema only if it parses.
    void jsonWithTextContentTypeAndSchemaIsAcceptedIfItParses()
    {
        auto outcome = get(ServerResponse::raw(R"({"id":"7"})", "text/plain"), user());
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toObject().value(u"id"_s).toString(), u"7"_s);
        outcome = get(ServerResponse::raw("id=7", "text/plain"), user());
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 400);
        QVERIFY2(outcome.error->message().contains(u"expected JSON, which it is not"_s),
                 qPrintable(outcome.error->message()));
    }

    // Invalid JSON under a JSON content type.
    void invalidJsonIs400WithTheParserMessageAndOffset()
    {
        const auto outcome = get(ServerResponse::raw("{\"id\": 1,", "application/json"), user());
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidResponse);
        QCOMPARE(outcome.error->status(), 400);
        const QString message = outcome.error->message();
        QVERIFY2(message.contains(u"not valid JSON"_s), qPrintable(message));
        QVERIFY2(message.contains(u"at offset 9"_s), qPrintable(message));
        // The parser's own words are in the message.
        QVERIFY2(message.contains(u"unterminated object"_s, Qt::CaseInsensitive)
                     || message.contains(u"missing"_s, Qt::CaseInsensitive),
                 qPrintable(message));
    }

    void non2xxIsANetworkErrorWithStatusTextUrlAndBody()
    {
        const QJsonObject body {{u"message"_s, u"no such user"_s}};
        const auto outcome = get(ServerResponse::json(body, 404), user());
        QVERIFY(outcome.error);
        const NetworkError &error = *outcome.error;
        QCOMPARE(error.kind(), NetworkError::Kind::Http);
        QCOMPARE(error.status(), 404);
        QCOMPARE(error.statusText(), u"Not Found"_s);
        QCOMPARE(error.url().toString(), server.url(u"/x"_s));
        QCOMPARE(error.method(), "GET"_ba);
        QCOMPARE(error.json(), QJsonValue(body));
        QCOMPARE(error.networkError(), QNetworkReply::ContentNotFoundError);
        QVERIFY2(error.message().contains(u"404 Not Found"_s), qPrintable(error.message()));
        QVERIFY2(error.message().contains(u"no such user"_s), qPrintable(error.message()));
        QCOMPARE(QString::fromUtf8(error.what()), error.message());

        const auto server500 = get(ServerResponse::raw("boom", "text/plain", 503), user());
        QVERIFY(server500.error);
        QCOMPARE(server500.error->status(), 503);
        QCOMPARE(server500.error->bodyText(), u"boom"_s);
    }

    // Connection refused: no HTTP answer -> status 0 and Qt's error string.
    void connectionRefusedIsStatusZero()
    {
        QTcpServer closed; // find a free port, then close it so nothing listens there
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        const EndpointPtr e = RestEndpoint::create(
            {.path = u"/x"_s, .urlPrefix = u"http://127.0.0.1:%1"_s.arg(port)});
        const auto outcome = await(e->fetch(&network, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Network);
        QCOMPARE(outcome.error->status(), 0);
        QCOMPARE(outcome.error->networkError(), QNetworkReply::ConnectionRefusedError);
        QVERIFY(!outcome.error->errorString().isEmpty());
        QCOMPARE(outcome.error->statusText(), outcome.error->errorString());
        QVERIFY2(outcome.error->message().contains(outcome.error->errorString()),
                 qPrintable(outcome.error->message()));
    }

    void droppedConnectionIsStatusZero()
    {
        const auto outcome = get(ServerResponse::drop(), user());
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 0);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Network);
    }

    // Every request passes through fetch -> fetchResponse -> parseResponse -> process;
    // parseResponse sees the headers; process gets the URL parameters.
    void hooksRunInOrderWithTheirArguments()
    {
        server.route("GET", u"/users/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(QJsonObject {{u"id"_s, request.pathParams.value(u"id"_s)}})
                .withHeader("X-Total-Count", "12");
        });
        const auto e = std::make_shared<RecordingEndpoint>(
            EndpointOptions {.path = u"/users/:id"_s, .urlPrefix = server.url()});
        const Params params {{u"id"_s, u"3"_s}, {u"expand"_s, u"all"_s}};
        const auto outcome = await(e->fetch(&network, params));
        QVERIFY(outcome.value);
        QCOMPARE(e->calls, (QStringList {u"fetchResponse"_s, u"parseResponse"_s, u"process"_s}));
        QCOMPARE(e->seenHeader, "12"_ba);
        QCOMPARE(e->seenParams, params);
        QCOMPARE(*outcome.value,
                 QJsonValue(QJsonObject {{u"id"_s, u"3"_s}, {u"processed"_s, true}}));

        // An error answer never reaches parseResponse or process.
        e->calls.clear();
        server.route("GET", u"/users/:id"_s,
                     [](const RecordedRequest &) { return ServerResponse::json({}, 500); });
        QVERIFY(await(e->fetch(&network, params)).error);
        QCOMPARE(e->calls, QStringList {u"fetchResponse"_s});
    }

    void processOptionRunsWithParams()
    {
        server.route("GET", u"/users/:id"_s,
                     [](const RecordedRequest &) { return ServerResponse::json(QJsonObject {}); });
        const EndpointPtr e
            = RestEndpoint::create({.path = u"/users/:id"_s,
                                    .urlPrefix = server.url(),
                                    .process = [](const QJsonValue &value, const Params &params) {
                                        QJsonObject object = value.toObject();
                                        object.insert(u"id"_s, params.value(u"id"_s).toString());
                                        return QJsonValue(object);
                                    }});
        const auto outcome = await(e->fetch(&network, {{u"id"_s, u"9"_s}}));
        QCOMPARE(outcome.value, std::optional(QJsonValue(QJsonObject {{u"id"_s, u"9"_s}})));
    }

    // A hook that throws fails the future with its error.
    void throwingHookFailsTheFuture()
    {
        server.route("GET", u"/x"_s,
                     [](const RecordedRequest &) { return ServerResponse::json(1); });
        const EndpointPtr e = RestEndpoint::create(
            {.path = u"/x"_s,
             .urlPrefix = server.url(),
             .process = [](const QJsonValue &, const Params &) -> QJsonValue {
                 throw NetworkError(NetworkError::Kind::Other, 0, u"process refused"_s);
             }});
        const auto outcome = await(e->fetch(&network, {}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->message(), u"process refused"_s);
    }

    void fetchResponseResolvesForEveryStatus()
    {
        server.route("GET", u"/x"_s, [](const RecordedRequest &) {
            return ServerResponse::raw("nope", "text/plain", 418).withHeader("X-A", "b");
        });
        const EndpointPtr e = RestEndpoint::create({.path = u"/x"_s, .urlPrefix = server.url()});
        const auto outcome
            = await(e->fetchResponse(&network, e->url({}), e->getRequestInit(QJsonValue())));
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->status, 418);
        QCOMPARE(outcome.value->body, "nope"_ba);
        QCOMPARE(outcome.value->header("x-a"), "b"_ba);
        QCOMPARE(outcome.value->contentType(), "text/plain"_ba);
        QVERIFY(!outcome.value->isOk());
    }

    void errorValueSemantics()
    {
        const NetworkError error
            = NetworkError(NetworkError::Kind::Http, 404, u"m"_s).withBody("{\"a\":1}");
        NetworkError copy = error;
        QCOMPARE(copy.json(), QJsonValue(QJsonObject {{u"a"_s, 1}}));
        const NetworkError changed = copy.withMessage(u"other"_s);
        QCOMPARE(copy.message(), u"m"_s); // with*() never changes the original
        QCOMPARE(changed.message(), u"other"_s);
        QVERIFY(NetworkError().isNull());
        QVERIFY(
            NetworkError(NetworkError::Kind::Http, 0, u"x"_s).withBody("x{").json().isUndefined());
        const QVariant asVariant = QVariant::fromValue(error);
        QCOMPARE(asVariant.value<NetworkError>().status(), 404);
        // Readable as properties (QML).
        const QMetaObject &meta = NetworkError::staticMetaObject;
        QCOMPARE(meta.property(meta.indexOfProperty("status")).readOnGadget(&error).toInt(), 404);
        // fromException keeps a NetworkError, wraps anything else.
        const NetworkError wrapped
            = NetworkError::fromException(std::make_exception_ptr(std::runtime_error("bad")));
        QCOMPARE(wrapped.kind(), NetworkError::Kind::Other);
        QCOMPARE(wrapped.message(), u"bad"_s);
        QCOMPARE(NetworkError::fromException(std::make_exception_ptr(error)).status(), 404);
    }
};

QTEST_GUILESS_MAIN(tst_RestResponses)
#include "tst_restresponses.moc"
