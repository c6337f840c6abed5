// EntityRefSet: the lazily built set of a ChangeSet reads like the QSet<EntityRef> it replaces.
#include <DataClient/store.h>

#include <QTest>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

#include <thread>

using namespace DataClient;
using namespace Qt::StringLiterals;

class TestEntityRefSet : public QObject
{
    Q_OBJECT

    static Schema todos()
    {
        static const Schema schema
            = Schema::array(Schema::entity(EntitySchema(u"Todo"_s).withNested(
                u"author"_s, Schema::entity(EntitySchema(u"User"_s)))));
        return schema;
    }
    static QJsonArray payload(int first, int count)
    {
        QJsonArray list;
        for (int id = first; id < first + count; ++id)
            list.append(
                QJsonObject {{u"id"_s, id}, {u"author"_s, QJsonObject {{u"id"_s, id % 3}}}});
        return list;
    }

private Q_SLOTS:
    void writeReportsEveryEntityOnce()
    {
        Store store;
        const StoreWrite write
            = store.setResponse(u"r"_s, todos(), {}, payload(1, 5), Meta {1, 1, 2});
        QVERIFY(write.ok());
        const EntityRefSet &changed = write.changes.entities;
        QVERIFY(!changed.isEmpty());
        QVERIFY(changed.containsKey(u"Todo"));
        QVERIFY(changed.containsKey(u"User"));
        QVERIFY(!changed.containsKey(u"Tod"));
        QCOMPARE(changed.keys(), (QSet<QString> {u"Todo"_s, u"User"_s}));
        QCOMPARE(changed.size(), 5 + 3); // users 0, 1, 2 once each
        QVERIFY(changed.contains({u"Todo"_s, u"5"_s}));
        QVERIFY(changed.contains({u"User"_s, u"0"_s}));
        QVERIFY(!changed.contains({u"Todo"_s, u"6"_s}));
        qsizetype iterated = 0;
        for (const EntityRef &ref : changed)
            iterated += ref.key == u"Todo"_s ? 1 : 0;
        QCOMPARE(iterated, 5);
        const QSet<EntityRef> asSet = changed; // converts like before
        QCOMPARE(asSet.size(), 8);
        QVERIFY(changed == asSet);
    }

    void uniteMergesDuplicatesAndCopiesAreIndependent()
    {
        Store store;
        ChangeSet all
            = store.setResponse(u"a"_s, todos(), {}, payload(1, 3), Meta {1, 1, 2}).changes;
        const ChangeSet first = all;
        const ChangeSet second
            = store.setResponse(u"b"_s, todos(), {}, payload(3, 3), Meta {2, 2, 3}).changes;
        all.unite(second);
        QCOMPARE(first.entities.size(), 3 + 3);
        // Todo 3 and the users are unchanged (the same records again): only todos 4 and 5.
        QCOMPARE(second.entities.size(), 2);
        QCOMPARE(all.entities.size(), 5 + 3);
        QCOMPARE(all.results, (QSet<QString> {u"a"_s, u"b"_s}));

        EntityRefSet copy = first.entities;
        copy.insert({u"Other"_s, u"1"_s});
        QVERIFY(copy.contains({u"Other"_s, u"1"_s}));
        QVERIFY(!first.entities.contains({u"Other"_s, u"1"_s}));
        QVERIFY(!first.entities.containsKey(u"Other"));
        copy.clear();
        QVERIFY(copy.isEmpty());
        QCOMPARE(copy.size(), 0);
        QCOMPARE(first.entities.size(), 6);
    }

    void emptyAndHandBuiltSets()
    {
        const EntityRefSet none;
        QVERIFY(none.isEmpty());
        QCOMPARE(none.size(), 0);
        QVERIFY(none.begin() == none.end());
        QVERIFY(!none.containsKey(u"Todo"));
        const EntityRefSet two {{u"Todo"_s, u"1"_s}, {u"Todo"_s, u"1"_s}, {u"User"_s, u"1"_s}};
        QCOMPARE(two.size(), 2);
        QVERIFY(two == (QSet<EntityRef> {{u"User"_s, u"1"_s}, {u"Todo"_s, u"1"_s}}));
        QVERIFY(ChangeSet {}.isEmpty());
    }

    void concurrentReadersOfOneSharedSet()
    {
        Store store;
        const ChangeSet changes
            = store.setResponse(u"r"_s, todos(), {}, payload(1, 2000), Meta {1, 1, 2}).changes;
        const EntityRefSet shared = changes.entities; // not expanded yet
        qsizetype a = 0, b = 0;
        std::thread first([&] { a = shared.size(); });
        std::thread second([&] { b = shared.size(); });
        first.join();
        second.join();
        QCOMPARE(a, 2003);
        QCOMPARE(b, 2003);
        QCOMPARE(changes.entities.size(), 2003); // the original shares the expansion
    }
};

QTEST_GUILESS_MAIN(TestEntityRefSet)
#include "tst_entityrefset.moc"
