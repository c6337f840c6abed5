// Memoized reads: unchanged data gives the identical shared value; a change recomputes only
// what depends on it; ChangeSets name exactly what changed.
#include "storefixtures.h"

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {
const void *listData(const QVariant &value)
{
    // the d-pointer of the QVariantList inside
    return static_cast<const QVariantList *>(value.constData())->constData();
}

QByteArray todos(int count, int firstAuthor = 100)
{
    QJsonArray array;
    for (int i = 1; i <= count; ++i) {
        array.append(QJsonObject {{u"id"_s, i},
                                  {u"title"_s, u"todo %1"_s.arg(i)},
                                  {u"author"_s, QJsonObject {{u"id"_s, firstAuthor + i % 3}}}});
    }
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}
} // namespace

class tst_StoreMemo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void warmReadIsTheSameSharedValue()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(50)), at(1)).ok());
        const Denormalized first = store.denormalize(u"l"_s, todoList(), {});
        const Denormalized second = store.denormalize(u"l"_s, todoList(), {});
        QCOMPARE(first.data.toList().size(), 50);
        QCOMPARE(listData(first.data), listData(second.data)); // same d-pointer twice
        // entity reads are memoized too
        const Record a = recordOf(store.query(todoSchema(), {{u"id"_s, 7}}).data);
        const Record b = recordOf(store.query(todoSchema(), {{u"id"_s, 7}}).data);
        QVERIFY(a.isSharedWith(b));
        QVERIFY(a.isSharedWith(recordOf(first.data.toList().at(6))));
    }

    void changingOneEntityRecomputesOnlyItsDependents()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(30)), at(1)).ok());
        QVERIFY(store.setResponse(u"seven"_s, todoSchema(), {}, json(R"({"id": 7})"), at(1)).ok());
        QVERIFY(store.setResponse(u"eight"_s, todoSchema(), {}, json(R"({"id": 8})"), at(1)).ok());
        const QVariantList before = store.denormalize(u"l"_s, todoList(), {}).data.toList();
        const Record sevenBefore = recordOf(store.denormalize(u"seven"_s, todoSchema(), {}).data);
        const Record eightBefore = recordOf(store.denormalize(u"eight"_s, todoSchema(), {}).data);

        const StoreWrite write = store.setResponse(u"u"_s, todoSchema(), {},
                                                   json(R"({"id": 7, "title": "changed"})"), at(2));
        // ChangeSet content: the entity, the result written, and every result read that shows it
        QCOMPARE(write.changes.entities, (QSet<EntityRef> {{u"Todo"_s, u"7"_s}}));
        QCOMPARE(write.changes.results, (QSet<QString> {u"u"_s, u"l"_s, u"seven"_s}));

        const QVariantList after = store.denormalize(u"l"_s, todoList(), {}).data.toList();
        QCOMPARE(after.size(), before.size());
        for (int row = 0; row < after.size(); ++row) {
            const bool shared = recordOf(after.at(row)).isSharedWith(recordOf(before.at(row)));
            QCOMPARE(shared, row != 6); // only row 6 (todo 7) was re-read
        }
        QCOMPARE(recordOf(after.at(6)).value(u"title"_s), QVariant(u"changed"_s));
        QVERIFY(!recordOf(store.denormalize(u"seven"_s, todoSchema(), {}).data)
                     .isSharedWith(sevenBefore));
        QVERIFY(recordOf(store.denormalize(u"eight"_s, todoSchema(), {}).data)
                    .isSharedWith(eightBefore));
    }

    void changingANestedEntityReachesItsEmbedders()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(9)), at(1)).ok());
        const QVariantList before = store.denormalize(u"l"_s, todoList(), {}).data.toList();
        // author 101 writes todos 1, 4, 7 (i % 3 == 1)
        const StoreWrite write = store.setResponse(QString(), userSchema(), {},
                                                   json(R"({"id": 101, "name": "new"})"), at(2));
        QCOMPARE(write.changes.entities, (QSet<EntityRef> {{u"User"_s, u"101"_s}}));
        QCOMPARE(write.changes.results, QSet<QString> {u"l"_s});
        const QVariantList after = store.denormalize(u"l"_s, todoList(), {}).data.toList();
        for (int row = 0; row < after.size(); ++row) {
            const int id = row + 1;
            QCOMPARE(recordOf(after.at(row)).isSharedWith(recordOf(before.at(row))), id % 3 != 1);
        }
        QCOMPARE(recordOf(recordOf(after.at(0)).value(u"author"_s)).value(u"name"_s),
                 QVariant(u"new"_s));
    }

    void unrelatedWritesKeepIdentity()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(5)), at(1)).ok());
        const Denormalized before = store.denormalize(u"l"_s, todoList(), {});
        const StoreWrite other = store.setResponse(u"x"_s, todoList(), {{u"userId"_s, 3}},
                                                   json(R"([{"id": 99}])"), at(2));
        QVERIFY(!other.changes.results.contains(u"l"_s));
        QCOMPARE(listData(store.denormalize(u"l"_s, todoList(), {}).data), listData(before.data));
        // the same data again (a refetch) keeps identity as well
        QVERIFY(store.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(5)), at(3))
                    .changes.isEmpty());
        QCOMPARE(listData(store.denormalize(u"l"_s, todoList(), {}).data), listData(before.data));
    }

    void changeSetOfANewListNamesEveryEntity()
    {
        Store store;
        const StoreWrite write
            = store.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(3)), at(1));
        QSet<EntityRef> expected {{u"[Todo]"_s, u"{}"_s}};
        for (int i = 1; i <= 3; ++i)
            expected.insert({u"Todo"_s, QString::number(i)});
        for (int i = 100; i <= 102; ++i)
            expected.insert({u"User"_s, QString::number(i)});
        QCOMPARE(write.changes.entities, expected);
        QCOMPARE(write.changes.results, QSet<QString> {u"l"_s});
    }

    void readingWithAnotherSchemaRecomputes()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(2)), at(1)).ok());
        const Schema plainTodos = Schema::collection(Schema::entity(EntitySchema(u"Todo"_s)));
        const QVariantList plain = store.denormalize(u"l"_s, plainTodos, {}).data.toList();
        // without the nested schema the author stays its pk
        QCOMPARE(recordOf(plain.at(0)).value(u"author"_s).isNull(), true);
        const QVariantList nested = store.denormalize(u"l"_s, todoList(), {}).data.toList();
        QCOMPARE(recordOf(recordOf(nested.at(0)).value(u"author"_s)).pk(), u"101"_s);
    }

    void cyclesAreCutAndStillMemoized()
    {
        Store store;
        QVERIFY(store
                    .setResponse(u"user"_s, userSchema(), {},
                                 json(R"({"id": 1, "todos": [{"id": 5, "author": {"id": 1}}]})"),
                                 at(1))
                    .ok());
        const Denormalized first = store.denormalize(u"user"_s, userSchema(), {});
        const Record user = recordOf(first.data);
        const Record todo = recordOf(user.value(u"todos"_s).toList().value(0));
        QCOMPARE(todo.pk(), u"5"_s);
        const Record cut = recordOf(todo.value(u"author"_s));
        QCOMPARE(cut.pk(), u"1"_s);
        QVERIFY(cut.value(u"todos"_s).isNull());
        QVERIFY(recordOf(store.denormalize(u"user"_s, userSchema(), {}).data).isSharedWith(user));
    }
};

QTEST_GUILESS_MAIN(tst_StoreMemo)
#include "tst_storememo.moc"
