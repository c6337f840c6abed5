// A store holds at most EntityTable::capacity() entities of one key (about 67 million): a write
// that would go past it is rejected with a clear error and leaves the store as it was, both when
// the response alone is too large (normalizing) and when the store is nearly full (committing).
// The capacity is lowered for these tests (setEntityCapacityForTesting()).
#include "storefixtures.h"
#include "tables_p.h"

#include <DataClient/private/storelayers_p.h>

#include <QTest>

using namespace Fixtures;

class tst_StoreCapacity : public QObject
{
    Q_OBJECT

    static constexpr quint32 Capacity = 5;

    //! Todos with the given ids, all by one author; \a title tells one write from another.
    static QJsonArray todos(const QList<int> &ids, const QString &title)
    {
        QJsonArray list;
        for (int id : ids) {
            list.append(QJsonObject {
                {u"id"_s, id}, {u"title"_s, title}, {u"author"_s, QJsonObject {{u"id"_s, 100}}}});
        }
        return list;
    }
    static QString titleOf(Store &store, int id)
    {
        return store.entity({u"Todo"_s, QString::number(id)})->value(u"title"_s).toString();
    }
    static void verifyRejected(const StoreWrite &write, const QString &path,
                               const QString &expectedPart, const QString &foundPart)
    {
        QVERIFY2(write.error.has_value(), "the write must fail");
        QCOMPARE(write.error->entityKey(), u"Todo"_s);
        QCOMPARE(write.error->path(), path);
        QVERIFY2(write.error->expected().contains(expectedPart),
                 qPrintable(write.error->message()));
        QVERIFY2(write.error->found().contains(foundPart), qPrintable(write.error->message()));
        QVERIFY(write.changes.isEmpty());
    }

private Q_SLOTS:
    void init() { detail::setEntityCapacityForTesting(Capacity); }
    void cleanup() { detail::setEntityCapacityForTesting(0); }

    void responseLargerThanCapacity()
    {
        Store store;
        const StoreWrite write
            = store.setResponse(u"all"_s, todoList(), {}, todos({1, 2, 3, 4, 5, 6}, u"a"_s), at(1));
        verifyRejected(write, u"[5]"_s, u"at most 5 entities of one key"_s, u"\"6\""_s);
        QVERIFY(!store.hasResult(u"all"_s));
        QCOMPARE(store.entityCount(u"Todo"_s), 0);
        QCOMPARE(store.entityCount(u"User"_s), 0);
    }

    void nearlyFullStoreTakesKnownEntitiesOnly()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"first"_s, todoList(), {}, todos({1, 2, 3, 4}, u"a"_s), at(1)).ok());
        // 3 and 4 are known, 5 and 6 would make six: rejected when committing, nothing written
        const StoreWrite write
            = store.setResponse(u"second"_s, todoList(), {}, todos({3, 4, 5, 6}, u"b"_s), at(2));
        verifyRejected(write, QString(), u"at most 5 entities of one key in a store"_s,
                       u"4 stored and 2 new"_s);
        QVERIFY(!store.hasResult(u"second"_s));
        QCOMPARE(store.entityCount(u"Todo"_s), 4);
        QCOMPARE(titleOf(store, 3), u"a"_s);
        QCOMPARE(ids(store.denormalize(u"first"_s, todoList(), {}).data),
                 QStringList({u"1"_s, u"2"_s, u"3"_s, u"4"_s}));

        // one new entity still fits; the store is then full, and refetching what it holds works
        QVERIFY(
            store.setResponse(u"second"_s, todoList(), {}, todos({3, 4, 5}, u"b"_s), at(3)).ok());
        QCOMPARE(store.entityCount(u"Todo"_s), 5);
        QVERIFY(store.setResponse(u"again"_s, todoList(), {}, todos({1, 2, 3, 4, 5}, u"c"_s), at(4))
                    .ok());
        QCOMPARE(titleOf(store, 1), u"c"_s);
        QCOMPARE(titleOf(store, 5), u"c"_s);
        const StoreWrite more
            = store.setResponse(u"more"_s, todoList(), {}, todos({7}, u"d"_s), at(5));
        verifyRejected(more, QString(), u"at most 5 entities"_s, u"5 stored and 1 new"_s);
        QCOMPARE(store.entityCount(u"Todo"_s), 5);
    }

    void preparedWriteIsCheckedWhenCommitted()
    {
        // prepare() runs without the store (on a worker): the store's room is checked at commit
        Store store;
        QVERIFY(
            store.setResponse(u"first"_s, todoList(), {}, todos({1, 2, 3, 4}, u"a"_s), at(1)).ok());
        PreparedWrite prepared = StoreLayers::prepare(todoList(), {}, todos({5, 6}, u"b"_s));
        QVERIFY(prepared.ok());
        const StoreWrite write
            = StoreLayers::commit(store, u"second"_s, std::move(prepared), at(2));
        verifyRejected(write, QString(), u"at most 5 entities"_s, u"4 stored and 2 new"_s);
        QVERIFY(!store.hasResult(u"second"_s));
        QCOMPARE(store.entityCount(u"Todo"_s), 4);
    }
};

QTEST_GUILESS_MAIN(tst_StoreCapacity)
#include "tst_storecapacity.moc"
