// The Controller's scheduler alone: due order, cancel, contexts that die, the one
// QTimer under the system clock, and polling paused and resumed — all under a manual clock
// except the timer test, which waits for a signal only.
#include "pollsubscriptions_p.h"
#include "scheduler_p.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QDateTime>

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace DataClient::detail;
using namespace Qt::StringLiterals;

class tst_Scheduler : public QObject
{
    Q_OBJECT

    qint64 m_now = 1000;

    std::unique_ptr<Scheduler> manualScheduler()
    {
        auto scheduler = std::make_unique<Scheduler>([this] { return m_now; });
        scheduler->setTimerDriven(false);
        return scheduler;
    }

private Q_SLOTS:
    void init() { m_now = 1000; }

    void runsInDueOrderThenSchedulingOrder()
    {
        auto scheduler = manualScheduler();
        QStringList ran;
        scheduler->scheduleIn(30, nullptr, [&] { ran << u"c"_s; });
        scheduler->scheduleIn(10, nullptr, [&] { ran << u"a"_s; });
        scheduler->scheduleIn(10, nullptr, [&] { ran << u"b"_s; });
        QCOMPARE(scheduler->nextDue(), 1010);
        QCOMPARE(scheduler->runDue(), 0); // nothing is due yet
        m_now = 1010;
        QCOMPARE(scheduler->runDue(), 2);
        QCOMPARE(ran, (QStringList {u"a"_s, u"b"_s}));
        m_now = 5000;
        QCOMPARE(scheduler->runDue(), 1);
        QCOMPARE(ran.last(), u"c"_s);
        QCOMPARE(scheduler->nextDue(), -1);
    }

    void cancelDropsAnEntryOnce()
    {
        auto scheduler = manualScheduler();
        int ran = 0;
        const quint64 id = scheduler->scheduleIn(5, nullptr, [&] { ++ran; });
        QVERIFY(id != 0);
        QVERIFY(scheduler->isScheduled(id));
        QCOMPARE(scheduler->dueOf(id), 1005);
        QVERIFY(scheduler->cancel(id));
        QVERIFY(!scheduler->cancel(id));
        QVERIFY(!scheduler->cancel(0));
        m_now = 2000;
        QCOMPARE(scheduler->runDue(), 0);
        QCOMPARE(ran, 0);
    }

    void aDeadContextCancelsItsEntries()
    {
        auto scheduler = manualScheduler();
        int ran = 0;
        auto *context = new QObject;
        scheduler->scheduleIn(5, context, [&] { ++ran; });
        scheduler->scheduleIn(6, context, [&] { ++ran; });
        QCOMPARE(scheduler->size(), 2);
        delete context;
        QCOMPARE(scheduler->size(), 0);
        m_now = 2000;
        QCOMPARE(scheduler->runDue(), 0);
        QCOMPARE(ran, 0);
    }

    void aTaskMayCancelOrAddEntries()
    {
        auto scheduler = manualScheduler();
        QStringList ran;
        quint64 second = 0;
        scheduler->scheduleIn(1, nullptr, [&] {
            ran << u"first"_s;
            scheduler->cancel(second);
            // Due at once, but it waits for the next run: a task cannot make a run spin.
            scheduler->scheduleIn(0, nullptr, [&] { ran << u"added"_s; });
        });
        second = scheduler->scheduleIn(2, nullptr, [&] { ran << u"second"_s; });
        m_now = 1010;
        QCOMPARE(scheduler->runDue(), 1);
        QCOMPARE(ran, QStringList {u"first"_s});
        QCOMPARE(scheduler->runDue(), 1);
        QCOMPARE(ran, (QStringList {u"first"_s, u"added"_s}));
    }

    void theSystemClockRunsOneTimer()
    {
        Scheduler scheduler([] { return QDateTime::currentMSecsSinceEpoch(); });
        QVERIFY(scheduler.isTimerDriven());
        QSignalSpy ran(this, &QObject::objectNameChanged);
        scheduler.scheduleIn(30, this, [this] { setObjectName(u"late"_s); });
        scheduler.scheduleIn(5, this, [this] { setObjectName(u"early"_s); });
        QVERIFY(ran.wait(5000));
        QCOMPARE(objectName(), u"early"_s);
        QVERIFY(ran.wait(5000));
        QCOMPARE(objectName(), u"late"_s);
        QCOMPARE(scheduler.size(), 0);
    }

    void pollingWaitsThroughTheScheduler()
    {
        auto scheduler = manualScheduler();
        const EndpointPtr endpoint = RestEndpoint::create({.name = u"e"_s, .path = u"/x"_s});
        int polls = 0;
        PollSubscriptions subscriptions(scheduler.get(),
                                        [&](const EndpointPtr &, const Params &) { ++polls; });
        subscriptions.subscribe(u"k"_s, endpoint, {}, 100);
        QCOMPARE(scheduler->nextDue(), 1100);
        m_now = 1100;
        scheduler->runDue();
        QCOMPARE(polls, 1);
        QCOMPARE(scheduler->nextDue(), 1200); // the next poll, one interval later

        // Paused (offline, suspended): nothing is due; resuming waits one interval from then.
        subscriptions.setPaused(true);
        QCOMPARE(scheduler->nextDue(), -1);
        QCOMPARE(subscriptions.interval(u"k"_s), 100);
        m_now = 5000;
        QCOMPARE(scheduler->runDue(), 0);
        subscriptions.setPaused(false);
        QCOMPARE(scheduler->nextDue(), 5100);
        QVERIFY(subscriptions.unsubscribe(u"k"_s, endpoint.get()));
        QCOMPARE(scheduler->nextDue(), -1);
        QCOMPARE(polls, 1);
    }
};

QTEST_GUILESS_MAIN(tst_Scheduler)
#include "tst_scheduler.moc"
