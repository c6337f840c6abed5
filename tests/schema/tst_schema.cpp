// Schema composition: kinds, keys, collection variants (docs/schemas.md).
#include <DataClient/schema.h>

#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

class tst_Schema : public QObject
{
    Q_OBJECT

    const Schema todo = Schema::entity(EntitySchema(u"Todo"_s));

private Q_SLOTS:
    void kindsAndKeys()
    {
        QCOMPARE(Schema().kind(), Schema::Kind::None);
        QVERIFY(Schema().isNull());
        QCOMPARE(todo.kind(), Schema::Kind::Entity);
        QCOMPARE(todo.key(), u"Todo"_s);
        QCOMPARE(todo.entitySchema().pkField(), u"id"_s);
        const Schema array = Schema::array(todo);
        QCOMPARE(array.kind(), Schema::Kind::Array);
        QCOMPARE(array.key(), u"[Todo]"_s);
        QCOMPARE(array.itemSchema(), todo);
        const Schema list = Schema::collection(array);
        QCOMPARE(list.kind(), Schema::Kind::Collection);
        QCOMPARE(list.key(), u"[Todo]"_s);
        QCOMPARE(list.itemSchema(), todo);
        QCOMPARE(Schema::collection(todo).itemSchema(), todo); // the item alone works too
        QVERIFY(list.collectionType());
        QCOMPARE(list.collectionMode(), Schema::CollectionMode::Replace);
        const Schema del = Schema::invalidate(todo);
        QCOMPARE(del.kind(), Schema::Kind::Invalidate);
        QCOMPARE(del.entitySchema(), todo.entitySchema());
        const Schema wrapper = Schema::object({{u"results"_s, list}, {u"total"_s, Schema()}});
        QCOMPARE(wrapper.kind(), Schema::Kind::Object);
        QCOMPARE(wrapper.fields().size(), 2);
        QCOMPARE(wrapper.collectionField(), u"results"_s);
        QCOMPARE(wrapper.collectionSchema(), list);
        QCOMPARE(wrapper.key(), u"[Todo]"_s);
    }

    void collectionVariants()
    {
        const Schema list = Schema::collection(Schema::array(todo));
        QCOMPARE(list.push().collectionMode(), Schema::CollectionMode::Push);
        QCOMPARE(list.unshift().collectionMode(), Schema::CollectionMode::Unshift);
        QCOMPARE(list.remove().collectionMode(), Schema::CollectionMode::Remove);
        QCOMPARE(list.paginated().collectionMode(), Schema::CollectionMode::AddWith);
        QVERIFY(list.paginated().collectionMerge());
        QCOMPARE(list.paginated().collectionMerge()({u"1"_s, u"2"_s}, {u"2"_s, u"3"_s}),
                 (QStringList {u"1"_s, u"2"_s, u"3"_s}));
        // variants are new values: the original is unchanged
        QCOMPARE(list.collectionMode(), Schema::CollectionMode::Replace);
        QVERIFY(list.push() != list);
        QCOMPARE(list.push().key(), list.key());
        const auto filter
            = [](const Params &, const Params &, const QJsonObject &) { return true; };
        const Schema custom
            = list.addWith([](const QStringList &a, const QStringList &) { return a; }, filter);
        QVERIFY(custom.collectionFilter());
        QCOMPARE(custom.collectionMode(), Schema::CollectionMode::AddWith);
    }

    void variantsOfAnObjectWrapper()
    {
        const Schema list = Schema::collection(Schema::array(todo));
        const Schema wrapper = Schema::object({{u"results"_s, list}, {u"total"_s, Schema()}});
        // push/unshift/remove responses are entities: the collection's variant itself
        QCOMPARE(wrapper.push().kind(), Schema::Kind::Collection);
        QCOMPARE(wrapper.unshift().collectionMode(), Schema::CollectionMode::Unshift);
        QCOMPARE(wrapper.remove().collectionMode(), Schema::CollectionMode::Remove);
        // a page has the wrapper's shape
        const Schema page = wrapper.paginated();
        QCOMPARE(page.kind(), Schema::Kind::Object);
        QCOMPARE(page.collectionMode(), Schema::CollectionMode::AddWith);
        QCOMPARE(page.fields().value(u"total"_s).kind(), Schema::Kind::None);
    }

    void variantsOfOtherSchemasAreUnchanged()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"need a Collection schema"_s));
        QCOMPARE(todo.push(), todo);
    }

    void copiesCompareEqual()
    {
        const Schema copy = todo;
        QCOMPARE(copy, todo);
        QVERIFY(Schema::entity(EntitySchema(u"Todo"_s)) != todo); // separately built
    }
};

QTEST_GUILESS_MAIN(tst_Schema)
#include "tst_schema.moc"
