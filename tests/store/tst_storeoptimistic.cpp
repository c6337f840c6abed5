// Optimistic layers: shown above the committed data until removed; removing one restores
// exactly the committed state plus the other layers (docs/optimistic-updates.md).
#include "storefixtures.h"

#include <DataClient/private/storelayers_p.h>

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

class tst_StoreOptimistic : public QObject
{
    Q_OBJECT

    static QVariant field(Store &store, const QString &id, const QString &name)
    {
        return recordOf(store.query(todoSchema(), {{u"id"_s, id}}).data).value(name);
    }

    void fill(Store &store)
    {
        QVERIFY(store
                    .setResponse(u"list"_s, todoList(), {},
                                 json(R"([{"id": 5, "content": "a", "done": false}, {"id": 6}])"),
                                 at(1))
                    .ok());
        QVERIFY(store.denormalize(u"list"_s, todoList(), {}).found);
    }

private Q_SLOTS:
    // Shown at once; after the response, the server's values
    void partialUpdateShowsAtOnce()
    {
        Store store;
        fill(store);
        const StoreWrite optimistic
            = StoreLayers::setOptimisticResponse(store, 1, u"patch"_s, todoSchema(), {},
                                                 json(R"({"id": 5, "content": "changed"})"), at(2));
        QVERIFY(optimistic.ok());
        QCOMPARE(optimistic.changes.entities, (QSet<EntityRef> {{u"Todo"_s, u"5"_s}}));
        QVERIFY(optimistic.changes.results.contains(u"list"_s));
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"changed"_s));
        QCOMPARE(field(store, u"5"_s, u"done"_s), QVariant(false)); // merged over the stored entity
        QCOMPARE(store.entity({u"Todo"_s, u"5"_s})->value(u"content"_s),
                 QJsonValue(u"a"_s)); // committed

        // the response arrives: commit it, drop the layer
        QVERIFY(store
                    .setResponse(u"patch"_s, todoSchema(), {},
                                 json(R"({"id": 5, "content": "server"})"), at(2))
                    .ok());
        QCOMPARE(field(store, u"5"_s, u"content"_s),
                 QVariant(u"changed"_s)); // the layer is still on top
        StoreLayers::removeOptimistic(store, 1);
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"server"_s));
        QVERIFY(store.optimisticLayers().isEmpty());
    }

    // An optimistic delete hides it from every list at once
    void optimisticDelete()
    {
        Store store;
        fill(store);
        QVERIFY(StoreLayers::setOptimisticResponse(
                    store, 7, QString(), Schema::invalidate(todoSchema()), {}, QJsonValue(5), at(2))
                    .ok());
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data), QStringList {u"6"_s});
        QVERIFY(!store.query(todoSchema(), {{u"id"_s, 5}}).found);
        QVERIFY(store.entity({u"Todo"_s, u"5"_s})); // still committed
        const ChangeSet removed = StoreLayers::removeOptimistic(store, 7);
        QVERIFY(removed.entities.contains({u"Todo"_s, u"5"_s}));
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data),
                 (QStringList {u"5"_s, u"6"_s}));
    }

    void optimisticPushIntoStoredLists()
    {
        Store store;
        fill(store);
        QVERIFY(StoreLayers::setOptimisticResponse(store, 3, u"push"_s, todoList().push(), {},
                                                   json(R"({"id": 99})"), at(2))
                    .ok());
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data),
                 (QStringList {u"5"_s, u"6"_s, u"99"_s}));
        StoreLayers::removeOptimistic(store, 3);
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data),
                 (QStringList {u"5"_s, u"6"_s}));
    }

    // Three rapid toggles end on the last one, whatever order the responses arrive in
    void rapidTogglesEndOnTheLastValue()
    {
        const QList<QList<int>> orders {{1, 2, 3}, {3, 2, 1}, {2, 3, 1}, {3, 1, 2}};
        for (const QList<int> &order : orders) {
            Store store;
            fill(store);
            const bool values[] = {false, true, false, true}; // [1..3] are the toggles
            for (int i = 1; i <= 3; ++i) {
                QVERIFY(StoreLayers::setOptimisticResponse(
                            store, quint64(i), QString(), todoSchema(), {},
                            QJsonObject {{u"id"_s, 5}, {u"done"_s, values[i]}}, at(10 * i))
                            .ok());
            }
            QCOMPARE(field(store, u"5"_s, u"done"_s), QVariant(true));
            for (int i : order) {
                // request i started at 10 * i: the race rule keeps the newest confirmed value
                QVERIFY(store
                            .setResponse(QString(), todoSchema(), {},
                                         QJsonObject {{u"id"_s, 5}, {u"done"_s, values[i]}},
                                         at(10 * i))
                            .ok());
                StoreLayers::removeOptimistic(store, quint64(i));
                QCOMPARE(field(store, u"5"_s, u"done"_s), QVariant(true));
            }
        }
    }

    // A failed request removes only its layer; other confirmed changes stay
    void failedRequestRestoresTheConfirmedState()
    {
        Store store;
        fill(store);
        QVERIFY(StoreLayers::setOptimisticResponse(store, 1, QString(), todoSchema(), {},
                                                   json(R"({"id": 5, "content": "mine"})"), at(2))
                    .ok());
        // meanwhile confirmed changes: another field of it (from a request that started before the
        // optimistic one, so the layer still shows above it) and another entity
        QVERIFY(
            store
                .setResponse(QString(), todoSchema(), {}, json(R"({"id": 5, "done": true})"), at(1))
                .ok());
        QVERIFY(store
                    .setResponse(QString(), todoSchema(), {},
                                 json(R"({"id": 6, "content": "other"})"), at(3))
                    .ok());
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"mine"_s));
        QCOMPARE(field(store, u"5"_s, u"done"_s), QVariant(true));
        StoreLayers::removeOptimistic(store, 1); // the request failed
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"a"_s));
        QCOMPARE(field(store, u"5"_s, u"done"_s), QVariant(true));
        QCOMPARE(field(store, u"6"_s, u"content"_s), QVariant(u"other"_s));
    }

    void olderLayerDoesNotHideNewerConfirmedFields()
    {
        Store store;
        fill(store);
        QVERIFY(StoreLayers::setOptimisticResponse(
                    store, 1, QString(), todoSchema(), {},
                    json(R"({"id": 5, "content": "mine", "extra": 1})"), at(2))
                    .ok());
        QVERIFY(store
                    .setResponse(QString(), todoSchema(), {},
                                 json(R"({"id": 5, "content": "newer"})"), at(3))
                    .ok());
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"newer"_s));
        QCOMPARE(field(store, u"5"_s, u"extra"_s),
                 QVariant(1.0)); // fields it lacks are still filled
    }

    // A layer's date can change (its request was sent, or waits again): what it shows follows.
    void aRedatedLayerShowsAsItsNewDateSays()
    {
        Store store;
        fill(store);
        const QJsonValue mine = json(R"({"id": 5, "content": "mine"})");
        QVERIFY(
            StoreLayers::setOptimisticResponse(store, 1, QString(), todoSchema(), {}, mine, at(5))
                .ok());
        const QJsonValue read = json(R"({"id": 5, "content": "read"})");
        QVERIFY(store.setResponse(QString(), todoSchema(), {}, read, at(3)).ok()); // older
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"mine"_s));

        const ChangeSet older
            = StoreLayers::redateOptimistic(store, 1, 2); // before the committed data
        QVERIFY(older.entities.contains({u"Todo"_s, u"5"_s}));
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"read"_s));
        const ChangeSet later = StoreLayers::redateOptimistic(store, 1, 4);
        QVERIFY(later.entities.contains({u"Todo"_s, u"5"_s}));
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"mine"_s));
        QVERIFY(StoreLayers::redateOptimistic(store, 1, 6)
                    .isEmpty()); // still after it: nothing changes
        QVERIFY(StoreLayers::redateOptimistic(store, 42, 1).isEmpty()); // no such layer
        QCOMPARE(store.entity({u"Todo"_s, u"5"_s})->value(u"content"_s), QJsonValue(u"read"_s));
    }

    // Same start time: the higher layer id wins (layers apply in ascending id)
    void layersApplyInAscendingOrder()
    {
        Store store;
        fill(store);
        QVERIFY(StoreLayers::setOptimisticResponse(store, 9, QString(), todoSchema(), {},
                                                   json(R"({"id": 5, "content": "nine"})"), at(2))
                    .ok());
        QVERIFY(StoreLayers::setOptimisticResponse(store, 4, QString(), todoSchema(), {},
                                                   json(R"({"id": 5, "content": "four"})"), at(2))
                    .ok());
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"nine"_s));
        QCOMPARE(store.optimisticLayers(), (QList<quint64> {4, 9}));
        StoreLayers::removeOptimistic(store, 9);
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"four"_s));
    }

    void badOptimisticValueIsRejected()
    {
        Store store;
        fill(store);
        const StoreWrite write = StoreLayers::setOptimisticResponse(
            store, 1, QString(), todoSchema(), {}, json(R"({"x": 1})"), at(2));
        QVERIFY(write.error);
        QVERIFY(store.optimisticLayers().isEmpty());
        QCOMPARE(field(store, u"5"_s, u"content"_s), QVariant(u"a"_s));
    }
};

QTEST_GUILESS_MAIN(tst_StoreOptimistic)
#include "tst_storeoptimistic.moc"
