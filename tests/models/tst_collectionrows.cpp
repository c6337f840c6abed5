// CollectionModel's row synchronisation: a new list (as the store's memoized read returns it)
// becomes the smallest model signals. Drives the model directly, without a Controller; the
// end-to-end path is covered by tst_collectionmodel and the Qt Quick tests.
#include "collectionmodel_p.h"
#include "modelsignals.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/queryvalue.h>
#include <DataClient/record.h>
#include <DataClient/store.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

QVariantMap todo(int id, const QString &title, bool completed = false)
{
    return {{u"id"_s, id}, {u"title"_s, title}, {u"completed"_s, completed}};
}

QVariantList todos(const QList<int> &ids)
{
    QVariantList list;
    for (int id : ids)
        list.append(todo(id, u"todo %1"_s.arg(id)));
    return list;
}

Schema todoList()
{
    const EntitySchema entity
        = EntitySchema(u"Todo"_s).withDefaults({{u"title"_s, QString()}, {u"completed"_s, false}});
    return Schema::collection(Schema::array(Schema::entity(entity)));
}

QStringList titles(const CollectionModel &model)
{
    QStringList result;
    for (int row = 0; row < model.rowCount(); ++row)
        result.append(model.get(row).toMap().value(u"title"_s).toString());
    return result;
}

} // namespace

class tst_CollectionRows : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<CollectionModel> model;
    std::unique_ptr<QAbstractItemModelTester> tester;
    CollectionModelPrivate *rows = nullptr;

    // The model shows \a initial; signals are counted from here on.
    void start(const QVariantList &initial, const Schema &schema = todoList())
    {
        model = std::make_unique<CollectionModel>();
        tester = std::make_unique<QAbstractItemModelTester>(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        rows = CollectionModelPrivate::get(model.get());
        rows->configureRows(schema);
        rows->resetRows(initial);
    }

private Q_SLOTS:
    void rolesAreEntityPlusDeclaredFields()
    {
        start({});
        const auto roles = model->roleNames();
        QCOMPARE(roles.value(CollectionModel::EntityRole), "entity"_ba);
        QCOMPARE(roles.value(CollectionModel::PendingRole), "pending"_ba);
        QCOMPARE(roles.value(CollectionModel::FirstFieldRole), "id"_ba); // the pk field first
        QVERIFY(roles.values().contains("title"_ba));
        QVERIFY(roles.values().contains("completed"_ba));
        QCOMPARE(roles.size(), 5);
    }

    void firstLoadIsOneInsert()
    {
        start({});
        ModelSignals spy(model.get());
        rows->syncRows(todos({1, 2, 3}));
        QCOMPARE(spy.inserted.size(), 1);
        QCOMPARE(spy.inserted.at(0).at(1).toInt(), 0);
        QCOMPARE(spy.inserted.at(0).at(2).toInt(), 2);
        QCOMPARE(spy.total(), 1);
        QCOMPARE(model->count(), 3);
    }

    void oneChangedEntityIsOneDataChangedWithItsRoles()
    {
        QVariantList list = todos({1, 2, 3});
        start(list);
        ModelSignals spy(model.get());
        list[1] = todo(2, u"renamed"_s);
        rows->syncRows(list);
        QCOMPARE(spy.total(), 1);
        QCOMPARE(spy.changed.size(), 1);
        const auto args = spy.changed.at(0);
        QCOMPARE(args.at(0).toModelIndex().row(), 1);
        QCOMPARE(args.at(1).toModelIndex().row(), 1);
        const auto roles = args.at(2).value<QList<int>>();
        const int titleRole = model->roleNames().key("title"_ba);
        QCOMPARE(QSet<int>(roles.begin(), roles.end()),
                 (QSet<int> {CollectionModel::EntityRole, titleRole}));
        QCOMPARE(model->data(model->index(1), titleRole).toString(), u"renamed"_s);
    }

    void unchangedListEmitsNothing()
    {
        const QVariantList list = todos({1, 2, 3});
        start(list);
        ModelSignals spy(model.get());
        rows->syncRows(list); // the same shared list (a memoized read)
        rows->syncRows(todos({1, 2, 3})); // equal content in new containers
        QCOMPARE(spy.total(), 0);
    }

    void pushIsOneInsertAtTheEnd()
    {
        start(todos({1, 2, 3}));
        ModelSignals spy(model.get());
        rows->syncRows(todos({1, 2, 3, 9}));
        QCOMPARE(spy.total(), 1);
        QCOMPARE(spy.inserted.at(0).at(1).toInt(), 3);
        QCOMPARE(spy.inserted.at(0).at(2).toInt(), 3);
    }

    void unshiftIsOneInsertAtTheTop()
    {
        start(todos({1, 2, 3}));
        ModelSignals spy(model.get());
        rows->syncRows(todos({9, 1, 2, 3}));
        QCOMPARE(spy.total(), 1);
        QCOMPARE(spy.inserted.at(0).at(1).toInt(), 0);
    }

    void deleteIsOneRemove()
    {
        start(todos({1, 2, 3, 4}));
        ModelSignals spy(model.get());
        rows->syncRows(todos({1, 3, 4}));
        QCOMPARE(spy.total(), 1);
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.removed.at(0).at(1).toInt(), 1);
        QCOMPARE(spy.removed.at(0).at(2).toInt(), 1);
        QCOMPARE(titles(*model), (QStringList {u"todo 1"_s, u"todo 3"_s, u"todo 4"_s}));
    }

    void reorderIsMovesNeverAReset()
    {
        start(todos({1, 2, 3, 4, 5}));
        ModelSignals spy(model.get());
        rows->syncRows(todos({5, 1, 2, 3, 4}));
        QCOMPARE(spy.moved.size(), 1);
        QCOMPARE(spy.total(), 1);
        rows->syncRows(todos({4, 3, 2, 1, 5}));
        QCOMPARE(spy.reset.size(), 0);
        QCOMPARE(spy.layout.size(), 0);
        QCOMPARE(titles(*model),
                 (QStringList {u"todo 4"_s, u"todo 3"_s, u"todo 2"_s, u"todo 1"_s, u"todo 5"_s}));
    }

    void movedAndChangedRowKeepsItsIdentity()
    {
        start(todos({1, 2, 3}));
        ModelSignals spy(model.get());
        QVariantList next {todo(3, u"three!"_s), todos({1}).at(0), todos({2}).at(0)};
        rows->syncRows(next);
        QCOMPARE(spy.moved.size(), 1);
        QCOMPARE(spy.changed.size(), 1);
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), 0);
        QCOMPARE(spy.inserted.size() + spy.removed.size(), 0);
    }

    void plainValuesAreKeptByPosition()
    {
        start({u"a"_s, u"b"_s}, Schema());
        ModelSignals spy(model.get());
        rows->syncRows(QVariantList {u"a"_s, u"x"_s, u"c"_s});
        QCOMPARE(spy.changed.size(), 1); // row 1 changed in place
        QCOMPARE(spy.inserted.size(), 1); // row 2 appended
        QCOMPARE(spy.total(), 2);
        QCOMPARE(model->data(model->index(1), CollectionModel::EntityRole).toString(), u"x"_s);
        QCOMPARE(model->data(model->index(1), Qt::DisplayRole).toString(), u"x"_s);
    }

    void wrapperObjectsShowTheirList()
    {
        const Schema wrapped = Schema::object({{u"results"_s, todoList()}, {u"total"_s, Schema()}});
        start({}, wrapped);
        bool isList = false;
        const RowList list
            = rows->listIn(QVariantMap {{u"results"_s, todos({4, 5})}, {u"total"_s, 2}}, &isList);
        QVERIFY(isList);
        QCOMPARE(list.size(), 2);
        rows->listIn(todo(1, u"x"_s), &isList);
        QVERIFY(!isList);
        QCOMPARE(model->roleNames().size(), 5); // the roles of the wrapped list's entity
    }

    void repeatedEntityRowsStayDistinct()
    {
        start(todos({1, 2, 1}));
        ModelSignals spy(model.get());
        rows->syncRows(todos({2, 1}));
        QCOMPARE(model->count(), 2);
        QCOMPARE(titles(*model), (QStringList {u"todo 2"_s, u"todo 1"_s}));
        QVERIFY(spy.total() <= 2);
    }

    void columnsShowFields()
    {
        start(todos({1, 2}));
        model->setColumns({u"title"_s, u"completed"_s});
        QCOMPARE(model->columnCount(), 2);
        QCOMPARE(model->data(model->index(1, 0), Qt::DisplayRole).toString(), u"todo 2"_s);
        QCOMPARE(model->data(model->index(1, 1), Qt::DisplayRole).toBool(), false);
        QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), u"completed"_s);
        ModelSignals spy(model.get());
        QVariantList list = todos({1, 2});
        list[0] = todo(1, u"todo 1"_s, true);
        rows->syncRows(list);
        QCOMPARE(spy.changed.size(), 1);
        QCOMPARE(spy.changed.at(0).at(1).toModelIndex().column(), 1); // the whole row
        QVERIFY(spy.changed.at(0).at(2).value<QList<int>>().contains(Qt::DisplayRole));
        model->setColumns({});
        QCOMPARE(model->columnCount(), 1);
    }

    void tenThousandRowsOneChangeIsOneSignal()
    {
        QVariantList list;
        for (int id = 1; id <= 10000; ++id)
            list.append(todo(id, u"todo %1"_s.arg(id)));
        start(list);
        tester.reset(); // the tester re-checks every row on each signal: too slow for 10k
        ModelSignals spy(model.get());
        QVariantList next = list; // shares every item, as the store's memo does
        next[7000] = todo(7001, u"changed"_s);
        rows->syncRows(next);
        QCOMPARE(spy.total(), 1);
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), 7000);
    }

    void aUnionListHasATypeRoleAndEveryMembersFields()
    {
        const EntitySchema actor(u"Actor"_s);
        const Schema comment = Schema::entity(EntitySchema(u"Comment"_s)
                                                  .withDefaults({{u"text"_s, QString()}})
                                                  .withNested(u"actor"_s, Schema::entity(actor)));
        const Schema like
            = Schema::entity(EntitySchema(u"Like"_s).withDefaults({{u"postId"_s, 0}}));
        const Schema feed = Schema::array(
            Schema::unionOf({{u"comment"_s, comment}, {u"like"_s, like}}, u"kind"_s));
        Store store;
        const QJsonDocument answer = QJsonDocument::fromJson(R"([
            {"id": 1, "kind": "comment", "text": "hi", "actor": {"id": 3}},
            {"id": 1, "kind": "like", "postId": 9}])");
        QVERIFY(store.setResponse(u"f"_s, feed, {}, answer.array(), Meta {1, 1, 1}).ok());
        const QVariantList items = store.denormalize(u"f"_s, feed, {}).data.toList();
        start(items, feed);
        // Comment 1 and Like 1: two rows, told apart by their entity key
        QCOMPARE(model->rowCount(), 2);
        const auto roles = model->roleNames();
        const int type = roles.key("type"_ba, -1);
        QVERIFY(type >= CollectionModel::FirstFieldRole);
        for (const QByteArray &name : {"id"_ba, "text"_ba, "actor"_ba, "postId"_ba})
            QVERIFY2(roles.values().contains(name), name.constData());
        QCOMPARE(model->data(model->index(0), type), u"comment"_s); // the member's name
        QCOMPARE(model->data(model->index(1), type), u"like"_s);
        QCOMPARE(model->data(model->index(0), roles.key("text"_ba)), u"hi"_s);
        QCOMPARE(model->data(model->index(1), roles.key("postId"_ba)).toInt(), 9);
        QVERIFY(!model->data(model->index(1), roles.key("text"_ba)).isValid());
        // the same items in another order: moved rows, nothing removed or inserted
        ModelSignals counted(model.get());
        rows->syncRows(RowList(QVariantList {items.at(1), items.at(0)}));
        QCOMPARE(counted.inserted.size() + counted.removed.size() + counted.reset.size(), 0);
        QCOMPARE(model->data(model->index(0), type), u"like"_s);
    }

    void aQueryValueNotifiesOncePerChange()
    {
        const Schema task = Schema::entity(EntitySchema(u"Task"_s));
        Controller controller;
        QJsonArray tasks;
        for (int i = 1; i <= 100; ++i)
            tasks.append(QJsonObject {{u"id"_s, i}, {u"completed"_s, i <= 10}});
        QVERIFY(controller.set(Schema::array(task), tasks).ok());
        int evaluations = 0;
        QueryValue done(&controller,
                        Schema::queryCount(Schema::all(task), [&evaluations](const Record &t) {
                            ++evaluations;
                            return t.value(u"completed").toBool();
                        }));
        QCOMPARE(done.value().toInt(), 10);
        QCOMPARE(evaluations, 100);
        QSignalSpy spy(&done, &QueryValue::valueChanged);
        QVERIFY(controller.set(task, QJsonObject {{u"id"_s, 50}, {u"completed"_s, true}}).ok());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(done.value().toInt(), 11);
        QCOMPARE(evaluations, 101);
        // a change that leaves the count as it was, and one of another type: no signal
        QVERIFY(controller.set(task, QJsonObject {{u"id"_s, 50}, {u"note"_s, u"n"_s}}).ok());
        QVERIFY(controller.set(Schema::entity(EntitySchema(u"Other"_s)), QJsonObject {{u"id"_s, 1}})
                    .ok());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(evaluations, 102);
    }
};

QTEST_GUILESS_MAIN(tst_CollectionRows)
#include "tst_collectionrows.moc"
