// Refetch after the system slept (src/controller/resumerefetch.cpp), in virtual time: waking
// refetches the stale keys something shows (not fresh ones, not endpoints that opt out of
// refetching on activation), once, and nothing while offline.
#include "virtualtimefixture.h"

#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace DataClient::detail {
// The manager's check found that the system slept for \a ms (its clocks cannot be moved here).
void simulateSystemResume(Controller *controller, qint64 ms);
} // namespace DataClient::detail

class tst_ResumeRefetch : public VirtualTimeTest
{
    Q_OBJECT

    //! /items/<id> stored and shown; stale unless \a fresh.
    void showItem(const EndpointPtr &items, int id, bool fresh)
    {
        const Params params {{u"id"_s, id}};
        controller->setResponse(items, params, QJsonObject {{u"id"_s, id}});
        controller->watch(items, params);
        if (!fresh) {
            const QString key = items->key(params);
            controller->expireAll([key](const QString &candidate) { return candidate == key; });
        }
    }

private Q_SLOTS:
    void wakingRefetchesTheStaleShownKeysOnce()
    {
        const EndpointPtr items = endpoint();
        showItem(items, 1, false);
        showItem(items, 2, true);
        DataClient::detail::simulateSystemResume(controller.get(), 8 * 3600 * 1000);
        QVERIFY(waitForRequests(1));
        QVERIFY(receivedExactly(1));
        QCOMPARE(requestsFor(1), 1);
        // Answered and fresh again: a second wake asks nothing.
        QTRY_VERIFY(!controller->isLoading(items, {{u"id"_s, 1}}));
        DataClient::detail::simulateSystemResume(controller.get(), 60000);
        QVERIFY(receivedExactly(1));
    }

    void anEndpointThatOptsOutOfActivationIsNotRefetched()
    {
        const EndpointPtr items = endpoint("GET", std::nullopt, 0, false);
        showItem(items, 1, false);
        DataClient::detail::simulateSystemResume(controller.get(), 3600 * 1000);
        QVERIFY(receivedExactly(0));
    }

    void offlineNothingIsSentUntilTheNetworkReturns()
    {
        const EndpointPtr items = endpoint();
        showItem(items, 1, false);
        connectivity->setOnline(false);
        DataClient::detail::simulateSystemResume(controller.get(), 3600 * 1000);
        QVERIFY(receivedExactly(0));
        connectivity->setOnline(true); // the reconnect refetches it, once
        QVERIFY(waitForRequests(1));
        QVERIFY(receivedExactly(1));
    }
};

QTEST_GUILESS_MAIN(tst_ResumeRefetch)
#include "tst_resumerefetch.moc"
