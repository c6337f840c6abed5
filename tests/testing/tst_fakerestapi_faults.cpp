// FakeRestApi fault injection (latency, failure rate, failNext), direct access for tests, its
// signals, and the warnings for malformed setup (which must leave the api unchanged).
#include <DataClient/testing/fakerestapi.h>

#include "fakeapitest.h"

#include <QtCore/QRegularExpression>
#include <QTest>

#include <cmath>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

QJsonArray seed()
{
    return {QJsonObject {{u"id"_s, 1}, {u"title"_s, u"a"_s}},
            QJsonObject {{u"id"_s, 2}, {u"title"_s, u"b"_s}}};
}

void expectWarning(const QString &pattern)
{
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QRegularExpression::escape(pattern)));
}

} // namespace

class tst_FakeRestApiFaults : public FakeApiTest
{
    Q_OBJECT

public:
    tst_FakeRestApiFaults() : FakeApiTest(seed()) { }

private:
    // Status codes of \a count PATCHes of /todos/1.
    QList<int> patchStatuses(int count)
    {
        QList<int> statuses;
        for (int i = 0; i < count; ++i)
            statuses.append(call("PATCH", u"/todos/1"_s, toJson({{u"n"_s, i}})).status);
        return statuses;
    }

private Q_SLOTS:
    void latencyDelaysEveryAnswerOfTheApi()
    {
        api->setLatency(300);
        QCOMPARE(api->latency(), 300);
        server->route("GET", u"/plain"_s,
                      [](const RecordedRequest &) { return ServerResponse::json(true); });
        QStringList order;
        auto send = [&](const QString &path, const QString &name) {
            QNetworkReply *reply = network.get(QNetworkRequest(QUrl(server->url(path))));
            reply->setParent(this);
            connect(reply, &QNetworkReply::finished, this, [&order, name] { order << name; });
        };
        send(u"/todos"_s, u"list"_s);
        send(u"/todos/99"_s, u"not found"_s);
        send(u"/plain"_s, u"plain"_s);
        QTRY_COMPARE(order.size(), 3);
        QCOMPARE(order.first(), u"plain"_s);
    }

    void failureRateIsDeterministicAndLeavesDataUnchanged()
    {
        api->setFailureRate(0.5, 7);
        QCOMPARE(api->failureRate(), 0.5);
        const QList<int> first = patchStatuses(20);
        QVERIFY(first.contains(500));
        QVERIFY(first.contains(200));
        api->setFailureRate(0.5, 7);
        QCOMPARE(patchStatuses(20), first); // same seed, same failures
        api->setFailureRate(0.5, 8);
        QVERIFY(patchStatuses(20) != first);

        // Reads never fail; a failed mutation changes nothing.
        api->setFailureRate(1.0);
        QCOMPARE(call("GET", u"/todos"_s).status, 200);
        const QJsonArray before = api->collection(u"/todos"_s);
        HttpAnswer answer = call("POST", u"/todos"_s, toJson({{u"title"_s, u"x"_s}}));
        QCOMPARE(answer.status, 500);
        QVERIFY2(answer.error().contains(u"POST /todos: injected failure (failure rate 1)"_s),
                 qPrintable(answer.error()));
        QCOMPARE(call("DELETE", u"/todos/1"_s).status, 500);
        QCOMPARE(api->collection(u"/todos"_s), before);

        api->setFailureRate(0);
        QCOMPARE(patchStatuses(5), (QList<int> {200, 200, 200, 200, 200}));
    }

    void failNextFailsThatManyRequestsOfAnyMethod()
    {
        api->failNext(2, 503);
        QCOMPARE(api->pendingFailures(), 2);
        HttpAnswer answer = call("GET", u"/todos"_s);
        QCOMPARE(answer.status, 503);
        QVERIFY2(answer.error().contains(u"GET /todos: injected failure (failNext)"_s),
                 qPrintable(answer.error()));
        QCOMPARE(call("POST", u"/todos"_s, toJson({{u"title"_s, u"x"_s}})).status, 503);
        QCOMPARE(api->pendingFailures(), 0);
        QCOMPARE(api->collection(u"/todos"_s), seed());
        QCOMPARE(call("GET", u"/todos"_s).status, 200);

        api->failNext(1); // default 500
        QCOMPARE(call("GET", u"/todos/1"_s).status, 500);
    }

    void badFaultSettingsWarnAndKeepTheOldOnes()
    {
        api->setLatency(10);
        expectWarning(u"FakeRestApi::setLatency: expected milliseconds >= 0, got -5"_s);
        api->setLatency(-5);
        QCOMPARE(api->latency(), 10);

        api->setFailureRate(0.25);
        expectWarning(u"FakeRestApi::setFailureRate: expected a probability in [0, 1], got 1.5"_s);
        api->setFailureRate(1.5);
        expectWarning(u"FakeRestApi::setFailureRate: expected a probability in [0, 1], got nan"_s);
        api->setFailureRate(std::nan(""));
        QCOMPARE(api->failureRate(), 0.25);

        api->failNext(3, 502);
        expectWarning(u"FakeRestApi::failNext: expected count >= 0 and an error status"_s);
        api->failNext(1, 200);
        expectWarning(u"FakeRestApi::failNext: expected count >= 0 and an error status"_s);
        api->failNext(-1);
        QCOMPARE(api->pendingFailures(), 3);
    }

    void signalsReportServedRequestsAndChanges()
    {
        QSignalSpy served(api.get(), &FakeRestApi::requestServed);
        QSignalSpy changed(api.get(), &FakeRestApi::collectionChanged);
        QCOMPARE(call("GET", u"/todos/1"_s).status, 200);
        QCOMPARE(call("PATCH", u"/todos/9"_s, "{}").status, 404);
        QCOMPARE(changed.size(), 0);
        QCOMPARE(call("PATCH", u"/todos/1"_s, toJson({{u"title"_s, u"z"_s}})).status, 200);
        QCOMPARE(served.size(), 3);
        QCOMPARE(served.at(1), (QVariantList {"PATCH"_ba, u"/todos/9"_s, 404}));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.takeFirst(), QVariantList {u"/todos"_s});

        QVERIFY(api->setItem(u"/todos"_s, QJsonObject {{u"id"_s, 3}}));
        QVERIFY(api->removeItem(u"/todos"_s, 3));
        QVERIFY(!api->removeItem(u"/todos"_s, 3));
        QCOMPARE(changed.size(), 2);
    }

    void directAccessReadsAndWritesTheStore()
    {
        QVERIFY(api->hasCollection(u"/todos"_s));
        QVERIFY(api->hasCollection(u"/todos/"_s));
        QVERIFY(!api->hasCollection(u"/users"_s));
        QCOMPARE(api->collection(u"/todos"_s), seed());
        QVERIFY(api->collection(u"/users"_s).isEmpty());
        QCOMPARE(api->item(u"/todos"_s, u"2"_s), seed().at(1).toObject());
        QVERIFY(api->item(u"/todos"_s, 5).isEmpty());

        const QJsonObject replaced {{u"id"_s, 2}, {u"title"_s, u"B"_s}};
        QVERIFY(api->setItem(u"/todos"_s, replaced));
        QCOMPARE(call("GET", u"/todos/2"_s).object(), replaced);

        // The id counter follows the largest integer id the store has seen.
        QVERIFY(api->setCollection(u"/todos"_s, {QJsonObject {{u"id"_s, 50}}}));
        QCOMPARE(idsOf(call("GET", u"/todos"_s).array()), QList<int> {50});
        QCOMPARE(call("POST", u"/todos"_s, "{}").object().value(u"id"_s).toInt(), 51);
    }

    void malformedSetupWarnsAndChangesNothing_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonArray>("items");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<QString>("warning");
        const QJsonArray ok = seed();
        QTest::newRow("no slash") << u"users"_s << ok << 20
                                  << u"addCollection(users): the path must start with '/'"_s;
        QTest::newRow("served") << u"/todos/"_s << ok << 20
                                << u"addCollection(/todos/): that path is already served"_s;
        QTest::newRow("item route")
            << u"/todos/:slug"_s << ok << 20 << u"that path is already served"_s;
        QTest::newRow("wildcard") << u"/a/*"_s << ok << 20 << u"'*' and '?' are not supported"_s;
        QTest::newRow("twice") << u"/a/:x/b/:x"_s << ok << 20 << u"parameter :x appears twice"_s;
        QTest::newRow("not an object") << u"/users"_s << QJsonArray {QJsonObject {{u"id"_s, 1}}, 5}
                                       << 20 << u"item [1] is not a JSON object"_s;
        QTest::newRow("no id") << u"/users"_s << QJsonArray {QJsonObject {{u"name"_s, u"x"_s}}}
                               << 20 << u"item [0] has no 'id' field"_s;
        QTest::newRow("repeated id")
            << u"/users"_s
            << QJsonArray {QJsonObject {{u"id"_s, 1}}, QJsonObject {{u"id"_s, u"1"_s}}} << 20
            << u"item [1] repeats id '1'"_s;
        QTest::newRow("page size")
            << u"/users"_s << ok << 0 << u"options.pageSize must be at least 1, got 0"_s;
    }
    void malformedSetupWarnsAndChangesNothing()
    {
        QFETCH(QString, path);
        QFETCH(QJsonArray, items);
        QFETCH(int, pageSize);
        QFETCH(QString, warning);
        FakeRestApi::Options options;
        options.pageSize = pageSize;
        expectWarning(warning);
        QVERIFY(!api->addCollection(path, items, options));
        QVERIFY(!api->hasCollection(path) || path == u"/todos/"_s);
        QCOMPARE(api->collection(u"/todos"_s), seed());
        QCOMPARE(call("GET", u"/todos/1"_s).status, 200);
    }

    void malformedDirectAccessWarnsAndChangesNothing()
    {
        expectWarning(u"FakeRestApi::mount(/users/:userId/todos): there is no collection /tasks"_s);
        QVERIFY(!api->mount(u"/users/:userId/todos"_s, u"/tasks"_s));
        QCOMPARE(call("GET", u"/users/1/todos"_s).status, 404); // TestServer: no route

        expectWarning(u"FakeRestApi::setItem(/todos): the item has no 'id' field"_s);
        QVERIFY(!api->setItem(u"/todos"_s, QJsonObject {{u"title"_s, u"x"_s}}));
        expectWarning(u"FakeRestApi::setItem(/tasks): there is no such collection"_s);
        QVERIFY(!api->setItem(u"/tasks"_s, QJsonObject {{u"id"_s, 1}}));
        expectWarning(u"FakeRestApi::setCollection(/todos): item [0] is not a JSON object"_s);
        QVERIFY(!api->setCollection(u"/todos"_s, {u"x"_s}));
        QCOMPARE(api->collection(u"/todos"_s), seed());
    }

    void destroyedApiAnswers503()
    {
        api.reset();
        const HttpAnswer answer = call("GET", u"/todos"_s);
        QCOMPARE(answer.status, 503);
        QVERIFY2(answer.error().contains(u"was destroyed"_s), qPrintable(answer.error()));
    }

    void apiWithoutServerStillStoresData()
    {
        expectWarning(u"FakeRestApi: constructed without a TestServer"_s);
        FakeRestApi detached(nullptr);
        QVERIFY(detached.addCollection(u"/todos"_s, seed()));
        QCOMPARE(detached.collection(u"/todos"_s), seed());
        QCOMPARE(detached.server(), nullptr);
    }
};

QTEST_GUILESS_MAIN(tst_FakeRestApiFaults)
#include "tst_fakerestapi_faults.moc"
