// The questions every layer asks of a schema, answered by one walk: the keys
// it reaches, where its list is, whether it normalizes off the GUI thread, what a call resolves
// with. Schemas that refer to each other are walked once per entity type.
#include <DataClient/deserializer.h>
#include <DataClient/schema.h>
#include <DataClient/schemavisit.h>

#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(DataClient::Schema)

namespace {

Schema user();

// Todo.author -> User, User.todos -> [Todo]: a cycle, resolved lazily.
Schema todo()
{
    return Schema::entity(EntitySchema(u"Todo"_s).withNested(u"author"_s, [] { return user(); }));
}

Schema user()
{
    return Schema::entity(
        EntitySchema(u"User"_s).withNested(u"todos"_s, [] { return Schema::array(todo()); }));
}

Schema list()
{
    return Schema::collection(Schema::array(todo()));
}

Schema wrapped(const Schema &collection)
{
    return Schema::object({{u"results"_s, collection}, {u"total"_s, Schema()}});
}

QStringList sorted(const QSet<QString> &keys)
{
    QStringList list(keys.cbegin(), keys.cend());
    list.sort();
    return list;
}

// Names the kind, through the one switch.
struct KindName
{
    QString none() const { return u"none"_s; }
    QString entity(const EntitySchema &e) const { return u"entity "_s + e.key(); }
    QString invalidate(const EntitySchema &e) const { return u"invalidate "_s + e.key(); }
    QString array(const Schema &item) const { return u"array of "_s + item.key(); }
    QString collection(const Schema &c) const { return u"collection "_s + c.key(); }
    QString object(const QHash<QString, Schema> &fields) const
    {
        return u"object of %1 fields"_s.arg(fields.size());
    }
    QString unionOf(const Schema &u) const { return u"union "_s + u.key(); }
    QString values(const Schema &item) const { return u"values of "_s + item.key(); }
    QString all(const Schema &a) const { return u"all "_s + a.key(); }
    QString query(const Schema &q) const { return u"query "_s + q.key(); }
};

} // namespace

class tst_SchemaWalk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void visitSchemaCallsTheMemberOfTheKind_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::addColumn<QString>("called");
        QTest::newRow("none") << Schema() << u"none"_s;
        QTest::newRow("entity") << todo() << u"entity Todo"_s;
        QTest::newRow("invalidate") << Schema::invalidate(todo()) << u"invalidate Todo"_s;
        QTest::newRow("array") << Schema::array(todo()) << u"array of Todo"_s;
        QTest::newRow("collection") << list() << u"collection [Todo]"_s;
        QTest::newRow("object") << wrapped(list()) << u"object of 2 fields"_s;
        const Schema tag = Schema::entity(EntitySchema(u"Tag"_s));
        QTest::newRow("union") << Schema::unionOf({{u"todo"_s, todo()}, {u"tag"_s, tag}}, u"t"_s)
                               << u"union Union(todo:Todo,tag:Tag;.t)"_s;
        QTest::newRow("values") << Schema::values(tag) << u"values of Tag"_s;
        QTest::newRow("all") << Schema::all(tag) << u"all All(Tag)"_s;
        QTest::newRow("query") << Schema::query(Schema::all(tag), {}) << u"query Query(All(Tag))"_s;
    }
    void visitSchemaCallsTheMemberOfTheKind()
    {
        QFETCH(Schema, schema);
        QFETCH(QString, called);
        QCOMPARE(visitSchema(schema, KindName {}), called);
    }

    void reachedKeys_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::addColumn<QStringList>("keys");
        QTest::newRow("none") << Schema() << QStringList();
        QTest::newRow("entity and its cycle") << todo() << QStringList {u"Todo"_s, u"User"_s};
        QTest::newRow("collection") << list() << QStringList {u"Todo"_s, u"User"_s, u"[Todo]"_s};
        QTest::newRow("wrapped collection")
            << wrapped(list()) << QStringList {u"Todo"_s, u"User"_s, u"[Todo]"_s};
        QTest::newRow("invalidate")
            << Schema::invalidate(Schema::entity(EntitySchema(u"Tag"_s))) << QStringList {u"Tag"_s};
        // a union reaches its members (and their nested entities); a map, an All its items
        const Schema tag = Schema::entity(EntitySchema(u"Tag"_s));
        QTest::newRow("union in a collection")
            << Schema::collection(Schema::unionOf({{u"todo"_s, todo()}, {u"tag"_s, tag}}, u"t"_s))
            << QStringList {u"Tag"_s, u"Todo"_s, u"User"_s, u"[Union(todo:Todo,tag:Tag;.t)]"_s};
        QTest::newRow("values") << Schema::values(tag) << QStringList {u"Tag"_s};
        QTest::newRow("count over all")
            << Schema::queryCount(Schema::all(tag), {}) << QStringList {u"Tag"_s};
    }
    void reachedKeys()
    {
        QFETCH(Schema, schema);
        QFETCH(QStringList, keys);
        QCOMPARE(sorted(schema.reachedKeys()), keys);
    }

    void theWalkEntersEachEntityOnceAndCanStop()
    {
        int entities = 0;
        list().walk([&entities](const Schema &schema) {
            entities += schema.kind() == Schema::Kind::Entity ? 1 : 0;
            return true;
        });
        QCOMPARE(entities, 2); // Todo, User (Todo again under User.todos is not entered)
        int visited = 0;
        list().walk([&visited](const Schema &) {
            ++visited;
            return false; // nothing below the collection
        });
        QCOMPARE(visited, 1);
    }

    void whereTheListIs_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::addColumn<QString>("field");
        QTest::addColumn<bool>("hasList");
        QTest::addColumn<QString>("rowEntity");
        QTest::newRow("collection") << list() << QString() << true << u"Todo"_s;
        QTest::newRow("array") << Schema::array(todo()) << QString() << true << u"Todo"_s;
        QTest::newRow("wrapped") << wrapped(list()) << u"results"_s << true << u"Todo"_s;
        QTest::newRow("wrapped plain array")
            << Schema::object({{u"items"_s, Schema::array(todo())}}) << u"items"_s << true
            << u"Todo"_s;
        QTest::newRow("collection of arrays")
            << Schema::collection(Schema::array(Schema::array(todo()))) << QString() << true
            << u"Todo"_s;
        QTest::newRow("entity") << todo() << QString() << false << QString();
        QTest::newRow("none") << Schema() << QString() << false << QString();
    }
    void whereTheListIs()
    {
        QFETCH(Schema, schema);
        QFETCH(QString, field);
        QFETCH(bool, hasList);
        QFETCH(QString, rowEntity);
        QCOMPARE(schema.listField(), field);
        QCOMPARE(!schema.listSchema().isNull(), hasList);
        QCOMPARE(schema.rowEntity().key(), rowEntity);
    }

    void normalizesAnywhere_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::addColumn<bool>("anywhere");
        const EntitySchema plain(u"Plain"_s);
        QTest::newRow("none") << Schema() << true;
        QTest::newRow("a cycle of plain entities") << list() << true;
        QTest::newRow("built-in deserializer")
            << Schema::entity(plain.withField(u"at"_s, Deserialize::dateTime())) << true;
        QTest::newRow("pk function")
            << Schema::entity(EntitySchema(u"F"_s, [](const QJsonObject &) { return u"1"_s; }))
            << false;
        QTest::newRow("custom deserializer") << Schema::entity(plain.withField(
            u"x"_s, Deserializer(u"anything"_s, [](const QJsonValue &v) { return v.toVariant(); })))
                                             << false;
        QTest::newRow("a process hook deep in a wrapper")
            << wrapped(Schema::collection(Schema::entity(plain.withProcess(
                   [](const QJsonObject &v, const QJsonValue &, const Params &) { return v; }))))
            << false;
    }
    void normalizesAnywhere()
    {
        QFETCH(Schema, schema);
        QFETCH(bool, anywhere);
        QCOMPARE(schema.normalizesAnywhere(), anywhere);
    }

    void answerSchema_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::addColumn<bool>("answerIsList");
        QTest::addColumn<QString>("answer");
        QTest::newRow("getList: itself") << list() << true << u"collection [Todo]"_s;
        QTest::newRow("get: itself") << todo() << false << u"entity Todo"_s;
        QTest::newRow("push: the entity") << list().push() << false << u"entity Todo"_s;
        QTest::newRow("unshift of a list: the entities")
            << list().unshift() << true << u"array of Todo"_s;
        QTest::newRow("getPage: the page") << list().paginated() << true << u"array of Todo"_s;
        QTest::newRow("delete: itself")
            << Schema::invalidate(todo()) << false << u"invalidate Todo"_s;
    }
    void answerSchema()
    {
        QFETCH(Schema, schema);
        QFETCH(bool, answerIsList);
        QFETCH(QString, answer);
        QCOMPARE(visitSchema(schema.answerSchema(answerIsList), KindName {}), answer);
    }

    void aWrappedPageAnswersWithTheWrapper()
    {
        const Schema page = wrapped(list()).paginated();
        const Schema answer = page.answerSchema();
        QCOMPARE(answer.kind(), Schema::Kind::Object);
        QCOMPARE(answer.fields().value(u"results"_s).kind(), Schema::Kind::Array);
        const Schema getList = wrapped(list());
        QCOMPARE(getList.answerSchema(), getList); // unchanged
    }
};

QTEST_GUILESS_MAIN(tst_SchemaWalk)
#include "tst_schemawalk.moc"
