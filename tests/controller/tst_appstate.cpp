// Refetch triggers on the application state, in virtual time: becoming active after
// at least refetchOnActivateAfter() ms inactive refetches the stale keys something shows (not
// fresh ones, not endpoints that opt out); Suspended and Hidden pause polling.
#include "virtualtimefixture.h"

#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_AppState : public VirtualTimeTest
{
    Q_OBJECT

    //! /items/1 stored, shown, and stale.
    void showStaleItem(const EndpointPtr &items)
    {
        const Params params {{u"id"_s, 1}};
        controller->setResponse(items, params, QJsonObject {{u"id"_s, 1}});
        controller->watch(items, params);
        controller->expireAll([](const QString &) { return true; });
    }

private Q_SLOTS:
    void activeAfterALongAbsenceRefetchesStaleShownKeys()
    {
        QCOMPARE(controller->refetchOnActivateAfter(), 30000);
        QCOMPARE(controller->applicationState(), Qt::ApplicationActive);
        const EndpointPtr items = endpoint();
        showStaleItem(items);
        // Fresh and shown: stays.
        controller->setResponse(items, {{u"id"_s, 2}}, QJsonObject {{u"id"_s, 2}});
        controller->watch(items, {{u"id"_s, 2}});

        controller->setApplicationState(Qt::ApplicationInactive);
        clock->advance(30000);
        controller->setApplicationState(Qt::ApplicationActive);
        QVERIFY(waitForRequests(1));
        QVERIFY(receivedExactly(1));
        QCOMPARE(requestsFor(1), 1);
    }

    void aShortAbsenceRefetchesNothing()
    {
        const EndpointPtr items = endpoint();
        showStaleItem(items);
        controller->setApplicationState(Qt::ApplicationInactive);
        clock->advance(29999);
        controller->setApplicationState(Qt::ApplicationActive);
        QVERIFY(receivedExactly(0));

        controller->setRefetchOnActivateAfter(0); // every activation refetches
        controller->setApplicationState(Qt::ApplicationInactive);
        controller->setApplicationState(Qt::ApplicationActive);
        QVERIFY(waitForRequests(1));
    }

    void anEndpointMayOptOut()
    {
        const EndpointPtr items = endpoint("GET", std::nullopt, 0, false);
        QVERIFY(!items->refetchOnActivate());
        showStaleItem(items);
        controller->setApplicationState(Qt::ApplicationSuspended);
        clock->advance(120000);
        controller->setApplicationState(Qt::ApplicationActive);
        QVERIFY(receivedExactly(0));
        // Reconnecting still refetches it: the opt-out is about activation only.
        connectivity->setOnline(false);
        connectivity->setOnline(true);
        QVERIFY(waitForRequests(1));
    }

    void suspendedOrHiddenPausesPolling_data()
    {
        QTest::addColumn<Qt::ApplicationState>("asleep");
        QTest::newRow("suspended") << Qt::ApplicationSuspended;
        QTest::newRow("hidden") << Qt::ApplicationHidden;
    }
    void suspendedOrHiddenPausesPolling()
    {
        QFETCH(Qt::ApplicationState, asleep);
        const EndpointPtr items = endpoint("GET", std::nullopt, 100);
        QVERIFY(controller->subscribe(items));
        controller->setApplicationState(Qt::ApplicationInactive);
        QCOMPARE(controller->nextTimerDue(), clock->now() + 100); // inactive still polls
        controller->setApplicationState(asleep);
        QCOMPARE(controller->nextTimerDue(), -1);
        clock->advance(5000);
        QVERIFY(receivedExactly(0));
        controller->setApplicationState(Qt::ApplicationActive);
        QVERIFY(controller->nextTimerDue() > 0);
    }
};

QTEST_GUILESS_MAIN(tst_AppState)
#include "tst_appstate.moc"
