// Entity slots emptied by garbage collection are taken again by new pks once nothing refers to
// them: a feed of new ids keeps the store the size of what it holds, a dropped pk reads as absent
// and can be written again, and a slot something still refers to (a record written within the
// grace period, a kept list, an optimistic layer) never answers for another pk.
#include "storefixtures.h"

#include <DataClient/private/storesnapshot_p.h>
#include <DataClient/private/storelayers_p.h>

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {

constexpr int PerPoll = 50;

//! One poll of a feed: 50 todos never seen before, by three authors.
QJsonValue feed(int poll)
{
    QJsonArray list;
    for (int i = 0; i < PerPoll; ++i) {
        const int id = poll * PerPoll + i;
        list.append(QJsonObject {{u"id"_s, id},
                                 {u"title"_s, u"entry %1 of the feed"_s.arg(id)},
                                 {u"author"_s, QJsonObject {{u"id"_s, 1 + id % 3}}}});
    }
    return list;
}

Meta started(qint64 date, qint64 fetchedAt)
{
    return Meta {date, fetchedAt, fetchedAt + 60000};
}

//! How many slots the store's table of \a key has (released ones included).
size_t slotsOf(const Store &store, const QString &key)
{
    const detail::StoreSnapshot snapshot = detail::StoreSnapshot::take(store);
    for (const detail::SnapshotEntityTable &table : snapshot.entityTables) {
        if (table.key == key)
            return table.slots.size();
    }
    return 0;
}

//! Collects what is older than \a cutoff (nothing evicted: the caller replaces its results).
void collect(Store &store, qint64 cutoff, const QList<std::pair<Schema, Params>> &keep = {})
{
    StoreGarbageRequest request;
    request.writtenBefore = cutoff;
    request.keep = keep;
    StoreLayers::collectGarbage(store, request);
}

//! Polls of 50 new todos from \a from to \a to, each followed by a pass dropping what is older
//! than five polls; fetched at 100 + poll (so that the tests' own writes can be newer or older).
void churn(Store &store, int from, int to, const QList<std::pair<Schema, Params>> &keep = {})
{
    for (int poll = from; poll <= to; ++poll) {
        QVERIFY(store.setResponse(u"feed"_s, todoList(), {}, feed(poll), at(100 + poll)).ok());
        collect(store, 100 + poll - 5, keep);
    }
}

} // namespace

class tst_StoreSlotReuse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aFeedOfNewIdsStaysTheSizeOfWhatItHolds()
    {
        Store store;
        qint64 early = 0;
        for (int poll = 1; poll <= 400; ++poll) {
            QVERIFY(store.setResponse(u"feed"_s, todoList(), {}, feed(poll), at(poll)).ok());
            collect(store, poll - 5);
            if (poll == 100)
                early = store.memoryUsage();
        }
        const qsizetype live = store.entityCount(u"Todo"_s);
        QCOMPARE(live, 5 * PerPoll); // the last five polls
        QVERIFY2(slotsOf(store, u"Todo"_s) <= size_t(2 * live),
                 qPrintable(u"%1 slots for %2 todos"_s.arg(slotsOf(store, u"Todo"_s)).arg(live)));
        const qint64 late = store.memoryUsage();
        QVERIFY2(
            double(late) <= 1.2 * double(early),
            qPrintable(u"memoryUsage() %1 after 100 polls, %2 after 400"_s.arg(early).arg(late)));

        // What went reads as absent; what stayed reads as itself.
        for (int id = PerPoll; id < 395 * PerPoll; id += 97) {
            QVERIFY(!store.entity({u"Todo"_s, QString::number(id)}));
            QVERIFY(!store.query(todoSchema(), {{u"id"_s, id}}).found);
        }
        const QStringList shown = ids(store.denormalize(u"feed"_s, todoList(), {}).data);
        QCOMPARE(shown.size(), PerPoll);
        QCOMPARE(shown.first(), QString::number(400 * PerPoll));
        for (int id = 396 * PerPoll; id < 401 * PerPoll; ++id) {
            const auto entity = store.entity({u"Todo"_s, QString::number(id)});
            QVERIFY(entity);
            QCOMPARE(entity->value(u"id"_s).toInt(), id);
        }

        // A dropped pk written again is stored again, and the feed is unchanged.
        QVERIFY(store
                    .setResponse(u"one"_s, todoSchema(), {},
                                 json(R"({"id": 100, "title": "back again"})"), at(401))
                    .ok());
        const Record back = recordOf(store.query(todoSchema(), {{u"id"_s, 100}}).data);
        QCOMPARE(back.value(u"title"_s).toString(), u"back again"_s);
        QCOMPARE(ids(store.denormalize(u"feed"_s, todoList(), {}).data), shown);
    }

    void aRecordReferringToADroppedEntityNeverSeesAnotherInItsSlot_data()
    {
        QTest::addColumn<bool>("kept");
        QTest::newRow("kept by a read") << true;
        QTest::newRow("written within the grace period") << false;
    }
    void aRecordReferringToADroppedEntityNeverSeesAnotherInItsSlot()
    {
        QFETCH(bool, kept);
        Store store;
        // Todo 1 is answered at 1000 by a request that started (3) before user 7 was written (5):
        // the older data does not renew user 7, so user 7 is dropped while todo 1 stays.
        QVERIFY(store
                    .setResponse(u"u"_s, userSchema(), {}, json(R"({"id": 7, "name": "Ann"})"),
                                 started(5, 5))
                    .ok());
        QVERIFY(store
                    .setResponse(u"t"_s, todoSchema(), {},
                                 json(R"({"id": 1, "author": {"id": 7, "name": "Old"}})"),
                                 started(3, 1000))
                    .ok());
        QVERIFY(store.invalidateResult(u"u"_s).results.contains(u"u"_s));
        QVERIFY(store.invalidateResult(u"t"_s).results.contains(u"t"_s));
        collect(store, 7);
        QVERIFY(!store.entity({u"User"_s, u"7"_s}));
        QVERIFY(store.entity({u"Todo"_s, u"1"_s}));

        // Users come and go (a page of 20 new ones at a time), their slots taken again and
        // again. Todo 1 stays because a view reads it (and the passes drop what was written
        // before it), or because it was written after what the passes drop.
        const QList<std::pair<Schema, Params>> keep = kept
            ? QList<std::pair<Schema, Params>> {{todoSchema(), {{u"id"_s, 1}}}}
            : QList<std::pair<Schema, Params>> {};
        const qint64 base = kept ? 1100 : 20;
        const Schema users = Schema::array(userSchema());
        for (int page = 0; page < 40; ++page) {
            QJsonArray list;
            for (int i = 0; i < 20; ++i)
                list.append(QJsonObject {{u"id"_s, 100 + page * 20 + i},
                                         {u"name"_s, u"user %1"_s.arg(100 + page * 20 + i)}});
            QVERIFY(store.setResponse(u"users"_s, users, {}, list, at(base + page)).ok());
            store.invalidateResult(u"users"_s);
            collect(store, base + page, keep);
            QVERIFY(store.entity({u"Todo"_s, u"1"_s}));
        }
        QVERIFY2(
            slotsOf(store, u"User"_s) <= 50,
            qPrintable(u"%1 user slots for 20 users at a time"_s.arg(slotsOf(store, u"User"_s))));

        const Denormalized read = store.query(todoSchema(), {{u"id"_s, 1}});
        QVERIFY(read.found);
        QVERIFY(recordOf(read.data).value(u"author"_s).isNull());
        QCOMPARE(read.missing, (QList<EntityRef> {{u"User"_s, u"7"_s}}));

        // User 7 written again is todo 1's author again.
        QVERIFY(store
                    .setResponse(u"u"_s, userSchema(), {},
                                 json(R"({"id": 7, "name": "Ann again"})"), at(2000))
                    .ok());
        const Record todo = recordOf(store.query(todoSchema(), {{u"id"_s, 1}}).data);
        QCOMPARE(todo.value(u"author"_s).value<Record>().value(u"name"_s).toString(),
                 u"Ann again"_s);
    }

    void aListReferringToADroppedEntityNeverShowsAnotherInItsSlot()
    {
        Store store;
        // The list is answered at 1000 by a request that started (3) before todo 30 was written
        // (5): todo 30 is dropped, the list (written within the grace period) stays.
        QVERIFY(store
                    .setResponse(u"one"_s, todoSchema(), {},
                                 json(R"({"id": 30, "title": "newer"})"), started(5, 5))
                    .ok());
        QVERIFY(store
                    .setResponse(u"list"_s, todoList(), {{u"userId"_s, 9}},
                                 json(R"([{"id": 30, "title": "older"}])"), started(3, 1000))
                    .ok());
        store.invalidateResult(u"one"_s);
        store.invalidateResult(u"list"_s);
        collect(store, 7);
        QVERIFY(!store.entity({u"Todo"_s, u"30"_s}));

        churn(store, 1, 100);
        QVERIFY2(slotsOf(store, u"Todo"_s) <= size_t(2 * 6 * PerPoll + 1),
                 qPrintable(u"%1 todo slots"_s.arg(slotsOf(store, u"Todo"_s))));
        const Denormalized list = store.query(todoList(), {{u"userId"_s, 9}});
        QVERIFY(list.found);
        QCOMPARE(ids(list.data), QStringList());
    }

    void anOptimisticLayerKeepsItsSlotsAndReleasesThemWhenItGoes()
    {
        Store store;
        // A created todo shown only by a pending mutation (no committed record), and a pending
        // edit of a feed entry that the feed then drops.
        QVERIFY(StoreLayers::setOptimisticResponse(store, 3, u"POST"_s, todoSchema(), {},
                                                   json(R"({"id": 5000000, "title": "guess"})"),
                                                   at(100))
                    .ok());
        QVERIFY(store.setResponse(u"feed"_s, todoList(), {}, feed(0), at(100)).ok());
        QVERIFY(StoreLayers::setOptimisticResponse(store, 4, u"PATCH"_s, todoSchema(), {},
                                                   json(R"({"id": 0, "title": "edited"})"), at(100))
                    .ok());
        churn(store, 1, 100);
        QVERIFY2(slotsOf(store, u"Todo"_s) <= size_t(2 * 6 * PerPoll + 2),
                 qPrintable(u"%1 todo slots"_s.arg(slotsOf(store, u"Todo"_s))));
        for (const auto &[id, title] :
             {std::pair(5000000, u"guess"_s), std::pair(0, u"edited"_s)}) {
            const Record shown = recordOf(store.query(todoSchema(), {{u"id"_s, id}}).data);
            QCOMPARE(shown.value(u"title"_s).toString(), title);
            QVERIFY(shown.isPending());
        }

        // Once the layers go, so do their entities, and their slots can be taken.
        StoreLayers::removeOptimistic(store, 3);
        StoreLayers::removeOptimistic(store, 4);
        churn(store, 101, 200);
        QVERIFY(!store.query(todoSchema(), {{u"id"_s, 5000000}}).found);
        QVERIFY(!store.query(todoSchema(), {{u"id"_s, 0}}).found);
        QVERIFY(slotsOf(store, u"Todo"_s) <= size_t(2 * 6 * PerPoll));
        QCOMPARE(ids(store.denormalize(u"feed"_s, todoList(), {}).data).first(),
                 QString::number(200 * PerPoll));
    }

    void aStoreWithReleasedSlotsIsSavedAndRestored()
    {
        Store store;
        churn(store, 1, 30);
        const detail::StoreSnapshot snapshot = detail::StoreSnapshot::take(store);
        QCOMPARE(snapshot.check(), QString());
        Store restored;
        QString why;
        QVERIFY2(snapshot.restoreInto(restored, &why), qPrintable(why));
        QCOMPARE(ids(restored.denormalize(u"feed"_s, todoList(), {}).data),
                 ids(store.denormalize(u"feed"_s, todoList(), {}).data));
        QCOMPARE(restored.entityCount(u"Todo"_s), store.entityCount(u"Todo"_s));
        churn(restored, 31, 60);
        QVERIFY(slotsOf(restored, u"Todo"_s) <= size_t(2 * 6 * PerPoll));
    }
};

QTEST_GUILESS_MAIN(tst_StoreSlotReuse)
#include "tst_storeslotreuse.moc"
