// The Controller's private building blocks, without a store or a network: the expiry policy,
// the per-key fetch states, the optimistic layer bookkeeping and the poll subscription table.
// (Their .cpp files are compiled into this test; see tests.cmake.)
#include "expirypolicy_p.h"
#include "fetchstates_p.h"
#include "optimisticlayers_p.h"
#include "pollsubscriptions_p.h"
#include "scheduler_p.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QDateTime>

#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::detail;
using namespace Qt::StringLiterals;

class tst_ControllerUnits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void expiryLengthsDefault()
    {
        QCOMPARE(ExpiryPolicy::dataExpiryLength(0), 60000);
        QCOMPARE(ExpiryPolicy::dataExpiryLength(-5), 60000);
        QCOMPARE(ExpiryPolicy::dataExpiryLength(250), 250);
        QCOMPARE(ExpiryPolicy::errorExpiryLength(0), 1000);
        QCOMPARE(ExpiryPolicy::errorExpiryLength(20), 20);
        QVERIFY(ExpiryPolicy::isSoftError(500));
        QVERIFY(ExpiryPolicy::isSoftError(503));
        QVERIFY(!ExpiryPolicy::isSoftError(404));
        QVERIFY(!ExpiryPolicy::isSoftError(0));
    }

    void expiryStatus_data()
    {
        QTest::addColumn<bool>("found");
        QTest::addColumn<bool>("invalidated");
        QTest::addColumn<bool>("hasError");
        QTest::addColumn<qint64>("expiresAt");
        QTest::addColumn<ExpiryStatus>("expected");
        const qint64 now = 1000;
        QTest::newRow("nothing") << false << false << false << now + 10 << ExpiryStatus::Invalid;
        QTest::newRow("fresh data") << true << false << false << now + 1 << ExpiryStatus::Valid;
        QTest::newRow("expires now") << true << false << false << now << ExpiryStatus::Stale;
        QTest::newRow("expired") << true << false << false << now - 1 << ExpiryStatus::Stale;
        QTest::newRow("expireAll") << true << false << false << qint64(0) << ExpiryStatus::Stale;
        QTest::newRow("invalidated") << true << true << false << now + 10 << ExpiryStatus::Invalid;
        QTest::newRow("fresh error") << false << false << true << now + 10 << ExpiryStatus::Valid;
        QTest::newRow("old error") << false << false << true << now << ExpiryStatus::Stale;
    }
    void expiryStatus()
    {
        QFETCH(bool, found);
        QFETCH(bool, invalidated);
        QFETCH(bool, hasError);
        QFETCH(qint64, expiresAt);
        QFETCH(ExpiryStatus, expected);
        QCOMPARE(ExpiryPolicy::status(found, invalidated, hasError, expiresAt, 1000), expected);
    }

    void fetchStatesCountLoading()
    {
        FetchStates states;
        QVERIFY(states.startLoading(u"k"_s));
        QVERIFY(!states.startLoading(u"k"_s)); // already loading
        QCOMPARE(states.loading(u"k"_s), 2);
        QVERIFY(!states.finishLoading(u"k"_s));
        QVERIFY(states.finishLoading(u"k"_s));
        QVERIFY(!states.finishLoading(u"k"_s)); // never below zero
        QVERIFY(states.keys().isEmpty()); // idle keys are dropped
    }

    void fetchStatesErrorsAndTheRaceRule()
    {
        FetchStates states;
        const NetworkError error(NetworkError::Kind::Http, 404, u"gone"_s);
        states.setError(u"k"_s, error, /*date*/ 20, /*expiresAt*/ 1020);
        QCOMPARE(states.find(u"k"_s)->error->status(), 404);
        // An answer to a request that started before the failed one does not clear it.
        QVERIFY(!states.settle(u"k"_s, 10));
        QVERIFY(states.find(u"k"_s)->error);
        QVERIFY(states.settle(u"k"_s, 30));
        QVERIFY(!states.find(u"k"_s));

        states.setError(u"k"_s, error, 40, 1040);
        QVERIFY(states.expireError(u"k"_s));
        QCOMPARE(states.find(u"k"_s)->errorExpiresAt, 0);
        QVERIFY(!states.expireError(u"k"_s)); // already expired
        QVERIFY(states.invalidate(u"k"_s));
        QVERIFY(!states.find(u"k"_s)->error);
        QVERIFY(states.isInvalidated(u"k"_s));
        QVERIFY(!states.invalidate(u"k"_s)); // nothing more to change
        QVERIFY(states.settle(u"k"_s, 50)); // a response makes it valid again
        QVERIFY(!states.isInvalidated(u"k"_s));

        states.startLoading(u"a"_s);
        states.setError(u"b"_s, error, 1, 2);
        QStringList cleared = states.clear();
        cleared.sort();
        QCOMPARE(cleared, (QStringList {u"a"_s, u"b"_s}));
        QCOMPARE(states.loading(u"a"_s), 0);
    }

    void optimisticLayersAreOrderedAndSuperseded()
    {
        OptimisticLayers layers;
        const EntityRef five {u"Todo"_s, u"5"_s};
        const EntityRef six {u"Todo"_s, u"6"_s};
        const quint64 a = layers.allocate();
        const quint64 b = layers.allocate();
        const quint64 c = layers.allocate();
        QVERIFY(a > 0 && a < b && b < c);
        layers.record(a, 100, {five});
        layers.record(b, 200, {five, six});
        layers.record(c, 300, {six});

        // A commit of a request started at 250 touching 5: a and b are older and touch 5.
        QCOMPARE(layers.supersededBy(250, {five}), (QList<quint64> {a, b}));
        // Touching 6 at 250: only b (c is newer).
        QCOMPARE(layers.supersededBy(250, {six}), (QList<quint64> {b}));
        // Nothing older, or nothing touched: none.
        QVERIFY(layers.supersededBy(100, {five}).isEmpty());
        QVERIFY(layers.supersededBy(1000, {}).isEmpty());
        QVERIFY(layers.supersededBy(1000, {EntityRef {u"User"_s, u"5"_s}}).isEmpty());

        QVERIFY(layers.touches(five) && layers.touches(six));
        QVERIFY(!layers.touches(EntityRef {u"User"_s, u"5"_s}));

        layers.forget(a);
        QVERIFY(!layers.contains(a));
        QCOMPARE(layers.supersededBy(250, {five}), (QList<quint64> {b}));
        layers.forget(b);
        QVERIFY(!layers.touches(five)); // no layer waits on 5 any more
        QVERIFY(layers.touches(six));
        layers.clear();
        QCOMPARE(layers.size(), 0);
        QVERIFY(layers.allocate() > c); // ids never repeat
    }

    void pollSubscriptionsRunTheFastestSubscriber()
    {
        const EndpointPtr slow = RestEndpoint::create({.name = u"slow"_s, .path = u"/x"_s});
        const EndpointPtr fast = RestEndpoint::create({.name = u"fast"_s, .path = u"/x"_s});
        QList<QString> polled;
        Scheduler scheduler([] { return QDateTime::currentMSecsSinceEpoch(); });
        PollSubscriptions polls(&scheduler, [&](const EndpointPtr &endpoint, const Params &params) {
            polled.append(endpoint->name() + u':' + params.value(u"p"_s).toString());
        });
        polls.subscribe(u"k"_s, slow, {{u"p"_s, u"s"_s}}, 60000);
        QCOMPARE(polls.interval(u"k"_s), 60000);
        polls.subscribe(u"k"_s, fast, {{u"p"_s, u"f"_s}}, 10);
        QCOMPARE(polls.interval(u"k"_s), 10);
        QCOMPARE(polls.subscriberCount(u"k"_s), 2);
        QTRY_VERIFY(polled.size() >= 2);
        QCOMPARE(polled.constFirst(), u"fast:f"_s);

        QVERIFY(!polls.unsubscribe(u"other"_s, fast.get()));
        QVERIFY(polls.unsubscribe(u"k"_s, fast.get()));
        QCOMPARE(polls.interval(u"k"_s), 60000);
        QVERIFY(!polls.unsubscribe(u"k"_s, fast.get()));
        QVERIFY(polls.unsubscribe(u"k"_s, slow.get()));
        QCOMPARE(polls.interval(u"k"_s), 0);
        QVERIFY(polls.keys().isEmpty());
    }

    void aPollMayUnsubscribeItself()
    {
        const EndpointPtr endpoint = RestEndpoint::create({.name = u"e"_s, .path = u"/x"_s});
        int polls = 0;
        PollSubscriptions *table = nullptr;
        Scheduler scheduler([] { return QDateTime::currentMSecsSinceEpoch(); });
        PollSubscriptions subscriptions(&scheduler, [&](const EndpointPtr &e, const Params &) {
            ++polls;
            table->unsubscribe(u"k"_s, e.get()); // the callback changes the table
        });
        table = &subscriptions;
        subscriptions.subscribe(u"k"_s, endpoint, {}, 5);
        QTRY_COMPARE(polls, 1);
        QCOMPARE(subscriptions.interval(u"k"_s), 0);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerUnits)
#include "tst_controller_units.moc"
