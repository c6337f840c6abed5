// Preparing a write off the store's thread and committing it later (the GUI thread stays free
// while a large response is normalized).
#include "storefixtures.h"

#include <DataClient/private/storelayers_p.h>

#include <QTest>

#include <thread>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

class tst_StorePrepare : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void prepareOnAWorkerCommitHere()
    {
        Store store;
        QVERIFY(store
                    .setResponse(u"old"_s, todoSchema(), {},
                                 json(R"({"id": 1, "title": "before"})"), at(1))
                    .ok());
        PreparedWrite prepared;
        const QByteArray body
            = R"([{"id": 1, "title": "after", "author": {"id": 7}}, {"id": 2, "author": {"id": 7}}])";
        std::thread worker(
            [&] { prepared = StoreLayers::prepare(todoList(), {}, CompactJson::parse(body)); });
        worker.join();
        QVERIFY(prepared.ok());
        // nothing is in the store until the commit
        QCOMPARE(store.entityCount(), 1);
        QCOMPARE(store.entity({u"Todo"_s, u"1"_s})->value(u"title"_s), QJsonValue(u"before"_s));

        const StoreWrite write = StoreLayers::commit(store, u"list"_s, std::move(prepared), at(2));
        QVERIFY(write.ok());
        QVERIFY(write.changes.entities.contains({u"Todo"_s, u"1"_s}));
        QVERIFY(write.changes.entities.contains({u"User"_s, u"7"_s}));
        QCOMPARE(store.entity({u"Todo"_s, u"1"_s})->value(u"title"_s), QJsonValue(u"after"_s));
        const QVariantList rows = store.denormalize(u"list"_s, todoList(), {}).data.toList();
        QCOMPARE(ids(rows), (QStringList {u"1"_s, u"2"_s}));
        QCOMPARE(recordOf(recordOf(rows.at(1)).value(u"author"_s)).pk(), u"7"_s);
        QVERIFY(!prepared.ok()); // moved into the commit
    }

    void sameOutcomeAsSetResponse()
    {
        Store direct, prepared;
        const auto value = json(R"({"results": [{"id": 1, "author": {"id": 2}}], "total": 1})");
        const Schema wrapper = Schema::object({{u"results"_s, todoList()}});
        const StoreWrite a = direct.setResponse(u"w"_s, wrapper, {}, value, at(1));
        const StoreWrite b = StoreLayers::commit(prepared, u"w"_s,
                                                 StoreLayers::prepare(wrapper, {}, value), at(1));
        QCOMPARE(a.changes, b.changes);
        QCOMPARE(direct.denormalize(u"w"_s, wrapper, {})
                     .data.toMap()
                     .value(u"results"_s)
                     .toList()
                     .first()
                     .toMap(),
                 prepared.denormalize(u"w"_s, wrapper, {})
                     .data.toMap()
                     .value(u"results"_s)
                     .toList()
                     .first()
                     .toMap());
    }

    void badInputFailsToPrepare()
    {
        Store store;
        PreparedWrite prepared
            = StoreLayers::prepare(todoList(), {}, json(R"([{"title": "no id"}])"));
        QVERIFY(!prepared.ok());
        QVERIFY(prepared.error());
        QCOMPARE(prepared.error()->path(), u"[0].id"_s);
        const StoreWrite write = StoreLayers::commit(store, u"list"_s, std::move(prepared), at(1));
        QVERIFY(write.error);
        QCOMPARE(write.error->entityKey(), u"Todo"_s);
        QCOMPARE(store.entityCount(), 0);
        QVERIFY(!store.hasResult(u"list"_s));
        QVERIFY(StoreLayers::commit(store, u"x"_s, PreparedWrite(), at(1))
                    .changes.isEmpty()); // nothing prepared
    }

    void commitIntoAnOptimisticLayer()
    {
        Store store;
        QVERIFY(store
                    .setResponse(u"list"_s, todoList(), {}, json(R"([{"id": 1, "done": false}])"),
                                 at(1))
                    .ok());
        QVERIFY(StoreLayers::commitOptimistic(
                    store, 5, QString(),
                    StoreLayers::prepare(todoSchema(), {}, json(R"({"id": 1, "done": true})")),
                    at(2))
                    .ok());
        QCOMPARE(recordOf(store.query(todoSchema(), {{u"id"_s, 1}}).data).value(u"done"_s),
                 QVariant(true));
        StoreLayers::removeOptimistic(store, 5);
        QCOMPARE(recordOf(store.query(todoSchema(), {{u"id"_s, 1}}).data).value(u"done"_s),
                 QVariant(false));
    }

    void preparedForOneStoreCommitsIntoAnother()
    {
        // ids are resolved at commit: a prepared write is not tied to a store
        Store first, second;
        QVERIFY(first.setResponse(u"l"_s, todoList(), {}, json(R"([{"id": 9}, {"id": 8}])"), at(1))
                    .ok());
        QVERIFY(StoreLayers::commit(second, u"l"_s,
                                    StoreLayers::prepare(todoList(), {}, json(R"([{"id": 1}])")),
                                    at(1))
                    .ok());
        QCOMPARE(ids(second.denormalize(u"l"_s, todoList(), {}).data), QStringList {u"1"_s});
    }
};

QTEST_GUILESS_MAIN(tst_StorePrepare)
#include "tst_storeprepare.moc"
