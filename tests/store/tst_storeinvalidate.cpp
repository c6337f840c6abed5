// Invalidate, removing entities and results, reset. (That an error answer to a delete removes
// nothing is the Controller's to test: an error response never reaches the store.)
#include "storefixtures.h"

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

class tst_StoreInvalidate : public QObject
{
    Q_OBJECT

    void fill(Store &store)
    {
        QVERIFY(store
                    .setResponse(
                        u"list"_s, todoList(), {},
                        json(R"([{"id": 1, "author": {"id": 9}}, {"id": 2, "author": {"id": 9}}])"),
                        at(1))
                    .ok());
        QVERIFY(store.setResponse(u"one"_s, todoSchema(), {}, json(R"({"id": 1})"), at(1)).ok());
        QVERIFY(store.setResponse(u"user"_s, userSchema(), {}, json(R"({"id": 9})"), at(1)).ok());
    }

private Q_SLOTS:
    // Invalidate with {id}: the entity is gone, lists drop it, a single-entity read reports it
    // missing.
    void invalidateWithAnObject()
    {
        Store store;
        fill(store);
        QVERIFY(store.denormalize(u"list"_s, todoList(), {}).found);
        const StoreWrite write = store.setResponse(u"del"_s, Schema::invalidate(todoSchema()), {},
                                                   json(R"({"id": 1})"), at(2));
        QVERIFY(write.ok());
        QVERIFY(!store.entity({u"Todo"_s, u"1"_s}));
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data),
                 QStringList {u"2"_s}); // lists drop it
        const Denormalized one = store.denormalize(u"one"_s, todoSchema(), {});
        QVERIFY(!one.found); // a single-entity read reports it missing
        QCOMPARE(one.missing, (QList<EntityRef> {{u"Todo"_s, u"1"_s}}));
        const Denormalized query = store.query(todoSchema(), {{u"id"_s, u"1"_s}});
        QVERIFY(!query.found);
        QVERIFY(write.changes.entities.contains({u"Todo"_s, u"1"_s}));
        QVERIFY(write.changes.results.contains(u"list"_s));
    }

    // A bare pk string counts too (the JavaScript reference library ignores it)
    void invalidateWithAString()
    {
        Store store;
        fill(store);
        QVERIFY(store
                    .setResponse(u"del"_s, Schema::invalidate(todoSchema()), {}, QJsonValue(u"1"_s),
                                 at(2))
                    .ok());
        QVERIFY(!store.entity({u"Todo"_s, u"1"_s}));
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data), QStringList {u"2"_s});
    }

    void deletedEntityComesBackOnlyWithNewerData()
    {
        Store store;
        fill(store);
        QVERIFY(
            store.setResponse(u"del"_s, Schema::invalidate(todoSchema()), {}, QJsonValue(1), at(10))
                .ok());
        // a response to a request that started before the delete cannot resurrect it
        QVERIFY(
            store.setResponse(u"old"_s, todoSchema(), {}, json(R"({"id": 1, "title": "x"})"), at(5))
                .ok());
        QVERIFY(!store.entity({u"Todo"_s, u"1"_s}));
        QVERIFY(
            store
                .setResponse(u"new"_s, todoSchema(), {}, json(R"({"id": 1, "title": "y"})"), at(20))
                .ok());
        QCOMPARE(store.entity({u"Todo"_s, u"1"_s})->value(u"title"_s), QJsonValue(u"y"_s));
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data),
                 (QStringList {u"1"_s, u"2"_s}));
    }

    void missingNestedEntityIsNullAndListed()
    {
        Store store;
        fill(store);
        const ChangeSet removed = store.removeEntity({u"User"_s, u"9"_s});
        QVERIFY(removed.entities.contains({u"User"_s, u"9"_s}));
        const Denormalized one = store.query(todoSchema(), {{u"id"_s, 1}});
        QVERIFY(one.found);
        QVERIFY(recordOf(one.data).value(u"author"_s).isNull());
        QCOMPARE(one.missing, (QList<EntityRef> {{u"User"_s, u"9"_s}}));
        QVERIFY(!store.denormalize(u"user"_s, userSchema(), {}).found);
    }

    void invalidateResultKeepsEntities()
    {
        Store store;
        fill(store);
        const ChangeSet changes = store.invalidateResult(u"list"_s);
        QCOMPARE(changes.results, QSet<QString> {u"list"_s});
        QVERIFY(!store.hasResult(u"list"_s));
        QVERIFY(!store.denormalize(u"list"_s, todoList(), {}).found);
        QVERIFY(store.entity({u"Todo"_s, u"2"_s}));
        QVERIFY(store.invalidateResult(u"list"_s).isEmpty());
    }

    // After a reset, an answer to a request started before it is dropped.
    void resetDropsResponsesToEarlierRequests()
    {
        Store store;
        fill(store);
        const qint64 startedBefore = QDateTime::currentMSecsSinceEpoch() - 10;
        const ChangeSet changes = store.reset();
        QVERIFY(changes.results.contains(u"list"_s));
        QVERIFY(changes.entities.contains({u"Todo"_s, u"2"_s}));
        QCOMPARE(store.entityCount(), 0);
        QVERIFY(store.resultKeys().isEmpty());
        const StoreWrite late = store.setResponse(u"list"_s, todoList(), {}, json(R"([{"id": 5}])"),
                                                  at(startedBefore));
        QVERIFY(late.ok());
        QVERIFY(late.changes.isEmpty());
        QVERIFY(!store.hasResult(u"list"_s));
        const StoreWrite fresh = store.setResponse(u"list"_s, todoList(), {},
                                                   json(R"([{"id": 5}])"), at(store.resetAt() + 1));
        QVERIFY(!fresh.changes.isEmpty());
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data), QStringList {u"5"_s});
    }

    void resultMetaAndKeys()
    {
        Store store;
        fill(store);
        QCOMPARE(store.resultKeys(), (QStringList {u"list"_s, u"one"_s, u"user"_s}));
        QCOMPARE(store.resultMeta(u"one"_s), at(1));
        store.setResultMeta(u"one"_s, Meta {1, 2, 3});
        QCOMPARE(store.resultMeta(u"one"_s), (Meta {1, 2, 3}));
        QCOMPARE(store.denormalize(u"one"_s, todoSchema(), {}).meta, (Meta {1, 2, 3}));
        QCOMPARE(store.entityMeta({u"Todo"_s, u"2"_s}), at(1));
    }
};

QTEST_GUILESS_MAIN(tst_StoreInvalidate)
#include "tst_storeinvalidate.moc"
