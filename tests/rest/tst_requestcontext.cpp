// RequestContext passed to RestEndpoint::fetch(): its headers replace the endpoint's, its
// validators are sent, its deadline ends the exchange, its abort group aborts it (even one sent
// later), and the exchange writes its status and body bytes into it. Bad input: a null context,
// a context reused for two requests, a header that is not one line.
#include "rawhttpserver.h"
#include "relayfuture.h"
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/requestcontext.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QPromise>
#include <QtCore/QTimer>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

namespace {

const QByteArray listBody = QJsonDocument(QJsonArray {1, 2, 3, u"four"_s}).toJson();

//! Sets a header of its own in getRequestInit(), and notes the init fetchResponse() got.
class VersionedEndpoint : public EndpointBase<VersionedEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    mutable RequestInit seen;

    RequestInit getRequestInit(const QJsonValue &body) const override
    {
        RequestInit init = RestEndpoint::getRequestInit(body);
        init.setHeader("X-Api-Version", "1");
        return init;
    }
    QFuture<Response> fetchResponse(QNetworkAccessManager *network, const QUrl &url,
                                    const RequestInit &init) const override
    {
        seen = init;
        return RestEndpoint::fetchResponse(network, url, init);
    }
};

//! Sends 100 ms later, through the base with the init it got; ignores its own cancellation.
class LateEndpoint : public EndpointBase<LateEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    mutable QFuture<Response> sent;

    QFuture<Response> fetchResponse(QNetworkAccessManager *network, const QUrl &url,
                                    const RequestInit &init) const override
    {
        auto promise = std::make_shared<QPromise<Response>>();
        promise->start();
        QTimer::singleShot(100, network, [this, promise, network, url, init] {
            sent = RestEndpoint::fetchResponse(network, url, init);
            TestSupport::relay(sent, promise, network);
        });
        return promise->future();
    }
};

} // namespace

class tst_RequestContext : public ServerTest
{
    Q_OBJECT

private:
    EndpointPtr endpoint(const QString &path, const EndpointOverrides &more = {})
    {
        return RestEndpoint::create(more.applyTo({.path = path, .urlPrefix = server.url()}));
    }
    static qsizetype headerCount(const RecordedRequest &request, QByteArrayView name)
    {
        return std::count_if(request.headers.cbegin(), request.headers.cend(),
                             [name](const auto &header) {
                                 return header.first.compare(name, Qt::CaseInsensitive) == 0;
                             });
    }

protected:
    void setUp() override
    {
        server.route("GET", u"/list"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(listBody, "application/json");
        });
        server.route("GET", u"/gzip"_s, [](const RecordedRequest &) {
            return ServerResponse::raw(RawHttp::gzip(listBody), "application/json")
                .withHeader("Content-Encoding", "gzip");
        });
        server.route("GET", u"/missing"_s, [](const RecordedRequest &) {
            return ServerResponse::raw("{\"error\":\"no such list\"}", "application/json", 404);
        });
        server.route("GET", u"/moved"_s, [](const RecordedRequest &) {
            return ServerResponse::redirect(302, "/list");
        });
        server.route("GET", u"/drop"_s,
                     [](const RecordedRequest &) { return ServerResponse::drop(); });
        server.routeDeferred("GET", u"/never"_s, [](const RecordedRequest &, const auto &) {});
    }

private Q_SLOTS:
    void headersReplaceTheEndpointsAndReachTheServer()
    {
        const auto e = std::make_shared<VersionedEndpoint>(
            EndpointOptions {.path = u"/list"_s,
                             .urlPrefix = server.url(),
                             .headers = {{"Accept", "application/json"}, {"X-Trace", "endpoint"}}});
        RequestContext context = RequestContext::create();
        context.setHeaders({{"x-api-version", "2"}, {"x-trace", "caller"}});
        context.setHeader("Authorization", "Bearer token");
        QVERIFY(await(e->fetch(&network, {}, {}, context)).value);

        const RecordedRequest received = server.lastRequest();
        QCOMPARE(received.header("x-api-version"), "2"_ba); // over getRequestInit()'s
        QCOMPARE(received.header("x-trace"), "caller"_ba); // over the `headers` option
        QCOMPARE(headerCount(received, "x-api-version"), 1);
        QCOMPARE(headerCount(received, "x-trace"), 1);
        QCOMPARE(received.header("authorization"), "Bearer token"_ba);
        QCOMPARE(received.header("accept"), "application/json"_ba);
        // fetchResponse() got the init with the context in it, and the headers applied.
        QVERIFY(e->seen.context == context);
        QCOMPARE(e->seen.header("x-api-version"), "2"_ba);
    }

    void aHeaderThatIsNotOneLineSendsNothing()
    {
        RequestContext context;
        context.setHeader("X-Note", "one\r\nInjected: two");
        const auto outcome = await(endpoint(u"/list"_s)->fetch(&network, {}, {}, context));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(outcome.error->message().contains(u"X-Note"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(server.requestCount(), 0);
        QCOMPARE(context.status(), 0);
    }

    void resultsOfTheAnswer_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("compact");
        QTest::addColumn<int>("status");
        QTest::addColumn<qint64>("bytes");
        const qint64 json = listBody.size();
        QTest::newRow("200") << u"/list"_s << false << 200 << json;
        QTest::newRow("200, compact") << u"/list"_s << true << 200 << json;
        // The decoded size, not the bytes on the wire.
        QTest::newRow("200 gzip") << u"/gzip"_s << false << 200 << json;
        QTest::newRow("302 then 200") << u"/moved"_s << false << 200 << json;
        QTest::newRow("404") << u"/missing"_s << false << 404
                             << qint64(QByteArray("{\"error\":\"no such list\"}").size());
        QTest::newRow("no answer") << u"/drop"_s << false << 0 << qint64(0);
    }
    void resultsOfTheAnswer()
    {
        QFETCH(QString, path);
        QFETCH(bool, compact);
        QFETCH(int, status);
        QFETCH(qint64, bytes);
        QVERIFY(RawHttp::gzip(listBody).size() != listBody.size());
        const RequestContext context = RequestContext::create();
        const EndpointPtr e = endpoint(path);
        QFuture<void> future = compact ? QFuture<void>(e->fetchCompact(&network, {}, {}, context))
                                       : QFuture<void>(e->fetch(&network, {}, {}, context));
        QCOMPARE(context.status(), 0); // nothing yet
        QTRY_VERIFY(future.isFinished());
        QCOMPARE(context.status(), status);
        QCOMPARE(context.bodyBytes(), bytes);
    }

    void aDeadlineBeforeTheTimeoutEndsTheRequest()
    {
        RequestContext context = RequestContext::create();
        context.setDeadline(QDeadlineTimer(150));
        QElapsedTimer clock;
        clock.start();
        const auto outcome
            = await(endpoint(u"/never"_s, {.timeout = 20000})->fetch(&network, {}, {}, context));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QVERIFY2(outcome.error->message().contains(u"deadline"_s),
                 qPrintable(outcome.error->message()));
        QVERIFY2(clock.elapsed() < 5000, "ended by the deadline, not the 20 s timeout");
        QCOMPARE(server.requestCount(), 1);
        QCOMPARE(context.status(), 0);
    }

    void aTimeoutBeforeTheDeadlineStillEndsTheRequest()
    {
        RequestContext context;
        context.setDeadline(QDeadlineTimer(20000));
        const auto outcome
            = await(endpoint(u"/never"_s, {.timeout = 150})->fetch(&network, {}, {}, context));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QVERIFY2(outcome.error->message().contains(u"timeout of 150 ms"_s),
                 qPrintable(outcome.error->message()));
    }

    void aDeadlinePassedBeforeSendingSendsNothing()
    {
        RequestContext context;
        context.setDeadline(QDeadlineTimer(50));
        const auto e = std::make_shared<LateEndpoint>(
            EndpointOptions {.path = u"/list"_s, .urlPrefix = server.url()});
        const auto outcome = await(e->fetch(&network, {}, {}, context)); // sent after 100 ms
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QVERIFY2(outcome.error->message().contains(u"was not sent"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(server.requestCount(), 0);
    }

    void anAbortedGroupAbortsALateSendBeforeItIsSent()
    {
        const RequestContext context = RequestContext::create();
        const auto e = std::make_shared<LateEndpoint>(
            EndpointOptions {.path = u"/list"_s, .urlPrefix = server.url()});
        QFuture<QJsonValue> future = e->fetch(&network, {}, {}, context);
        context.abortGroup().abort(); // while the endpoint waits to send
        QTRY_VERIFY(e->sent.isFinished());
        QVERIFY(e->sent.isCanceled());
        QVERIFY(await(future).canceled());
        QCOMPARE(server.requestCount(), 0);
    }

    void theContextsValidatorsAreSentAndTheAnswerRecorded()
    {
        server.route("GET", u"/list"_s, [](const RecordedRequest &request) {
            ServerResponse reply = ServerResponse::raw({}, {}, 304);
            if (request.header("if-none-match") != "\"v1\"")
                reply = ServerResponse::raw(listBody, "application/json");
            return reply.withHeader("ETag", "\"v1\"");
        });
        RequestContext context;
        context.setConditionalRequest(ConditionalRequest(Validators {.etag = "\"v1\""}));
        const auto outcome = await(endpoint(u"/list"_s)->fetch(&network, {}, {}, context));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 304);
        QCOMPARE(server.lastRequest().header("if-none-match"), "\"v1\""_ba);
        QVERIFY(context.conditionalRequest().sent());
        QVERIFY(context.conditionalRequest().notModified());
        QCOMPARE(context.status(), 304);

        // An endpoint that opted out sends none and records nothing.
        RequestContext optedOut;
        optedOut.setConditionalRequest(ConditionalRequest(Validators {.etag = "\"v1\""}));
        QVERIFY(
            await(endpoint(u"/list"_s, {.validators = false})->fetch(&network, {}, {}, optedOut))
                .value);
        QVERIFY(!server.lastRequest().hasHeader("if-none-match"));
        QVERIFY(!optedOut.conditionalRequest().sent());
        QVERIFY(optedOut.conditionalRequest().received().isEmpty());
    }

    void aNullContextIsNoContext()
    {
        const RequestContext null;
        QVERIFY(null.isNull());
        const auto outcome = await(endpoint(u"/list"_s)->fetch(&network, {}, {}, null));
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toArray().size(), 4);
        QVERIFY(null.isNull()); // nothing was recorded, nowhere to record it
        QCOMPARE(null.status(), 0);
        QCOMPARE(null.bodyBytes(), qint64(0));
        QVERIFY(null.headers().isEmpty());
        QVERIFY(null.deadline().isForever());
        QVERIFY(null.conditionalRequest().isNull());

        // Setting something makes a context of its own; a copy taken before stays null.
        RequestContext context;
        const RequestContext before = context;
        context.setHeader("X-A", "1");
        QVERIFY(!context.isNull());
        QVERIFY(before.isNull());
        const RequestContext after = context;
        context.setHeader("X-B", "2");
        QCOMPARE(after.headers().size(), 2); // explicitly shared: the same context
        QVERIFY(after == context);
    }

    void aContextReusedForTwoRequests()
    {
        const RequestContext context = RequestContext::create();
        RequestContext decorated = context;
        decorated.setHeader("X-Trace", "shared");

        // One after the other: the results are the last request's.
        QVERIFY(await(endpoint(u"/list"_s)->fetch(&network, {}, {}, context)).value);
        QCOMPARE(context.status(), 200);
        QVERIFY(await(endpoint(u"/missing"_s)->fetch(&network, {}, {}, context)).error);
        QCOMPARE(context.status(), 404);
        QCOMPARE(server.requestCount(), 2);
        QCOMPARE(server.requests().at(0).header("x-trace"), "shared"_ba);
        QCOMPARE(server.requests().at(1).header("x-trace"), "shared"_ba);

        // At once: both join its group, and aborting it aborts both.
        QFuture<QJsonValue> first = endpoint(u"/never"_s)->fetch(&network, {}, {}, context);
        QFuture<QJsonValue> second = endpoint(u"/never"_s)->fetch(&network, {}, {}, context);
        QTRY_COMPARE(server.requestCount(), 4);
        context.abortGroup().abort();
        QVERIFY(await(first).canceled());
        QVERIFY(await(second).canceled());
        // A group stays aborted: a third request with the context is not sent.
        QVERIFY(await(endpoint(u"/list"_s)->fetch(&network, {}, {}, context)).canceled());
        QCOMPARE(server.requestCount(), 4);
    }
};

QTEST_GUILESS_MAIN(tst_RequestContext)
#include "tst_requestcontext.moc"
