// The schema kinds beyond Entity/Array/Object/Collection: Union (items of several entity types),
// Values (maps keyed by id), All (every stored entity of a type), Query (memoized computations
// over them), unique-field lookups and the validate hook.
#include "storefixtures.h"

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {

Schema feedUser()
{
    static const Schema schema = Schema::entity(EntitySchema(u"FeedUser"_s));
    return schema;
}
EntitySchema feedEntity(const QString &key)
{
    return EntitySchema(key)
        .withField(u"createdAt"_s, Deserialize::dateTime())
        .withNested(u"actor"_s, feedUser());
}
Schema comment()
{
    static const Schema schema = Schema::entity(feedEntity(u"Comment"_s));
    return schema;
}
Schema like()
{
    static const Schema schema = Schema::entity(feedEntity(u"Like"_s));
    return schema;
}
Schema follow()
{
    static const Schema schema = Schema::entity(feedEntity(u"Follow"_s));
    return schema;
}
Schema feedItem()
{
    static const Schema schema
        = Schema::unionOf({{u"comment"_s, comment()}, {u"like"_s, like()}}, u"type"_s);
    return schema;
}

const char *const Feed = R"([
    {"id": 1, "type": "comment", "createdAt": "2024-12-31T23:55:51.678Z",
     "actor": {"id": 7, "name": "Ann"}, "text": "first", "postId": 4},
    {"id": 2, "type": "like", "createdAt": "2024-12-31T23:50:00.000Z",
     "actor": {"id": 8, "name": "Bob"}, "postId": 4},
    {"id": 3, "type": "comment", "createdAt": "2024-12-31T23:40:00.000Z",
     "actor": {"id": 7, "name": "Ann"}, "text": "third", "postId": 5}
])";

QStringList keysOf(const QVariant &list)
{
    QStringList keys;
    for (const QVariant &item : list.toList())
        keys.append(recordOf(item).entityKey() + u':' + recordOf(item).pk());
    return keys;
}

Schema todoWithCompleted()
{
    static const Schema schema = Schema::entity(EntitySchema(u"Task"_s));
    return schema;
}

QJsonArray tasks(int count)
{
    QJsonArray array;
    for (int i = 1; i <= count; ++i)
        array.append(QJsonObject {{u"id"_s, i}, {u"completed"_s, i % 3 == 0}});
    return array;
}

} // namespace

class tst_StoreKinds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unionInAnArrayReadsEachItemAsItsMember()
    {
        Store store;
        const Schema list = Schema::array(feedItem());
        QVERIFY(store.setResponse(u"feed"_s, list, {}, json(Feed), at(1)).ok());
        const QVariant data = store.denormalize(u"feed"_s, list, {}).data;
        QCOMPARE(keysOf(data), (QStringList {u"Comment:1"_s, u"Like:2"_s, u"Comment:3"_s}));
        const Record first = recordOf(data.toList().at(0));
        QCOMPARE(first.value(u"text"), u"first"_s);
        QCOMPARE(first.value(u"createdAt").metaType(), QMetaType::fromType<QDateTime>());
        QCOMPARE(recordOf(first.value(u"actor")).value(u"name"), u"Ann"_s);
        // the member type, from the field and from the schema
        QCOMPARE(first.value(u"type"), u"comment"_s);
        QCOMPARE(feedItem().unionMemberName(recordOf(data.toList().at(1)).entityKey()), u"like"_s);
        // one actor shared by both comments
        QVERIFY(recordOf(first.value(u"actor"))
                    .isSharedWith(recordOf(recordOf(data.toList().at(2)).value(u"actor"))));
        QCOMPARE(store.entityCount(u"Comment"_s), 2);
        QCOMPARE(store.entityCount(u"Like"_s), 1);
        QCOMPARE(store.entityCount(u"FeedUser"_s), 2);
    }

    void unionInACollectionFollowsItsMembers()
    {
        Store store;
        const Schema list = Schema::collection(Schema::array(feedItem()));
        QVERIFY(store.setResponse(u"feed"_s, list, {}, json(Feed), at(1)).ok());
        const QVariant before = store.denormalize(u"feed"_s, list, {}).data;
        QCOMPARE(keysOf(before), (QStringList {u"Comment:1"_s, u"Like:2"_s, u"Comment:3"_s}));
        QCOMPARE(recordOf(before.toList().at(2)).value(u"text"), u"third"_s);
        // the stored collection, read without the result
        QCOMPARE(keysOf(store.query(list, {}).data), keysOf(before));
        // one member changed by another request: its row changes, the others are the same
        QVERIFY(
            store.setResponse(u"c3"_s, comment(), {}, json(R"({"id": 3, "text": "edited"})"), at(2))
                .ok());
        const QVariant after = store.denormalize(u"feed"_s, list, {}).data;
        QCOMPARE(recordOf(after.toList().at(2)).value(u"text"), u"edited"_s);
        QVERIFY(recordOf(after.toList().at(0)).isSharedWith(recordOf(before.toList().at(0))));
        // push: a new item of either type joins the list
        const QJsonValue pushed
            = json(R"({"id": 9, "type": "like", "actor": {"id": 8, "name": "Bob"}})");
        QVERIFY(store.setResponse(QString(), list.push(), {}, pushed, at(3)).ok());
        QCOMPARE(keysOf(store.denormalize(u"feed"_s, list, {}).data).last(), u"Like:9"_s);
    }

    void twoUnionCollectionsWithTheSameArgumentsAreTwoLists()
    {
        Store store;
        const Schema other
            = Schema::unionOf({{u"comment"_s, comment()}, {u"follow"_s, follow()}}, u"type"_s);
        QVERIFY(feedItem().key() != other.key());
        const Schema a = Schema::collection(Schema::array(feedItem()));
        const Schema b = Schema::collection(Schema::array(other));
        QVERIFY(store.setResponse(u"a"_s, a, {}, json(Feed), at(1)).ok());
        QVERIFY(store
                    .setResponse(u"b"_s, b, {},
                                 json(R"([{"id": 5, "type": "follow", "targetUserId": 3}])"), at(2))
                    .ok());
        QCOMPARE(keysOf(store.query(a, {}).data).size(), 3);
        QCOMPARE(keysOf(store.query(b, {}).data), QStringList {u"Follow:5"_s});
        // the same definition under another name of the type field is another union too
        QVERIFY(Schema::unionOf({{u"comment"_s, comment()}, {u"like"_s, like()}}, u"kind"_s).key()
                != feedItem().key());
    }

    void unionsInObjectsValuesAndEntityFields()
    {
        Store store;
        const Schema notification
            = Schema::entity(EntitySchema(u"Notification"_s).withNested(u"subject"_s, feedItem()));
        const Schema schema = Schema::object({{u"latest"_s, feedItem()},
                                              {u"byId"_s, Schema::values(feedItem())},
                                              {u"notifications"_s, Schema::array(notification)}});
        const QJsonValue value = json(R"({
            "latest": {"id": 1, "type": "comment", "text": "hi"},
            "byId": {"2": {"id": 2, "type": "like"}, "1": {"id": 1, "type": "comment"}},
            "notifications": [{"id": "n1", "subject": {"id": 2, "type": "like"}}]
        })");
        QVERIFY(store.setResponse(u"o"_s, schema, {}, value, at(1)).ok());
        const QVariantMap read = store.denormalize(u"o"_s, schema, {}).data.toMap();
        QCOMPARE(recordOf(read.value(u"latest"_s)).entityKey(), u"Comment"_s);
        const QVariantMap byId = read.value(u"byId"_s).toMap();
        QCOMPARE(recordOf(byId.value(u"2"_s)).entityKey(), u"Like"_s);
        QCOMPARE(recordOf(byId.value(u"1"_s)).value(u"text"), u"hi"_s); // merged: one entity
        const Record note = recordOf(read.value(u"notifications"_s).toList().at(0));
        QCOMPARE(recordOf(note.value(u"subject")).entityKey(), u"Like"_s);
    }

    void anUnknownUnionTypeIsRefusedAndWritesNothing_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::newRow("array") << Schema::array(feedItem());
        QTest::newRow("collection") << Schema::collection(Schema::array(feedItem()));
        QTest::newRow("values") << Schema::values(feedItem());
    }
    void anUnknownUnionTypeIsRefusedAndWritesNothing()
    {
        QFETCH(Schema, schema);
        Store store;
        const bool map = schema.kind() == Schema::Kind::Values;
        const QJsonValue value = map ? json(R"({"a": {"id": 1, "type": "comment"},
                                                "b": {"id": 2, "type": "share"}})")
                                     : json(R"([{"id": 1, "type": "comment"},
                                                {"id": 2, "type": "share"}])");
        const StoreWrite write = store.setResponse(u"feed"_s, schema, {}, value, at(1));
        QVERIFY(!write.ok());
        const QString message = write.error->message();
        QVERIFY2(message.contains(u"\"share\""_s), qPrintable(message));
        QVERIFY2(message.contains(u"\"comment\", \"like\""_s), qPrintable(message));
        QVERIFY2(message.contains(u"type"_s), qPrintable(message));
        QCOMPARE(store.entityCount(), 0);
        QVERIFY(!store.hasResult(u"feed"_s));
        // a value without the field, and a value that is no object
        QVERIFY(!store.setResponse(u"x"_s, feedItem(), {}, json(R"({"id": 1})"), at(1)).ok());
        QVERIFY(!store.setResponse(u"x"_s, feedItem(), {}, QJsonValue(5), at(1)).ok());
        QCOMPARE(store.entityCount(), 0);
    }

    void aUnionCanPickItsMemberWithAFunction()
    {
        Store store;
        const Schema picked
            = Schema::unionOf({{u"comment"_s, comment()}, {u"like"_s, like()}},
                              [](const QJsonObject &value, const QJsonValue &) {
                                  return value.contains(u"text"_s) ? u"comment"_s : u"like"_s;
                              });
        const Schema list = Schema::collection(Schema::array(picked));
        QVERIFY(store
                    .setResponse(u"l"_s, list, {}, json(R"([{"id": 1, "text": "t"}, {"id": 2}])"),
                                 at(1))
                    .ok());
        QCOMPARE(keysOf(store.denormalize(u"l"_s, list, {}).data),
                 (QStringList {u"Comment:1"_s, u"Like:2"_s}));
        QVERIFY(!picked.normalizesAnywhere()); // the function may be JS: GUI thread
        QVERIFY(feedItem().normalizesAnywhere() == Schema::array(feedUser()).normalizesAnywhere());
    }

    void valuesKeepTheirKeys()
    {
        Store store;
        const Schema users = Schema::values(feedUser());
        const QJsonValue value = json(R"({"12": {"id": 12, "name": "Ann"},
                                          "7": {"id": 7, "name": "Bob"},
                                          "-3": {"id": -3, "name": "Cy"}})");
        QVERIFY(store.setResponse(u"u"_s, users, {}, value, at(1)).ok());
        const QVariantMap read = store.denormalize(u"u"_s, users, {}).data.toMap();
        QCOMPARE(read.keys(), (QStringList {u"-3"_s, u"12"_s, u"7"_s}));
        QCOMPARE(recordOf(read.value(u"12"_s)).value(u"name"), u"Ann"_s);
        QCOMPARE(store.entityCount(u"FeedUser"_s), 3);
        // plain values, and a map nested in an entity
        const Schema scores = Schema::values(Schema());
        QVERIFY(
            store.setResponse(u"s"_s, scores, {}, json(R"({"1": 5, "2": true, "x": null})"), at(1))
                .ok());
        const QVariantMap plain = store.denormalize(u"s"_s, scores, {}).data.toMap();
        QCOMPARE(plain.value(u"1"_s).toInt(), 5);
        QCOMPARE(plain.value(u"2"_s).toBool(), true);
        const Schema team = Schema::entity(
            EntitySchema(u"Team"_s).withNested(u"members"_s, Schema::values(feedUser())));
        QVERIFY(store
                    .setResponse(u"t"_s, team, {},
                                 json(R"({"id": 1, "members": {"7": {"id": 7, "name": "Bo"}}})"),
                                 at(2))
                    .ok());
        const Record read7 = recordOf(recordOf(store.denormalize(u"t"_s, team, {}).data)
                                          .value(u"members")
                                          .toMap()
                                          .value(u"7"_s));
        QCOMPARE(read7.value(u"name"), u"Bo"_s);
        // the map follows its entities
        QCOMPARE(recordOf(store.denormalize(u"u"_s, users, {}).data.toMap().value(u"7"_s))
                     .value(u"name"),
                 u"Bo"_s);
        // not an object
        QVERIFY(!store.setResponse(u"bad"_s, users, {}, json("[1]"), at(3)).ok());
    }

    void allFollowsEntitiesFromAnyRequest()
    {
        Store store;
        const Schema all = Schema::all(todoSchema());
        QCOMPARE(store.query(all, {}).data.toList().size(), 0); // nothing stored yet
        QVERIFY(store.setResponse(u"l"_s, todoList(), {}, json(R"([{"id": 2}, {"id": 1}])"), at(1))
                    .ok());
        QCOMPARE(ids(store.query(all, {}).data), (QStringList {u"2"_s, u"1"_s}));
        // a single entity answer, and one nested in another entity
        QVERIFY(store.setResponse(u"t5"_s, todoSchema(), {}, json(R"({"id": 5})"), at(2)).ok());
        QVERIFY(store
                    .setResponse(u"u"_s, userSchema(), {},
                                 json(R"({"id": 1, "todos": [{"id": 7}]})"), at(3))
                    .ok());
        const QVariant now = store.query(all, {}).data;
        QCOMPARE(ids(now), (QStringList {u"2"_s, u"1"_s, u"5"_s, u"7"_s}));
        // warm: the same shared list
        QCOMPARE(store.query(all, {}).data.toList().constData(), now.toList().constData());
        // ordered, and an entity removed
        const Schema byPk = Schema::all(todoSchema(), [](const Record &a, const Record &b) {
            return a.pk().toInt() < b.pk().toInt();
        });
        QCOMPARE(ids(store.query(byPk, {}).data), (QStringList {u"1"_s, u"2"_s, u"5"_s, u"7"_s}));
        store.removeEntity(EntityRef {u"Todo"_s, u"2"_s});
        QCOMPARE(ids(store.query(byPk, {}).data), (QStringList {u"1"_s, u"5"_s, u"7"_s}));
    }

    void aCountQueryEvaluatesOnlyTheChangedEntity()
    {
        Store store;
        int evaluations = 0;
        const Schema done = Schema::queryCount(Schema::all(todoWithCompleted()),
                                               [&evaluations](const Record &task) {
                                                   ++evaluations;
                                                   return task.value(u"completed").toBool();
                                               });
        const Schema list = Schema::collection(Schema::array(todoWithCompleted()));
        QVERIFY(store.setResponse(u"l"_s, list, {}, QJsonValue(tasks(1000)), at(1)).ok());
        QCOMPARE(store.query(done, {}).data.toLongLong(), 333);
        QCOMPARE(evaluations, 1000);
        QCOMPARE(store.query(done, {}).data.toLongLong(), 333); // warm: nothing evaluated
        QCOMPARE(evaluations, 1000);
        // one toggled: one evaluation
        QVERIFY(store
                    .setResponse(u"t"_s, todoWithCompleted(), {},
                                 json(R"({"id": 1, "completed": true})"), at(2))
                    .ok());
        QCOMPARE(store.query(done, {}).data.toLongLong(), 334);
        QCOMPARE(evaluations, 1001);
        // another type changed: nothing evaluated
        QVERIFY(store.setResponse(u"u"_s, feedUser(), {}, json(R"({"id": 1})"), at(3)).ok());
        QCOMPARE(store.query(done, {}).data.toLongLong(), 334);
        QCOMPARE(evaluations, 1001);
        // a new entity, a removed one
        QVERIFY(store
                    .setResponse(u"n"_s, todoWithCompleted(), {},
                                 json(R"({"id": 5000, "completed": true})"), at(4))
                    .ok());
        store.removeEntity(EntityRef {u"Task"_s, u"3"_s});
        QCOMPARE(store.query(done, {}).data.toLongLong(), 334); // +1 new, -1 removed
        QCOMPARE(evaluations, 1002); // the new one tested; the removed one no longer counts
    }

    void aQueryComputesOnlyWhenItsInputChanged()
    {
        Store store;
        int computations = 0;
        const Schema openTitles
            = Schema::query(Schema::all(todoSchema()), [&computations](const QVariant &todos) {
                  ++computations;
                  QStringList titles;
                  for (const QVariant &todo : todos.toList()) {
                      if (!recordOf(todo).value(u"completed").toBool())
                          titles.append(recordOf(todo).value(u"title").toString());
                  }
                  titles.sort();
                  return QVariant(titles);
              });
        QVERIFY(store
                    .setResponse(u"l"_s, todoList(), {}, json(R"([
            {"id": 1, "title": "b"}, {"id": 2, "title": "a", "completed": true},
            {"id": 3, "title": "c"}])"),
                                 at(1))
                    .ok());
        QCOMPARE(store.query(openTitles, {}).data.toStringList(), (QStringList {u"b"_s, u"c"_s}));
        QCOMPARE(store.query(openTitles, {}).data.toStringList().size(), 2);
        QCOMPARE(computations, 1);
        QVERIFY(store.setResponse(u"x"_s, feedUser(), {}, json(R"({"id": 1})"), at(2)).ok());
        store.query(openTitles, {});
        QCOMPARE(computations, 1);
        QVERIFY(store
                    .setResponse(u"t"_s, todoSchema(), {}, json(R"({"id": 2, "completed": false})"),
                                 at(3))
                    .ok());
        QCOMPARE(store.query(openTitles, {}).data.toStringList(),
                 (QStringList {u"a"_s, u"b"_s, u"c"_s}));
        QCOMPARE(computations, 2);
        // a Query of a Query: the outer one computes only when the inner one's value changed
        int outer = 0;
        const Schema count = Schema::query(openTitles, [&outer](const QVariant &titles) {
            ++outer;
            return QVariant(titles.toStringList().size());
        });
        QCOMPARE(store.query(count, {}).data.toInt(), 3);
        QVERIFY(
            store.setResponse(u"t"_s, todoSchema(), {}, json(R"({"id": 2, "note": "n"})"), at(4))
                .ok());
        QCOMPARE(store.query(count, {}).data.toInt(), 3);
        QCOMPARE(outer, 1); // the titles computed again, equal: the count not
        QCOMPARE(computations, 3);
        // All and Query are read-only: writing with one is a SchemaError
        QVERIFY(!store.setResponse(u"w"_s, count, {}, json("[]"), at(5)).ok());
    }

    void aUniqueFieldFindsTheEntityBeforeAnyRequest()
    {
        Store store;
        const Schema user
            = Schema::entity(EntitySchema(u"Member"_s).withIndexes({u"username"_s, u"slug"_s}));
        QVERIFY(store
                    .setResponse(u"l"_s, Schema::array(user), {}, json(R"([
            {"id": 1, "username": "ann", "slug": "a-1"},
            {"id": 2, "username": "bob", "slug": 7}])"),
                                 at(1))
                    .ok());
        QCOMPARE(recordOf(store.query(user, {{u"username"_s, u"bob"_s}}).data).pk(), u"2"_s);
        QCOMPARE(recordOf(store.query(user, {{u"slug"_s, 7}}).data).pk(), u"2"_s);
        QVERIFY(!store.query(user, {{u"username"_s, u"cy"_s}}).found);
        // the index follows a change of the field
        QVERIFY(store.setResponse(u"1"_s, user, {}, json(R"({"id": 1, "username": "anne"})"), at(2))
                    .ok());
        QVERIFY(!store.query(user, {{u"username"_s, u"ann"_s}}).found);
        QCOMPARE(recordOf(store.query(user, {{u"username"_s, u"anne"_s}}).data).pk(), u"1"_s);
        // not an index: not looked up
        QVERIFY(!store.query(user, {{u"name"_s, u"x"_s}}).found);
        // a pk still wins
        QCOMPARE(recordOf(store.query(user, {{u"id"_s, 1}, {u"username"_s, u"bob"_s}}).data).pk(),
                 u"1"_s);
    }

    void validateRefusesAnAnswerLackingAField_data()
    {
        QTest::addColumn<bool>("nested");
        QTest::newRow("top") << false;
        QTest::newRow("nested in a list") << true;
    }
    void validateRefusesAnAnswerLackingAField()
    {
        QFETCH(bool, nested);
        Store store;
        const Schema post
            = Schema::entity(EntitySchema(u"Post"_s).withValidate([](const QJsonObject &value) {
                  return value.value(u"title"_s).isString() ? QString() : u"title"_s;
              }));
        const Schema schema = nested ? Schema::array(post) : post;
        QVERIFY(store
                    .setResponse(u"ok"_s, schema, {},
                                 nested ? json(R"([{"id": 1, "title": "t"}])")
                                        : json(R"({"id": 1, "title": "t"})"),
                                 at(1))
                    .ok());
        const StoreWrite refused
            = store.setResponse(u"bad"_s, schema, {},
                                nested ? json(R"([{"id": 2, "title": "u"}, {"id": 1, "title": 5}])")
                                       : json(R"({"id": 1, "title": 5})"),
                                at(2));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error->message().contains(u"title"_s),
                 qPrintable(refused.error->message()));
        QCOMPARE(refused.error->path(), nested ? u"[1].title"_s : u"title"_s);
        QCOMPARE(store.entityCount(u"Post"_s), 1);
        QCOMPARE(store.entity(EntityRef {u"Post"_s, u"1"_s})->value(u"title"_s).toString(), u"t"_s);
        QVERIFY(!store.hasResult(u"bad"_s));
        QVERIFY(!post.normalizesAnywhere()); // the hook may be JS: GUI thread
    }
};

QTEST_GUILESS_MAIN(tst_StoreKinds)
#include "tst_storekinds.moc"
