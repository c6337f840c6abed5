// Garbage collection and the memory budget (docs/memory.md), against the in-process FakeRestApi
// and in virtual time: what nothing references goes exactly at the end of its grace period,
// what is shown (watched, polled, a model, a pending mutation's layer) never goes, over the
// budget the least recently used goes first, and a dropped key is fetched again when asked for.
#include "controllerfixture.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/testing/virtualclock.h>

#include <QSignalSpy>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_GarbageCollection : public BackendTest
{
    Q_OBJECT

public:
    tst_GarbageCollection() : BackendTest(true) { }

private:
    static constexpr qint64 Grace = 300000; // the default: five minutes

    std::unique_ptr<VirtualClock> clock;

    void setUp() override
    {
        clock = std::make_unique<VirtualClock>();
        clock->install(controller.get());
    }
    bool load(const EndpointPtr &endpoint, const Params &params = {})
    {
        return await(controller->fetch(endpoint, params)).value.has_value();
    }
    // The store is read directly: getResponse() is a use of the key (it would renew it).
    bool stored(const EndpointPtr &endpoint, const Params &params = {}) const
    {
        return controller->store().hasResult(endpoint->key(params));
    }
    qsizetype todoCount() const { return controller->store().entityCount(u"Todo"_s); }

private Q_SLOTS:
    void unreferencedDataGoesAtTheEndOfItsGracePeriod()
    {
        QCOMPARE(controller->gcGracePeriodMs(), Grace);
        QVERIFY(controller->isGcEnabled());
        QVERIFY(load(todos.getList));
        QCOMPARE(todoCount(), 5);
        // The pass waits in the Controller's scheduler, due one grace period after the write.
        QCOMPARE(controller->nextTimerDue(), clock->now() + Grace);

        ChangeRecorder changes(controller.get());
        clock->advance(Grace - 1);
        QCOMPARE(todoCount(), 5);
        QVERIFY(stored(todos.getList));
        QVERIFY(changes.sets.isEmpty());

        clock->advance(1);
        QCOMPARE(controller->store().entityCount(), 0);
        QVERIFY(controller->store().resultKeys().isEmpty());
        QCOMPARE(changes.sets.size(), 1); // one changed() with everything that went
        QVERIFY(changes.sets.at(0).results.contains(todos.getList->key({})));
        QVERIFY(changes.sets.at(0).entities.contains(todoRef(3)));
        QVERIFY(changes.sets.at(0).entities.contains(todoListRef()));
        QCOMPARE(controller->nextTimerDue(), -1); // nothing left to wait for
    }

    void shownDataIsNeverDropped_data()
    {
        QTest::addColumn<QString>("viewer");
        QTest::newRow("watch") << u"watch"_s;
        QTest::newRow("poll subscription") << u"subscribe"_s;
        QTest::newRow("model") << u"model"_s;
    }
    void shownDataIsNeverDropped()
    {
        QFETCH(QString, viewer);
        // Polled once an hour: no refetch renews the data during the test.
        const EndpointPtr list = backend->resource(false, 3600000).getList;
        std::unique_ptr<CollectionModel> model;
        if (viewer == u"model"_s) {
            model = std::make_unique<CollectionModel>(controller.get(), list);
            QTRY_COMPARE(model->rowCount(), 5);
        } else {
            QVERIFY(load(list));
            QVERIFY(viewer == u"watch"_s ? controller->watch(list) : controller->subscribe(list));
        }

        clock->advance(3 * Grace);
        QCOMPARE(controller->collectGarbage(), 0);
        QVERIFY(stored(list));
        QCOMPARE(todoCount(), 5);
        if (model)
            QCOMPARE(model->rowCount(), 5);

        // Let go: it stays one more grace period from then, then goes.
        if (model)
            model.reset();
        else if (viewer == u"watch"_s)
            QVERIFY(controller->unwatch(list));
        else
            QVERIFY(controller->unsubscribe(list));
        clock->advance(Grace - 1);
        QCOMPARE(todoCount(), 5);
        clock->advance(1);
        QCOMPARE(todoCount(), 0);
        QVERIFY(!stored(list));
    }

    void anEntityShownFromTheEntityTableStays()
    {
        // todo 2 is shown by a get that never had a result of its own: it is read from the
        // entity table, where the list put it.
        QVERIFY(load(todos.getList));
        QVERIFY(controller->watch(todos.get, {{u"id"_s, 2}}));
        QVERIFY(!stored(todos.get, {{u"id"_s, 2}}));
        clock->advance(Grace);
        QVERIFY(!stored(todos.getList));
        QCOMPARE(todoCount(), 1);
        QVERIFY(controller->getResponse(todos.get, {{u"id"_s, 2}}).found);
        QCOMPARE(controller->nextTimerDue(), -1); // everything left is shown

        QVERIFY(controller->unwatch(todos.get, {{u"id"_s, 2}}));
        QCOMPARE(controller->nextTimerDue(), clock->now() + Grace);
        clock->advance(Grace);
        QCOMPARE(todoCount(), 0);
    }

    void aPendingMutationKeepsWhatItShows()
    {
        DeferredReplies replies;
        replies.install(backend->server, "PATCH", u"/todos/1"_s);
        QVERIFY(load(todos.getList));
        QFuture<QVariant> pending = controller->fetch(todos.partialUpdate, {{u"id"_s, 1}},
                                                      QJsonObject {{u"title"_s, u"pending"_s}});
        QVERIFY(replies.waitFor(1));

        clock->advance(Grace);
        QVERIFY(!stored(todos.getList));
        QCOMPARE(todoCount(), 1); // its committed record stays under the layer (for a rollback)
        QCOMPARE(field(controller->get(todoSchema(), {{u"id"_s, 1}}).data).value(u"title"_s),
                 u"pending"_s);

        replies.pending.at(0).responder.send(ServerResponse::json(todo(1, 1, u"saved"_s), 200));
        QVERIFY(await(pending).value);
        QCOMPARE(field(controller->get(todoSchema(), {{u"id"_s, 1}}).data).value(u"title"_s),
                 u"saved"_s);
        clock->advance(Grace); // confirmed and shown by nothing: it goes too
        QCOMPARE(todoCount(), 0);
        QVERIFY(controller->store().resultKeys().isEmpty());
    }

    void overTheBudgetTheLeastRecentlyUsedGoesFirst()
    {
        for (int id = 1; id <= 3; ++id) {
            QVERIFY(load(todos.get, {{u"id"_s, id}}));
            clock->advance(1000);
        }
        // Read todo 1 again: now todo 2 is the least recently used, then 3, then 1.
        QVERIFY(controller->getResponse(todos.get, {{u"id"_s, 1}}).found);
        const qint64 full = controller->store().memoryUsage();
        QSignalSpy budgetChanged(controller.get(), &Controller::memoryBudgetBytesChanged);
        controller->setMemoryBudgetBytes(full - 1);
        QCOMPARE(budgetChanged.size(), 1);
        QCOMPARE(controller->nextTimerDue(), clock->now()); // checked at once, not after grace
        clock->advance(0);
        QVERIFY(!stored(todos.get, {{u"id"_s, 2}}));
        QVERIFY(!controller->store().entity(todoRef(2)));
        QVERIFY(stored(todos.get, {{u"id"_s, 1}}));
        QVERIFY(stored(todos.get, {{u"id"_s, 3}}));
        QCOMPARE(todoCount(), 2);
        QVERIFY(controller->store().memoryUsage() < full);

        // A budget only what is shown could meet: everything else goes, what is shown stays.
        QVERIFY(controller->watch(todos.get, {{u"id"_s, 3}}));
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"over its memory budget of 1: what is shown"_s));
        controller->setMemoryBudgetBytes(1);
        clock->advance(0);
        QVERIFY(!stored(todos.get, {{u"id"_s, 1}}));
        QVERIFY(stored(todos.get, {{u"id"_s, 3}}));
        QCOMPARE(todoCount(), 1);
    }

    void collectGarbageRunsAPassNow()
    {
        QVERIFY(load(todos.getList));
        QCOMPARE(controller->collectGarbage(), 0); // within the grace period: nothing goes
        QCOMPARE(todoCount(), 5);
        QSignalSpy graceChanged(controller.get(), &Controller::gcGracePeriodMsChanged);
        controller->setGcGracePeriodMs(0);
        QCOMPARE(graceChanged.size(), 1);
        QCOMPARE(controller->collectGarbage(), 7); // the result, its list, five todos
        QCOMPARE(controller->store().entityCount(), 0);
        QCOMPARE(controller->collectGarbage(), 0);
    }

    void garbageCollectionCanBeTurnedOff()
    {
        QSignalSpy enabledChanged(controller.get(), &Controller::gcEnabledChanged);
        controller->setGcEnabled(false);
        QCOMPARE(enabledChanged.size(), 1);
        QVERIFY(load(todos.getList));
        QCOMPARE(controller->nextTimerDue(), -1);
        clock->advance(3 * Grace);
        QCOMPARE(controller->collectGarbage(), 0);
        QCOMPARE(todoCount(), 5);

        controller->setGcEnabled(true);
        QCOMPARE(controller->nextTimerDue(), clock->now() + Grace);
        clock->advance(Grace);
        QCOMPARE(todoCount(), 0);
    }

    void aDroppedKeyIsFetchedAgainWhenAskedFor()
    {
        QVERIFY(load(todos.getList));
        clock->advance(Grace);
        QVERIFY(!stored(todos.getList));
        const ResponseState state = controller->getResponse(todos.getList);
        QVERIFY(!state.found);
        QCOMPARE(state.status, ExpiryStatus::Invalid);
        QVERIFY(await(controller->fetchIfStale(todos.getList)).value);
        QCOMPARE(backend->server.requests("GET", u"/todos"_s).size(), 2);
        QCOMPARE(ids(controller->getResponse(todos.getList).data), (QList<int> {1, 2, 3, 4, 5}));
        QCOMPARE(todoCount(), 5);
    }

    void badSettingsAreRefusedAndChangeNothing_data()
    {
        QTest::addColumn<QByteArray>("property");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("warning");
        QTest::newRow("negative grace period")
            << QByteArray("gcGracePeriodMs") << qint64(-1)
            << u"setGcGracePeriodMs: -1 is not a grace period: expected 0 or more milliseconds "
               "\\(gcEnabled = false turns garbage collection off\\); it stays 300000 ms"_s;
        QTest::newRow("most negative grace period")
            << QByteArray("gcGracePeriodMs") << std::numeric_limits<qint64>::min()
            << u"setGcGracePeriodMs: -9223372036854775808 is not a grace period"_s;
        QTest::newRow("negative budget")
            << QByteArray("memoryBudgetBytes") << qint64(-4096)
            << u"setMemoryBudgetBytes: -4096 is not a memory budget: expected bytes > 0, or 0 "
               "for none; it stays 0"_s;
    }
    void badSettingsAreRefusedAndChangeNothing()
    {
        QFETCH(QByteArray, property);
        QFETCH(qint64, value);
        QFETCH(QString, warning);
        QVERIFY(load(todos.getList));
        const qint64 due = controller->nextTimerDue();
        const QStringList keys = controller->store().resultKeys();
        QSignalSpy graceChanged(controller.get(), &Controller::gcGracePeriodMsChanged);
        QSignalSpy budgetChanged(controller.get(), &Controller::memoryBudgetBytesChanged);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(warning));
        // Through the property system, as QML writes it (Controller.controller.gcGracePeriodMs).
        QVERIFY(controller->setProperty(property.constData(), QVariant::fromValue(value)));
        QCOMPARE(controller->gcGracePeriodMs(), Grace);
        QCOMPARE(controller->memoryBudgetBytes(), 0);
        QVERIFY(graceChanged.isEmpty() && budgetChanged.isEmpty());
        QCOMPARE(controller->nextTimerDue(), due);
        QCOMPARE(controller->store().resultKeys(), keys);
        QCOMPARE(todoCount(), 5);
        clock->advance(Grace); // and collection goes on as before
        QCOMPARE(todoCount(), 0);
    }

    void aHugeGracePeriodDoesNotOverflow()
    {
        controller->setGcGracePeriodMs(std::numeric_limits<qint64>::max());
        QVERIFY(load(todos.getList));
        QCOMPARE(controller->nextTimerDue(), std::numeric_limits<qint64>::max());
        clock->advance(24 * 3600 * 1000);
        QCOMPARE(controller->collectGarbage(), 0);
        QCOMPARE(todoCount(), 5);
    }
};

QTEST_MAIN(tst_GarbageCollection)
#include "tst_garbagecollection.moc"
