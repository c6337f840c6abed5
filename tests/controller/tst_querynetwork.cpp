// A query (CollectionModel, the base of Suspense and Live) on a real network: it shows
// `paused`, `retrying` and `attempt` with notifications, keeps its rows meanwhile, is refetched
// on reconnect because it shows its key, and a query destroyed during backoff sends nothing more.
#include "virtualtimefixture.h"

#include <DataClient/collectionmodel.h>

#include <QSignalSpy>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_QueryNetwork : public VirtualTimeTest
{
    Q_OBJECT

private Q_SLOTS:
    void aQueryShowsRetryingAndKeepsItsRows()
    {
        const EndpointPtr items = endpoint();
        controller->setResponse(items, {}, QJsonArray {1, 2});
        controller->expireAll([](const QString &) { return true; });
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {1, 2, 3})};
        CollectionModel model(controller.get(), items); // stale: it refetches
        QSignalSpy retrying(&model, &CollectionModel::retryingChanged);
        QSignalSpy attempt(&model, &CollectionModel::attemptChanged);
        QVERIFY(retrying.wait(5000));
        QVERIFY(model.isRetrying());
        QCOMPARE(model.attempt(), 2);
        QCOMPARE(model.rowCount(), 2); // the data shown stays
        QCOMPARE(model.status(), CollectionModel::Ready);
        clock->advance(500);
        QTRY_COMPARE(model.rowCount(), 3);
        QVERIFY(!model.isRetrying());
        QCOMPARE(model.attempt(), 0);
        QVERIFY(attempt.size() >= 2);
    }

    void aQueryShowsPausedOfflineAndRefetchesOnReconnect()
    {
        const EndpointPtr items = endpoint();
        controller->setResponse(items, {}, QJsonArray {1});
        CollectionModel model(controller.get(), items); // fresh: no request
        QSignalSpy paused(&model, &CollectionModel::pausedChanged);
        connectivity->setOnline(false);
        clock->advance(61000); // the data went stale offline
        controller->expireAll([](const QString &) { return true; }); // views re-read
        QVERIFY(model.isPaused());
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(receivedExactly(0));
        connectivity->setOnline(true);
        QTRY_COMPARE(model.rowCount(), 2);
        QVERIFY(!model.isPaused());
        QCOMPARE(paused.size(), 2);
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
    }

    void aStaleKeyShownByAQueryIsRefetchedOnReconnect()
    {
        const EndpointPtr items = endpoint();
        controller->setResponse(items, {}, QJsonArray {1});
        CollectionModel model(controller.get(), items);
        connectivity->setOnline(false);
        clock->advance(61000); // stale, but nobody re-read: the reconnect finds it
        connectivity->setOnline(true);
        QTRY_COMPARE(model.rowCount(), 2);
        QCOMPARE(server->requests("GET", u"/items"_s).size(), 1);
    }

    void aQueryDestroyedDuringBackoffSendsNothingMore()
    {
        script = {ServerResponse::json({}, 503), ServerResponse::json(QJsonArray {1})};
        const EndpointPtr items = endpoint();
        auto model = std::make_unique<CollectionModel>(controller.get(), items);
        QSignalSpy retrying(model.get(), &CollectionModel::retryingChanged);
        QVERIFY(retrying.wait(5000));
        model.reset();
        QTRY_VERIFY(!controller->isLoading(items));
        clock->advance(60000);
        QVERIFY(receivedExactly(1));
        // No retry waits; only the garbage-collection pass for the sentinel's stored answer.
        QCOMPARE(controller->nextTimerDue(), clock->now() + controller->gcGracePeriodMs());
    }
};

QTEST_GUILESS_MAIN(tst_QueryNetwork)
#include "tst_querynetwork.moc"
