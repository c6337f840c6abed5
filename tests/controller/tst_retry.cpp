// Retries with backoff, against the in-process server and in virtual time: what the
// server received (attempts and their spacing), Retry-After, what is never retried, dedupe during
// backoff, a reset or a caller gone during backoff, and settings that are refused.
#include "retrybackoff_p.h"
#include "virtualtimefixture.h"

#include <DataClient/restendpoint.h>
#include <DataClient/testing/virtualclock.h>

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtCore/QTimeZone>
#include <QSignalSpy>
#include <QTest>

#include <memory>

// Declared before its first use in a data table (clang refuses it later).
Q_DECLARE_METATYPE(DataClient::RetryPolicy)

using namespace ControllerFixture;
using namespace DataClient::Testing;
using DataClient::detail::RetryBackoff;

class tst_Retry : public VirtualTimeTest
{
    Q_OBJECT

    //! What the server received in virtual time, relative to the first request.
    QList<qint64> spacing() const
    {
        QList<qint64> result;
        for (const qint64 at : arrivals)
            result.append(at - arrivals.value(0));
        return result;
    }
    static QByteArray httpDate(qint64 msecs)
    {
        return QLocale::c()
            .toString(QDateTime::fromMSecsSinceEpoch(msecs, QTimeZone::utc()),
                      u"ddd, dd MMM yyyy hh:mm:ss 'GMT'"_s)
            .toLatin1();
    }

private Q_SLOTS:
    void theExampleOfTheDocs()
    {
        // docs/networking.md "Time: the Controller's scheduler", line for line.
        Controller controller;
        controller.setConnectivity(connectivity.get());
        const EndpointPtr items = endpoint();
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {1})};
        DataClient::Testing::VirtualClock clock; // #include <DataClient/testing/virtualclock.h>
        clock.install(&controller); // the Controller's clock and its scheduler
        QFuture<QVariant> todos = controller.fetch(items); // the server answers 503: a retry waits
        QTRY_VERIFY(controller.getResponse(items).retrying);
        clock.advance(1000); // the retry is sent now, synchronously
        QCOMPARE(await(todos).value->toList(), (QVariantList {1}));
        QCOMPARE(server->requestCount(), 2);
    }

    void readsRetryWithExponentialBackoff()
    {
        script = {ServerResponse::json({}, 503), ServerResponse::json({}, 500),
                  ServerResponse::json({}, 502), ServerResponse::json(QJsonArray {7})};
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future;
        QVERIFY(fetchUntilRetrying(items, &future));
        ResponseState state = controller->getResponse(items);
        QCOMPARE(state.attempt, 2);
        QVERIFY(state.loading);
        QVERIFY(!state.error); // not failed: trying again
        QCOMPARE(controller->nextTimerDue(), clock->now() + 500);

        clock->advance(499);
        QCOMPARE(server->requestCount(), 1);
        clock->advance(1);
        QVERIFY(waitForRequests(2));
        QVERIFY(!controller->getResponse(items).retrying); // an attempt runs
        QTRY_VERIFY(controller->getResponse(items).retrying);
        QCOMPARE(controller->getResponse(items).attempt, 3);
        clock->advance(1000);
        QVERIFY(waitForRequests(3));
        QTRY_VERIFY(controller->getResponse(items).retrying);
        QVERIFY(!future.isFinished()); // it settles once, after the last attempt
        clock->advance(2000);
        const Outcome outcome = await(future);
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toList(), (QVariantList {7}));
        QCOMPARE(spacing(), (QList<qint64> {0, 500, 1500, 3500}));
        state = controller->getResponse(items);
        QVERIFY(!state.retrying && !state.loading);
        QCOMPARE(state.attempt, 0);
    }

    void theLastFailureIsFinal()
    {
        script = {ServerResponse::json({}, 500)};
        const EndpointPtr items = endpoint("GET", RetryPolicy {2, 100, 1000});
        QFuture<QVariant> future = controller->fetch(items);
        for (int attempt = 1; attempt <= 3; ++attempt) {
            QVERIFY(waitForRequests(attempt));
            if (attempt < 3)
                QTRY_VERIFY(controller->getResponse(items).retrying);
            clock->advance(1000);
        }
        const Outcome outcome = await(future);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 500);
        QCOMPARE(server->requestCount(), 3); // 1 + count
        QCOMPARE(controller->nextTimerDue(), -1);
        QCOMPARE(controller->getError(items)->status(), 500);
    }

    void whatCannotSucceedLaterIsNotRetried_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("404") << 404 << QByteArray("{}");
        QTest::newRow("400") << 400 << QByteArray("{}");
        QTest::newRow("401") << 401 << QByteArray("{}");
        QTest::newRow("200 not JSON") << 200 << QByteArray("{not json");
    }
    void whatCannotSucceedLaterIsNotRetried()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        script = {ServerResponse::raw(body, "application/json", status)};
        const Outcome outcome = await(controller->fetch(endpoint()));
        QVERIFY(outcome.error);
        QCOMPARE(controller->nextTimerDue(), -1);
        clock->advance(60000);
        QCOMPARE(server->requestCount(), 1);
    }

    void retriedStatuses_data()
    {
        QTest::addColumn<int>("status");
        for (const int status : {408, 429, 500, 502, 503, 504})
            QTest::newRow(QByteArray::number(status).constData()) << status;
    }
    void retriedStatuses()
    {
        QFETCH(int, status);
        script = {ServerResponse::json({}, status), ServerResponse::json(QJsonArray {})};
        QFuture<QVariant> future = controller->fetch(endpoint());
        QVERIFY(waitForRequests(1));
        QTRY_VERIFY(controller->nextTimerDue() > 0);
        clock->advance(500);
        QVERIFY(await(future).value);
        QCOMPARE(server->requestCount(), 2);
    }

    void retryAfterOverridesTheBackoff_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("retryAfter");
        QTest::addColumn<qint64>("wait");
        QTest::newRow("429 seconds") << 429 << QByteArray("2") << qint64(2000);
        QTest::newRow("503 seconds") << 503 << QByteArray("3") << qint64(3000);
        QTest::newRow("a year: capped") << 503 << QByteArray("31536000") << qint64(30000);
        QTest::newRow("unparsable: backoff") << 429 << QByteArray("soon") << qint64(500);
        QTest::newRow("negative: backoff") << 429 << QByteArray("-5") << qint64(500);
        QTest::newRow("500 ignores it") << 500 << QByteArray("9") << qint64(500);
    }
    void retryAfterOverridesTheBackoff()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, retryAfter);
        QFETCH(qint64, wait);
        script = {ServerResponse::json({}, status).withHeader("Retry-After", retryAfter),
                  ServerResponse::json(QJsonArray {})};
        QFuture<QVariant> future = controller->fetch(endpoint());
        QVERIFY(waitForRequests(1));
        QTRY_VERIFY(controller->nextTimerDue() > 0);
        QCOMPARE(controller->nextTimerDue() - clock->now(), wait);
        clock->advance(wait);
        QVERIFY(await(future).value);
        QCOMPARE(spacing(), (QList<qint64> {0, wait}));
    }

    void retryAfterAsAnHttpDate()
    {
        script = {
            ServerResponse::json({}, 503).withHeader("Retry-After", httpDate(clock->now() + 7000)),
            ServerResponse::json({}, 503).withHeader("Retry-After", httpDate(clock->now() - 7000)),
            ServerResponse::json(QJsonArray {})};
        QFuture<QVariant> future = controller->fetch(endpoint());
        QVERIFY(waitForRequests(1));
        QTRY_VERIFY(controller->nextTimerDue() > 0);
        QCOMPARE(controller->nextTimerDue() - clock->now(), 7000);
        clock->advance(7000);
        QVERIFY(waitForRequests(2));
        QTRY_VERIFY(controller->getResponse(endpoint()).retrying);
        // A date in the past is absent: the backoff of attempt 3 (1000 ms) applies.
        QCOMPARE(controller->nextTimerDue() - clock->now(), 1000);
        clock->advance(1000);
        QVERIFY(await(future).value);
    }

    void retryAfterParsing()
    {
        const qint64 now = 1704067200000;
        QCOMPARE(RetryBackoff::retryAfterMs("120", now), 120000);
        QCOMPARE(RetryBackoff::retryAfterMs(" 0 ", now), 0);
        QCOMPARE(RetryBackoff::retryAfterMs("", now), std::nullopt);
        QCOMPARE(RetryBackoff::retryAfterMs("1.5", now), std::nullopt);
        QCOMPARE(RetryBackoff::retryAfterMs(httpDate(now + 5000), now), 5000);
        QCOMPARE(RetryBackoff::retryAfterMs(httpDate(now - 5000), now), std::nullopt);
        QCOMPARE(RetryBackoff::retryAfterMs("Tue, 99 Foo 2024", now), std::nullopt);
    }

    void theDataShownStaysWhileRetrying()
    {
        const EndpointPtr items = endpoint();
        controller->setResponse(items, {}, QJsonArray {1});
        controller->expireAll([](const QString &) { return true; });
        script = {ServerResponse::json({}, 503)};
        QFuture<QVariant> future;
        QVERIFY(fetchUntilRetrying(items, &future));
        const ResponseState state = controller->getResponse(items);
        QVERIFY(state.hasData());
        QCOMPARE(state.data.toList(), (QVariantList {1}));
    }

    void aSecondReadDuringBackoffJoinsTheChain()
    {
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {3})};
        const EndpointPtr items = endpoint();
        QFuture<QVariant> first;
        QVERIFY(fetchUntilRetrying(items, &first));
        QFuture<QVariant> second = controller->fetch(items);
        QFuture<QVariant> third = controller->fetchIfStale(items);
        clock->advance(500);
        QCOMPARE(await(first).value->toList(), (QVariantList {3}));
        QCOMPARE(await(second).value->toList(), (QVariantList {3}));
        QCOMPARE(await(third).value->toList(), (QVariantList {3}));
        QCOMPARE(server->requestCount(), 2);
    }

    void aResetDuringBackoffEndsTheChainCanceled()
    {
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {3})};
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future;
        QVERIFY(fetchUntilRetrying(items, &future));
        QSignalSpy states(controller.get(), &Controller::fetchStateChanged);
        controller->resetEntireStore();
        QVERIFY(await(future).canceled());
        QCOMPARE(controller->nextTimerDue(), -1);
        clock->advance(60000);
        QTest::qWait(0);
        QCOMPARE(server->requestCount(), 1);
        const ResponseState state = controller->getResponse(items);
        QVERIFY(!state.found && !state.loading && !state.retrying && !state.error);
        QVERIFY(!states.isEmpty()); // views learn the key stopped loading
    }

    void aCallerGoneDuringBackoffSendsNothingMore()
    {
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {3})};
        const EndpointPtr items = endpoint();
        QFuture<QVariant> future;
        QVERIFY(fetchUntilRetrying(items, &future));
        future.cancel(); // a query destroyed: its future is canceled
        clock->advance(60000);
        QTRY_VERIFY(!controller->isLoading(items));
        clock->advance(60000);
        QCOMPARE(server->requestCount(), 1);
        QVERIFY(!controller->getResponse(items).found);
    }

    void mutationsRetryOnlyWhenTheirEndpointOptsIn()
    {
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonObject {})};
        const Outcome failed = await(controller->fetch(endpoint("POST"), {}, QJsonObject {}));
        QVERIFY(failed.error);
        QCOMPARE(failed.error->status(), 503);
        QCOMPARE(controller->nextTimerDue(), -1);
        QCOMPARE(server->requestCount(), 1);

        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonObject {})};
        QFuture<QVariant> future
            = controller->fetch(endpoint("PUT", RetryPolicy {1, 100, 100}), {}, QJsonObject {});
        QVERIFY(waitForRequests(2));
        QTRY_VERIFY(controller->nextTimerDue() > 0);
        clock->advance(100);
        QVERIFY(await(future).value);
        QCOMPARE(server->requestCount(), 3);
    }

    void aTimeoutIsRetried()
    {
        script = {ServerResponse::json(QJsonArray {}).cutAfter(1, ServerResponse::Ending::Stall),
                  ServerResponse::json(QJsonArray {4})};
        const EndpointPtr items = RestEndpoint::create(
            {.path = u"/items"_s, .urlPrefix = server->url(), .timeout = 100});
        QCOMPARE(items->retryPolicy(), RetryPolicy::forReads());
        QFuture<QVariant> future = controller->fetch(items);
        QTRY_VERIFY_WITH_TIMEOUT(controller->getResponse(items).retrying, 5000);
        clock->advance(500);
        QCOMPARE(await(future).value->toList(), (QVariantList {4}));
        QCOMPARE(server->requestCount(), 2);
    }

    void aRefusedConnectionIsRetried()
    {
        // A port nobody listens on: take one and close it.
        auto closed = std::make_unique<TestServer>();
        QVERIFY(closed->listen());
        const QString url = closed->url();
        closed.reset();
        const EndpointPtr items = RestEndpoint::create(
            {.path = u"/items"_s, .urlPrefix = url, .retry = RetryPolicy {1, 100, 100}});
        QFuture<QVariant> future = controller->fetch(items);
        QTRY_VERIFY(controller->getResponse(items).retrying);
        clock->advance(100);
        const Outcome outcome = await(future);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Network);
    }

    void badSettingsAreRefusedAndNothingIsSent_data()
    {
        QTest::addColumn<RetryPolicy>("policy");
        QTest::addColumn<QString>("says");
        QTest::newRow("negative count") << RetryPolicy {-1, 1000, 30000} << u"retry.count"_s;
        QTest::newRow("absurd count") << RetryPolicy {1000000, 1000, 30000} << u"retry.count"_s;
        QTest::newRow("negative delay") << RetryPolicy {3, -1, 30000} << u"retry.baseDelayMs"_s;
        QTest::newRow("cap below base") << RetryPolicy {3, 1000, 10} << u"retry.maxDelayMs"_s;
        QTest::newRow("cap of years") << RetryPolicy {3, 1000, 2000000000} << u"retry.maxDelayMs"_s;
    }
    void badSettingsAreRefusedAndNothingIsSent()
    {
        QFETCH(RetryPolicy, policy);
        QFETCH(QString, says);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"nothing was sent"_s));
        const Outcome outcome = await(controller->fetch(endpoint("GET", policy)));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(outcome.error->message().contains(says), qPrintable(outcome.error->message()));
        QTest::qWait(0);
        QCOMPARE(server->requestCount(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_Retry)
#include "tst_retry.moc"
