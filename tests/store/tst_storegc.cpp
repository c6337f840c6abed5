// StoreLayers::collectGarbage() and Store::memoryUsage() (docs/memory.md): what stays is exactly what
// the remaining results, the kept reads and the optimistic layers reach, nested entities and
// list items included; what goes reads as missing and can be written again.
#include "storefixtures.h"

#include <DataClient/private/storelayers_p.h>

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {

QJsonValue todos(int from, int count, int author)
{
    QJsonArray list;
    for (int id = from; id < from + count; ++id) {
        list.append(QJsonObject {{u"id"_s, id},
                                 {u"title"_s, u"todo number %1 with a longer title"_s.arg(id)},
                                 {u"author"_s, QJsonObject {{u"id"_s, author}}}});
    }
    return list;
}

} // namespace

class tst_StoreGc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void whatNoResultReachesGoesAndTheRestStays()
    {
        Store store;
        QVERIFY(store.setResponse(u"kept"_s, todoList(), {}, todos(1, 3, 9), at(1)).ok());
        // The user's nested list reaches todo 4 (user 8 -> [Todo] of user 8 -> todo 4).
        QVERIFY(store
                    .setResponse(u"user"_s, userSchema(), {},
                                 json(R"({"id": 8, "todos": [{"id": 4}]})"), at(1))
                    .ok());
        QVERIFY(store.setResponse(u"dropped"_s, todoList(), {{u"page"_s, 2}}, todos(5, 3, 7), at(1))
                    .ok());
        QCOMPARE(store.entityCount(u"Todo"_s), 7);

        StoreGarbageRequest request;
        request.evictResults = {u"dropped"_s, u"no such key"_s};
        request.writtenBefore = 1;
        const StoreGarbageOutcome outcome = StoreLayers::collectGarbage(store, request);

        QCOMPARE(outcome.results, 1);
        QCOMPARE(outcome.entities, 4); // todos 5-7 and user 7
        QCOMPARE(store.resultKeys(), (QStringList {u"kept"_s, u"user"_s}));
        QCOMPARE(store.entityCount(u"Todo"_s), 4);
        QCOMPARE(store.entityCount(u"User"_s), 2); // 9 (author of 1-3) and 8
        for (int id = 5; id <= 7; ++id) {
            QVERIFY(!store.entity({u"Todo"_s, QString::number(id)}));
            QVERIFY(outcome.changes.entities.contains({u"Todo"_s, QString::number(id)}));
        }
        QVERIFY(outcome.changes.results.contains(u"dropped"_s));
        QVERIFY(!outcome.changes.entities.contains({u"Todo"_s, u"1"_s}));
        QVERIFY(!store.denormalize(u"dropped"_s, todoList(), {}).found);
        QCOMPARE(ids(store.denormalize(u"kept"_s, todoList(), {}).data),
                 (QStringList {u"1"_s, u"2"_s, u"3"_s}));
        const Record user = recordOf(store.denormalize(u"user"_s, userSchema(), {}).data);
        QCOMPARE(ids(user.value(u"todos"_s)), QStringList {u"4"_s});
        QCOMPARE(outcome.oldestUnreachable, -1);
    }

    void whatWasWrittenAfterTheCutoffStays()
    {
        Store store;
        QVERIFY(store.setResponse(u"old"_s, todoSchema(), {}, json(R"({"id": 1})"), at(100)).ok());
        QVERIFY(store.setResponse(u"new"_s, todoSchema(), {}, json(R"({"id": 2})"), at(200)).ok());
        StoreGarbageRequest request;
        request.evictResults = {u"old"_s, u"new"_s};
        request.writtenBefore = 150;
        const StoreGarbageOutcome outcome = StoreLayers::collectGarbage(store, request);
        QCOMPARE(outcome.results, 2);
        QCOMPARE(outcome.entities, 1);
        QVERIFY(!store.entity({u"Todo"_s, u"1"_s}));
        QVERIFY(store.entity({u"Todo"_s, u"2"_s}));
        QCOMPARE(outcome.oldestUnreachable, 200); // when the caller may look again
    }

    void keptReadsAndOptimisticLayersKeepWhatTheyShow()
    {
        Store store;
        QVERIFY(store.setResponse(u"list"_s, todoList(), {{u"userId"_s, 1}}, todos(1, 3, 9), at(1))
                    .ok());
        QVERIFY(store.setResponse(u"one"_s, todoSchema(), {}, json(R"({"id": 10})"), at(1)).ok());
        QVERIFY(store.setResponse(u"two"_s, todoSchema(), {}, json(R"({"id": 11})"), at(1)).ok());
        // A pending mutation shows todo 11 changed.
        QVERIFY(StoreLayers::setOptimisticResponse(store, 7, u"PATCH 11"_s, todoSchema(), {},
                                                   json(R"({"id": 11, "title": "guess"})"), at(2))
                    .ok());
        StoreGarbageRequest request;
        request.evictResults = {u"list"_s, u"one"_s, u"two"_s};
        request.keep = {{todoList(), {{u"userId"_s, 1}}}, {todoSchema(), {{u"id"_s, 10}}}};
        request.writtenBefore = 10;
        StoreLayers::collectGarbage(store, request);

        QCOMPARE(store.query(todoList(), {{u"userId"_s, 1}}).data.toList().size(), 3);
        QVERIFY(store.query(todoSchema(), {{u"id"_s, 10}}).found);
        const Record shown = recordOf(store.query(todoSchema(), {{u"id"_s, 11}}).data);
        QCOMPARE(shown.value(u"title"_s).toString(), u"guess"_s);
        QVERIFY(store.entity({u"Todo"_s, u"11"_s})); // its committed record, for a rollback
        QVERIFY(store.entity({u"User"_s, u"9"_s})); // the kept list's author

        // The rollback shows the committed record again; once the layer is gone it can go.
        StoreLayers::removeOptimistic(store, 7);
        QCOMPARE(recordOf(store.query(todoSchema(), {{u"id"_s, 11}}).data).value(u"title"_s),
                 QVariant());
        request.evictResults.clear();
        StoreLayers::collectGarbage(store, request);
        QVERIFY(!store.entity({u"Todo"_s, u"11"_s}));
        QVERIFY(store.entity({u"Todo"_s, u"10"_s}));
    }

    void aDroppedListIsReadAgainWhenWrittenAgain()
    {
        Store store;
        QVERIFY(store.setResponse(u"list"_s, todoList(), {}, todos(1, 3, 9), at(1)).ok());
        const QVariant before = store.denormalize(u"list"_s, todoList(), {}).data;
        QCOMPARE(ids(before), (QStringList {u"1"_s, u"2"_s, u"3"_s}));
        StoreGarbageRequest request;
        request.evictResults = {u"list"_s};
        request.writtenBefore = 1;
        const StoreGarbageOutcome outcome = StoreLayers::collectGarbage(store, request);
        QCOMPARE(outcome.collections, 1);
        QVERIFY(outcome.changes.entities.contains({u"[Todo]"_s, Collection::argumentsKey({})}));
        QVERIFY(!store.query(todoList(), {}).found);
        QCOMPARE(store.entityCount(), 0);

        QVERIFY(store.setResponse(u"list"_s, todoList(), {}, todos(2, 2, 9), at(5)).ok());
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data),
                 (QStringList {u"2"_s, u"3"_s}));
        QCOMPARE(ids(store.query(todoList(), {}).data), (QStringList {u"2"_s, u"3"_s}));
    }

    void aLargePassFreesOnAWorkerAndTheStoreGoesOn()
    {
        // 5000 records: past the size from which they are freed off the calling thread.
        Store store;
        QVERIFY(store.setResponse(u"list"_s, todoList(), {}, todos(1, 5000, 9), at(1)).ok());
        const QVariant shown = store.denormalize(u"list"_s, todoList(), {}).data; // held by a view
        StoreGarbageRequest request;
        request.evictResults = {u"list"_s};
        request.writtenBefore = 1;
        QCOMPARE(StoreLayers::collectGarbage(store, request).entities, 5001); // and the author
        QCOMPARE(store.entityCount(), 0);
        // What a view still holds stays readable: the Records share the freed store's records.
        QCOMPARE(recordOf(shown.toList().at(4999)).value(u"id"_s).toInt(), 5000);
        QVERIFY(store.setResponse(u"list"_s, todoList(), {}, todos(1, 5000, 9), at(2)).ok());
        QCOMPARE(ids(store.denormalize(u"list"_s, todoList(), {}).data).size(), 5000);
    }

    void memoryUsageFollowsWhatIsStored()
    {
        Store store;
        const qint64 empty = store.memoryUsage();
        QVERIFY(empty > 0);
        QVERIFY(store.setResponse(u"list"_s, todoList(), {}, todos(1, 1000, 9), at(1)).ok());
        const qint64 full = store.memoryUsage();
        // 1000 todos of about 100 bytes of JSON each: the store keeps them compact, but not free.
        QVERIFY2(full - empty > 1000 * 60 && full - empty < 1000 * 600,
                 qPrintable(QString::number(full - empty)));
        QVERIFY(
            store.setResponse(u"more"_s, todoList(), {{u"page"_s, 2}}, todos(2001, 500, 9), at(1))
                .ok());
        const qint64 more = store.memoryUsage();
        QVERIFY(more > full);
        StoreGarbageRequest request;
        request.evictResults = {u"list"_s, u"more"_s};
        request.writtenBefore = 1;
        StoreLayers::collectGarbage(store, request);
        const qint64 after = store.memoryUsage();
        // What stays: no records, and no slots (released once nothing refers to them).
        QVERIFY2(after < empty + (more - empty) / 3,
                 qPrintable(u"%1 %2 %3"_s.arg(empty).arg(more).arg(after)));
        QCOMPARE(store.entityCount(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_StoreGc)
#include "tst_storegc.moc"
