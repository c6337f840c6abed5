// The signals a CollectionModel gives for optimistic creates without client ids: the
// placeholder row is one insertion at once, its confirmation one dataChanged (the same row, now
// the server's entity, `pending` false), its failure one removal; the `pending` role follows.
#include "modelsignals.h"
#include "placeholderbackend.h"

#include <DataClient/collectionmodel.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace PlaceholderFixture;

class tst_PlaceholderRows : public PlaceholderTest
{
    Q_OBJECT

private:
    std::unique_ptr<CollectionModel> model;
    std::unique_ptr<QAbstractItemModelTester> tester;

    //! A field of the row's record (the `entity` role).
    QVariant at(int row, const QString &field) const
    {
        return model->index(row).data(CollectionModel::EntityRole).toMap().value(field);
    }
    bool pending(int row) const
    {
        return model->index(row).data(model->roleNames().key("pending"_ba)).toBool();
    }
    QList<int> rolesOf(const QSignalSpy &changed, int emission) const
    {
        return changed.at(emission).at(2).value<QList<int>>();
    }

private Q_SLOTS:
    void init()
    {
        startBackend(true);
        model = std::make_unique<CollectionModel>(controller.get(), todos.getList,
                                                  Params {{u"userId"_s, 1}});
        tester = std::make_unique<QAbstractItemModelTester>(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(model->rowCount(), 3);
    }
    void cleanup()
    {
        tester.reset();
        model.reset();
        stopBackend();
    }

    void theRowAppearsAtOnceAndBecomesTheServersEntityInPlace()
    {
        QVERIFY(model->roleNames().values().contains("pending"_ba));
        QVERIFY(!pending(0));
        ModelSignals signals(model.get());
        QFuture<QVariant> created = controller->fetch(todos.getList.push, {}, newTodo(u"new"_s, 1));
        QCOMPARE(signals.inserted.size(), 1);
        QCOMPARE(signals.total(), 1);
        QCOMPARE(model->rowCount(), 4);
        QVERIFY(pending(3));
        QCOMPARE(at(3, u"title"_s), QVariant(u"new"_s));
        QVERIFY(isPlaceholderKey(at(3, u"id"_s).toString()));
        const QPersistentModelIndex kept = model->index(3);

        QVERIFY(backend->creates.waitFor(1));
        signals.clear();
        backend->create(0, 6);
        QVERIFY(await(created).value);
        QCOMPARE(signals.changed.size(), 1); // one dataChanged, no removal and insertion
        QCOMPARE(signals.total(), 1);
        QCOMPARE(signals.changed.at(0).at(0).toModelIndex().row(), 3);
        QVERIFY(rolesOf(signals.changed, 0).contains(CollectionModel::PendingRole));
        QVERIFY(rolesOf(signals.changed, 0).contains(model->roleNames().key("id"_ba)));
        QVERIFY(!pending(3));
        QCOMPARE(at(3, u"id"_s).toInt(), 6);
        QCOMPARE(kept.row(), 3); // delegates and persistent indexes stay with the row
        QCOMPARE(backend->api.collection(u"/todos"_s).size(), 6);
    }

    void twoCreatesAreTwoRowsEachConfirmedInPlace()
    {
        ModelSignals signals(model.get());
        QFuture<QVariant> first = controller->fetch(todos.getList.push, {}, newTodo(u"a"_s));
        QFuture<QVariant> second = controller->fetch(todos.getList.push, {}, newTodo(u"b"_s));
        QCOMPARE(signals.inserted.size(), 2);
        QCOMPARE(model->rowCount(), 5);
        QVERIFY(pending(3) && pending(4));
        QVERIFY(backend->creates.waitFor(2));
        signals.clear();
        backend->create(0, 6);
        QVERIFY(await(first).value);
        backend->create(1, 7);
        QVERIFY(await(second).value);
        QCOMPARE(signals.changed.size(), 2);
        QCOMPARE(signals.total(), 2);
        QCOMPARE(signals.changed.at(0).at(0).toModelIndex().row(), 3);
        QCOMPARE(signals.changed.at(1).at(0).toModelIndex().row(), 4);
        QCOMPARE(at(3, u"id"_s).toInt(), 6);
        QCOMPARE(at(4, u"id"_s).toInt(), 7);
        QVERIFY(!pending(3) && !pending(4));
    }

    void aFailedCreateIsOneRemoval()
    {
        QFuture<QVariant> created = controller->fetch(todos.getList.push, {}, newTodo(u"x"_s));
        QVERIFY(backend->creates.waitFor(1));
        ModelSignals signals(model.get());
        backend->answer(0, Testing::ServerResponse::json(QJsonObject {{u"error"_s, u"no"_s}}, 422));
        QVERIFY(await(created).error);
        QCOMPARE(signals.removed.size(), 1);
        QCOMPARE(signals.total(), 1);
        QCOMPARE(model->rowCount(), 3);
    }

    void aHeldEditShowsAtOnceAndIsConfirmedWithTheRow()
    {
        QFuture<QVariant> created = controller->fetch(todos.getList.push, {}, newTodo(u"x"_s));
        QVERIFY(backend->creates.waitFor(1));
        model->setEditable(todos);
        const int titleColumn = 0;
        model->setColumns({u"title"_s});
        ModelSignals signals(model.get());
        QVERIFY(model->setData(model->index(3, titleColumn), u"edited"_s));
        QCOMPARE(signals.changed.size(), 1);
        QCOMPARE(at(3, u"title"_s), QVariant(u"edited"_s));
        QVERIFY(pending(3));
        QCOMPARE(backend->count("PATCH"), 0);

        signals.clear();
        backend->create(0, 6);
        QVERIFY(await(created).value);
        // The row becomes the server's entity with the edit still shown, still pending (the
        // PATCH is on its way): one dataChanged; then the PATCH's answer ends pending: one more.
        QCOMPARE(signals.changed.size(), 1);
        QCOMPARE(at(3, u"id"_s).toInt(), 6);
        QCOMPARE(at(3, u"title"_s), QVariant(u"edited"_s));
        QVERIFY(pending(3));
        QTRY_VERIFY(!pending(3));
        QCOMPARE(signals.changed.size(), 2);
        QVERIFY(rolesOf(signals.changed, 1).contains(CollectionModel::PendingRole));
        QCOMPARE(signals.total(), 2);
        QCOMPARE(backend->server.requests("PATCH", u"/todos/6"_s).size(), 1);
        QCOMPARE(backend->count("PATCH"), 1);
        QCOMPARE(at(3, u"title"_s), QVariant(u"edited"_s));
    }
};

QTEST_GUILESS_MAIN(tst_PlaceholderRows)
#include "tst_placeholderrows.moc"
