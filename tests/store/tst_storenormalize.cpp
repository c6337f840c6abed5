// Normalizing responses into the store and reading them back: entities, nesting, arrays,
// wrappers, merges and the race rule.
#include "normalizer_p.h"
#include "storefixtures.h"
#include "utcdatetime.h"

#include <DataClient/rowlist.h>

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

class tst_StoreNormalize : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Collection([Todo]) with args {userId: "1"}: the list is keyed by its arguments, the
    // entity goes to the entity table
    void collectionIdentityAndEntityTable()
    {
        Store store;
        const Params args {{u"userId"_s, u"1"_s}};
        const StoreWrite write = store.setResponse(u"list"_s, todoList(), args,
                                                   json(R"([{"id": "5", "title": "x"}])"), at(1));
        QVERIFY(write.ok());
        QCOMPARE(*store.entity({u"Todo"_s, u"5"_s}),
                 json(R"({"id": "5", "title": "x"})").toObject());
        const Denormalized list = store.query(todoList(), args);
        QVERIFY(list.found);
        QCOMPARE(ids(list.data), QStringList {u"5"_s});
        QVERIFY(write.changes.entities.contains({u"[Todo]"_s, uR"({"userId":"1"})"_s}));
        QVERIFY(write.changes.entities.contains({u"Todo"_s, u"5"_s}));
        QCOMPARE(write.changes.results, QSet<QString> {u"list"_s});
    }

    void entityResultWithNestedEntityAndDates()
    {
        Store store;
        const auto value = json(R"({"id": 1, "title": "a", "createdAt": "2023-05-15T15:36:43.144Z",
                                    "author": {"id": 25, "username": "victor25",
                                               "address": {"city": "Zürich", "zip": "52363"}}})");
        QVERIFY(store.setResponse(u"get"_s, todoSchema(), {}, value, at(1)).ok());
        // the author is its own entity; the todo refers to it by pk
        QCOMPARE(store.entity({u"Todo"_s, u"1"_s})->value(u"author"_s), QJsonValue(u"25"_s));
        QCOMPARE(store.entity({u"User"_s, u"25"_s})->value(u"username"_s),
                 QJsonValue(u"victor25"_s));

        const Denormalized read = store.denormalize(u"get"_s, todoSchema(), {});
        QVERIFY(read.found);
        QVERIFY(read.missing.isEmpty());
        const Record todo = recordOf(read.data);
        QCOMPARE(todo.entityKey(), u"Todo"_s);
        QCOMPARE(todo.pk(), u"1"_s);
        QCOMPARE(todo.value(u"title"_s), QVariant(u"a"_s));
        QCOMPARE(todo.value(u"createdAt"_s).toDateTime(),
                 utcDateTime(QDate(2023, 5, 15), QTime(15, 36, 43, 144)));
        const Record author = recordOf(todo.value(u"author"_s));
        QCOMPARE(author.value(u"username"_s), QVariant(u"victor25"_s));
        QCOMPARE(author.value(u"address"_s).toMap().value(u"city"_s), QVariant(u"Zürich"_s));
        // plain-map view for QML and generic code
        QCOMPARE(read.data.toMap().value(u"author"_s).toMap().value(u"id"_s), QVariant(25.0));
        QCOMPARE(todo.keys(), (QStringList {u"author"_s, u"createdAt"_s, u"id"_s, u"title"_s}));
        // by position, as views iterate
        QCOMPARE(todo.size(), 4);
        QCOMPARE(todo.keyAt(1), u"createdAt"_s);
        QCOMPARE(todo.valueAt(1), todo.value(u"createdAt"_s));
        QVERIFY(recordOf(todo.valueAt(0)).isSharedWith(recordOf(todo.value(u"author"_s))));
        QVERIFY(!todo.valueAt(4).isValid());
    }

    void listOfEntitiesInsideAnEntity()
    {
        Store store;
        const Schema tag = Schema::entity(EntitySchema(u"Tag"_s, u"name"_s));
        const Schema post
            = Schema::entity(EntitySchema(u"Post"_s).withNested(u"tags"_s, Schema::array(tag)));
        QVERIFY(store
                    .setResponse(
                        u"p"_s, post, {},
                        json(R"({"id": 1, "tags": [{"name": "qt", "n": 1}, {"name": "c++"}]})"),
                        at(1))
                    .ok());
        QCOMPARE(store.entityCount(u"Tag"_s), 2);
        const Record record = recordOf(store.denormalize(u"p"_s, post, {}).data);
        const QVariantList tags = record.value(u"tags"_s).toList();
        QCOMPARE(tags.size(), 2);
        QCOMPARE(recordOf(tags.at(0)).value(u"n"_s), QVariant(1.0));
        QCOMPARE(recordOf(tags.at(1)).pk(), u"c++"_s);
    }

    void manyShapesAndNestedListsInOneResponse()
    {
        // 300 users of 300 different shapes, each with its own nested list of todos: past the
        // few tables, plans and lists a response usually holds (linear searches give way to
        // hashes there), and past the field plans a schema keeps (fields read by name).
        constexpr int Users = 300;
        Store store;
        QJsonArray users;
        for (int i = 0; i < Users; ++i) {
            QJsonObject user {{u"id"_s, i},
                              {u"f%1"_s.arg(i), i},
                              {u"todos"_s, QJsonArray {QJsonObject {{u"id"_s, 100 + i}}}}};
            users.append(user);
        }
        const Schema list = Schema::array(userSchema());
        QVERIFY(store.setResponse(u"u"_s, list, {}, users, at(1)).ok());
        QCOMPARE(store.entityCount(u"User"_s), Users);
        QCOMPARE(store.entityCount(u"Todo"_s), Users);
        const QVariantList rows = store.denormalize(u"u"_s, list, {}).data.toList();
        QCOMPARE(rows.size(), Users);
        for (int i = 0; i < Users; ++i) {
            const Record user = recordOf(rows.at(i));
            QCOMPARE(user.value(u"f%1"_s.arg(i)), QVariant(double(i)));
            const QVariantList todos = user.value(u"todos"_s).toList();
            QCOMPARE(todos.size(), 1);
            QCOMPARE(recordOf(todos.at(0)).pk(), QString::number(100 + i));
        }
    }

    void plainArrayAndNoneSchema()
    {
        Store store;
        QVERIFY(store
                    .setResponse(u"a"_s, Schema::array(todoSchema()), {},
                                 json(R"([{"id": 1}, {"id": 2}])"), at(1))
                    .ok());
        QCOMPARE(ids(store.denormalize(u"a"_s, Schema::array(todoSchema()), {}).data),
                 (QStringList {u"1"_s, u"2"_s}));
        QVERIFY(store.setResponse(u"raw"_s, Schema(), {}, json(R"({"x": [1, "y"]})"), at(1)).ok());
        QCOMPARE(store.denormalize(u"raw"_s, Schema(), {}).data,
                 QVariant(QVariantMap {{u"x"_s, QVariantList {1.0, u"y"_s}}}));
    }

    // A wrapper: {results: Collection, total, ...}
    void objectWrapper()
    {
        Store store;
        const Schema wrapper = Schema::object({{u"results"_s, todoList()}});
        QVERIFY(store
                    .setResponse(
                        u"w"_s, wrapper, {},
                        json(R"({"results": [{"id": 1}, {"id": 2}], "total": 40, "limit": 2})"),
                        at(1))
                    .ok());
        const QVariantMap read = store.denormalize(u"w"_s, wrapper, {}).data.toMap();
        QCOMPARE(read.value(u"total"_s), QVariant(40.0));
        QCOMPARE(ids(read.value(u"results"_s)), (QStringList {u"1"_s, u"2"_s}));
        // the wrapped collection is stored like getList's
        QCOMPARE(ids(store.query(wrapper, {}).data), (QStringList {u"1"_s, u"2"_s}));
    }

    // Nested plain objects are replaced whole, other fields kept
    void shallowMergeReplacesNestedObjectsWhole()
    {
        Store store;
        const Schema thing = Schema::entity(EntitySchema(u"Thing"_s));
        QVERIFY(store
                    .setResponse(u"a"_s, thing, {},
                                 json(R"({"id": "5", "complexThing": {"arg": 88}, "extra": "hi"})"),
                                 at(1))
                    .ok());
        QVERIFY(store
                    .setResponse(u"b"_s, thing, {},
                                 json(R"({"id": "5", "complexThing": {"firstvalue": 5}})"), at(2))
                    .ok());
        QCOMPARE(
            *store.entity({u"Thing"_s, u"5"_s}),
            json(R"({"id": "5", "complexThing": {"firstvalue": 5}, "extra": "hi"})").toObject());
    }

    // A partial response updates what it has, keeps the rest
    void partialResponseKeepsOtherFields()
    {
        Store store;
        QVERIFY(store
                    .setResponse(
                        u"a"_s, todoSchema(), {},
                        json(R"({"id": 1, "title": "old", "completed": true, "userId": 3})"), at(1))
                    .ok());
        const StoreWrite write = store.setResponse(u"b"_s, todoSchema(), {},
                                                   json(R"({"id": 1, "title": "hello"})"), at(2));
        QCOMPARE(*store.entity({u"Todo"_s, u"1"_s}),
                 json(R"({"id": 1, "title": "hello", "completed": true, "userId": 3})").toObject());
        QVERIFY(write.changes.entities.contains({u"Todo"_s, u"1"_s}));
    }

    // An older response never overwrites newer fields; it only fills missing ones
    void raceOlderResponseOnlyFillsMissingFields()
    {
        Store store;
        QVERIFY(store
                    .setResponse(u"new"_s, todoSchema(), {}, json(R"({"id": 1, "title": "newer"})"),
                                 at(200))
                    .ok());
        const StoreWrite old = store.setResponse(
            u"old"_s, todoSchema(), {}, json(R"({"id": 1, "title": "older", "completed": false})"),
            at(100));
        QVERIFY(old.ok());
        QCOMPARE(*store.entity({u"Todo"_s, u"1"_s}),
                 json(R"({"id": 1, "title": "newer", "completed": false})").toObject());
        QCOMPARE(store.entityMeta({u"Todo"_s, u"1"_s}).date, 200);
        // an older response that adds nothing changes nothing
        const StoreWrite again = store.setResponse(QString(), todoSchema(), {},
                                                   json(R"({"id": 1, "title": "oldest"})"), at(50));
        QVERIFY(again.changes.isEmpty());
        QCOMPARE(store.entity({u"Todo"_s, u"1"_s})->value(u"title"_s), QJsonValue(u"newer"_s));
    }

    void sameEntityTwiceInOneResponseMerges()
    {
        Store store;
        QVERIFY(
            store
                .setResponse(u"l"_s, Schema::array(todoSchema()), {},
                             json(R"([{"id": 1, "title": "a", "x": 1}, {"id": 1, "title": "b"}])"),
                             at(1))
                .ok());
        QCOMPARE(*store.entity({u"Todo"_s, u"1"_s}),
                 json(R"({"id": 1, "title": "b", "x": 1})").toObject());
    }

    void sameNestedEntityRepeatedOrNull()
    {
        // An author repeated alike is staged once; a later occurrence that differs merges; a
        // null author stays null.
        Store store;
        const QJsonValue list = json(R"([{"id": 1, "author": {"id": 2, "name": "ann"}},
                                          {"id": 2, "author": {"id": 2, "name": "ann"}},
                                          {"id": 3, "author": {"id": 2, "name": "bob", "x": 1}},
                                          {"id": 4, "author": null}])");
        const StoreWrite write = store.setResponse(u"l"_s, todoList(), {}, list, at(1));
        QVERIFY(write.ok());
        QCOMPARE(write.changes.entities.size(), 4 + 1 + 1); // 4 todos, 1 user, the list
        QCOMPARE(*store.entity({u"User"_s, u"2"_s}),
                 json(R"({"id": 2, "name": "bob", "x": 1})").toObject());
        const QVariantList rows = store.denormalize(u"l"_s, todoList(), {}).data.toList();
        QCOMPARE(rows.size(), 4);
        const Record first = rows[0].value<Record>();
        QCOMPARE(first.value(u"author"_s).value<Record>().value(u"name"_s).toString(), u"bob"_s);
        QVERIFY(rows[3].value<Record>().value(u"author"_s).isNull());
        QCOMPARE(*store.entity({u"Todo"_s, u"4"_s}),
                 json(R"({"id": 4, "author": null})").toObject());
    }

    // A list of more than 131k todos is read ahead (Normalizer::visitCollection(): its pk index
    // is past the caches; lowered here to every list), and the record an author's repeats are
    // compared with is then noted on the side. The same repeats must give what they give
    // without reading ahead: alike is a no-op, a difference merges, and a later repeat is
    // compared with the merged record.
    //
    // "part way": a list whose index is under the threshold starts reading ahead once its
    // nested entities take it past (visitCollection(), checked at items 1, 2, 4, ...). Its
    // 40 todos have a 512-byte index, each author counts 256 bytes: 1500 is crossed at item
    // 4, after ann's first record was staged without reading ahead.
    void repeatedAuthorReadAheadAsWithout_data()
    {
        QTest::addColumn<int>("readAheadFrom"); // bytes; 0: the real threshold
        QTest::addColumn<int>("startsPartWay");
        // The third author: one with a field more (the merge is that author) or one less (the
        // merge is neither: what was recognised of the earlier ones must be forgotten).
        QTest::addColumn<bool>("thirdHasMore");
        for (const bool more : {true, false}) {
            const char *third = more ? "a field more" : "a field less";
            QTest::addRow("without, %s", third) << 0 << 0 << more;
            QTest::addRow("read ahead, %s", third) << 1 << 0 << more;
            QTest::addRow("part way, %s", third) << 1500 << 1 << more;
        }
    }
    void repeatedAuthorReadAheadAsWithout()
    {
        QFETCH(int, readAheadFrom);
        QFETCH(int, startsPartWay);
        QFETCH(bool, thirdHasMore);
        detail::setReadAheadFromForTesting(size_t(readAheadFrom));
        const auto restore = qScopeGuard([] { detail::setReadAheadFromForTesting(0); });
        const quint64 startsBefore = detail::readAheadStartsForTesting();
        const int todos = 40;
        QJsonArray list;
        for (int i = 0; i < todos; ++i) {
            list.append(QJsonObject {
                {u"id"_s, i + 1},
                {u"author"_s, QJsonObject {{u"id"_s, 100 + i % 5}, {u"name"_s, u"other"_s}}}});
        }
        const auto author = [](const QString &name, bool extra) {
            QJsonObject a {{u"id"_s, 7}, {u"name"_s, name}};
            if (extra)
                a.insert(u"x"_s, 1);
            return a;
        };
        // ann, ann again (a no-op), bob (merged), ann (merged over that): x is in bob alone,
        // or in every ann but not in bob
        const int at1 = 0, at2 = todos / 4, at3 = todos / 2, at4 = todos - 1;
        const QJsonObject ann = author(u"ann"_s, !thirdHasMore);
        for (const auto &[row, value] :
             {std::pair {at1, ann}, std::pair {at2, ann},
              std::pair {at3, author(u"bob"_s, thirdHasMore)}, std::pair {at4, ann}}) {
            QJsonObject todo = list.at(row).toObject();
            todo.insert(u"author"_s, value);
            list.replace(row, todo);
        }
        Store store;
        QVERIFY(store.setResponse(u"l"_s, todoList(), {}, list, at(1)).ok());
        QCOMPARE(*store.entity({u"User"_s, u"7"_s}),
                 json(R"({"id": 7, "name": "ann", "x": 1})").toObject());
        const Record last
            = rowsOf(store.denormalize(u"l"_s, todoList(), {}).data).at(at4).value<Record>();
        QCOMPARE(last.value(u"author"_s).value<Record>().value(u"x"_s).toInt(), 1);
        QCOMPARE(detail::readAheadStartsForTesting() - startsBefore, quint64(startsPartWay));
    }

    void noOpWriteReportsNothing()
    {
        Store store;
        const auto value = json(R"([{"id": 1, "author": {"id": 2}}])");
        QVERIFY(!store.setResponse(u"l"_s, todoList(), {}, value, at(1)).changes.isEmpty());
        const StoreWrite again = store.setResponse(u"l"_s, todoList(), {}, value, at(2));
        QVERIFY(again.ok());
        QVERIFY2(again.changes.isEmpty(), "identical data, only newer meta");
        QCOMPARE(store.resultMeta(u"l"_s).date, 2);
    }

    void compactJsonInputGivesTheSameStore()
    {
        Store viaQJson, viaCompact;
        const QByteArray text
            = R"([{"id": 1, "title": "é\u00e8", "createdAt": "2020-01-01T00:00:00Z",
                                   "author": {"id": 7, "name": "x"}}])";
        QVERIFY(
            viaQJson
                .setResponse(u"l"_s, todoList(), {}, QJsonDocument::fromJson(text).array(), at(1))
                .ok());
        QVERIFY(
            viaCompact.setResponse(u"l"_s, todoList(), {}, CompactJson::parse(text), at(1)).ok());
        QCOMPARE(*viaCompact.entity({u"Todo"_s, u"1"_s}), *viaQJson.entity({u"Todo"_s, u"1"_s}));
        QCOMPARE(viaCompact.denormalize(u"l"_s, todoList(), {}).data.toList().first().toMap(),
                 viaQJson.denormalize(u"l"_s, todoList(), {}).data.toList().first().toMap());
    }

    void entityProcessAndCustomMerge()
    {
        Store store;
        const Schema user = Schema::entity(
            EntitySchema(u"User"_s, u"username"_s)
                .withProcess([](const QJsonObject &value, const QJsonValue &, const Params &args) {
                    QJsonObject copy = value; // the pk comes from the URL parameters
                    copy.insert(u"username"_s, args.value(u"username"_s).toString());
                    return copy;
                })
                .withMerge([](const QJsonObject &existing, const QJsonObject &incoming) {
                    QJsonObject merged = incoming;
                    merged.insert(u"visits"_s, existing.value(u"visits"_s).toInt() + 1);
                    return merged;
                }));
        const Params args {{u"username"_s, u"ann"_s}};
        QVERIFY(store.setResponse(u"u"_s, user, args, json(R"({"visits": 0})"), at(1)).ok());
        QVERIFY(store.setResponse(u"u"_s, user, args, json(R"({"visits": 0})"), at(2)).ok());
        QCOMPARE(store.entity({u"User"_s, u"ann"_s})->value(u"visits"_s), QJsonValue(1));
    }

    void gadgetLikeDefaults()
    {
        Store store;
        const Schema item
            = Schema::entity(EntitySchema(u"Item"_s).withDefaults({{u"done"_s, false}}));
        QVERIFY(store.setResponse(u"i"_s, item, {}, json(R"({"id": 1})"), at(1)).ok());
        const Record record = recordOf(store.denormalize(u"i"_s, item, {}).data);
        QCOMPARE(record.value(u"done"_s), QVariant(false));
        QVERIFY(record.contains(u"done"_s));
        QVERIFY(!record.value(u"nothing"_s).isValid());
    }
};

QTEST_GUILESS_MAIN(tst_StoreNormalize)
#include "tst_storenormalize.moc"
