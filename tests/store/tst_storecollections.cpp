// Collection operations: identity, push/unshift with the push filter, pagination, remove,
// addWith, nested collections, wrappers.
#include "storefixtures.h"

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {
// `ignoredMe` does not decide membership.
class IgnoringCollection : public Collection
{
public:
    bool nonFilterArgumentKeys(const QString &key) const override
    {
        return key == u"ignoredMe"_s || Collection::nonFilterArgumentKeys(key);
    }
};

QStringList listOf(Store &store, const Schema &list, const Params &args)
{
    const Denormalized read = store.query(list, args);
    return read.found ? ids(read.data) : QStringList {u"<not stored>"_s};
}
} // namespace

class tst_StoreCollections : public QObject
{
    Q_OBJECT

    Schema list
        = Schema::collection(Schema::array(todoSchema()), std::make_shared<IgnoringCollection>());
    const Params user1 {{u"userId"_s, u"1"_s}};
    const Params user1Ignored {{u"userId"_s, 1}, {u"ignoredMe"_s, 5}};
    const Params user2 {{u"userId"_s, 2}};

    void storeCase28Lists(Store &store)
    {
        QVERIFY(store.setResponse(u"a"_s, list, user1, json(R"([{"id": 10, "userId": 1}])"), at(1))
                    .ok());
        QVERIFY(store
                    .setResponse(u"b"_s, list, user1Ignored, json(R"([{"id": 10, "userId": 1}])"),
                                 at(1))
                    .ok());
        QVERIFY(store.setResponse(u"c"_s, list, user2, json(R"([{"id": 20, "userId": 2}])"), at(1))
                    .ok());
        QVERIFY(
            store.setResponse(u"d"_s, list, {}, json(R"([{"id": 10}, {"id": 20}])"), at(1)).ok());
    }

private Q_SLOTS:
    // A collection's key: its arguments, values as strings, keys sorted.
    void argumentsKey()
    {
        QCOMPARE(Collection::argumentsKey({{u"group"_s, u"g1"_s}, {u"n"_s, 5}, {u"b"_s, false}}),
                 uR"({"b":"false","group":"g1","n":"5"})"_s);
        QCOMPARE(Collection::argumentsKey({{u"z"_s, u"1"_s}, {u"a"_s, u"2"_s}}),
                 uR"({"a":"2","z":"1"})"_s);
        QCOMPARE(Collection::argumentsKey({}), u"{}"_s);
        QCOMPARE(Collection::argumentsFromKey(uR"({"a":"2","z":"1"})"_s),
                 (Params {{u"a"_s, u"2"_s}, {u"z"_s, u"1"_s}}));
    }

    // By default only keys starting with "order" do not filter.
    void defaultNonFilterArgumentKeys()
    {
        const Collection collection;
        QVERIFY(collection.nonFilterArgumentKeys(u"orderBy"_s));
        QVERIFY(!collection.nonFilterArgumentKeys(u"userId"_s));
    }

    // Numbers and strings with the same text are one collection
    void identityIgnoresValueTypes()
    {
        Store store;
        QVERIFY(store.setResponse(u"a"_s, list, {{u"userId"_s, 1}}, json(R"([{"id": 10}])"), at(1))
                    .ok());
        QCOMPARE(listOf(store, list, {{u"userId"_s, u"1"_s}}), QStringList {u"10"_s});
    }

    // A pushed entity joins every stored list whose arguments match, ignoring `ignoredMe`; it
    // goes last.
    void pushJoinsEveryMatchingStoredCollection()
    {
        Store store;
        storeCase28Lists(store);
        // results that have been read are reported when what they show changes
        for (const QString &key : {u"a"_s, u"b"_s, u"c"_s, u"d"_s})
            QVERIFY(store.denormalize(key, list, {}).found);
        const StoreWrite push = store.setResponse(u"push"_s, list.push(), user1,
                                                  json(R"({"id": 30, "userId": 1})"), at(2));
        QVERIFY(push.ok());
        QCOMPARE(listOf(store, list, user1), (QStringList {u"10"_s, u"30"_s}));
        QCOMPARE(listOf(store, list, user1Ignored), (QStringList {u"10"_s, u"30"_s}));
        QCOMPARE(listOf(store, list, user2), (QStringList {u"20"_s}));
        QCOMPARE(listOf(store, list, {}), (QStringList {u"10"_s, u"20"_s, u"30"_s}));
        // ChangeSet: the entity and the three lists it joined, not the fourth
        QVERIFY(push.changes.entities.contains({u"Todo"_s, u"30"_s}));
        QVERIFY(push.changes.entities.contains({u"[Todo]"_s, Collection::argumentsKey(user1)}));
        QVERIFY(
            push.changes.entities.contains({u"[Todo]"_s, Collection::argumentsKey(user1Ignored)}));
        QVERIFY(push.changes.entities.contains({u"[Todo]"_s, u"{}"_s}));
        QVERIFY(!push.changes.entities.contains({u"[Todo]"_s, Collection::argumentsKey(user2)}));
        QCOMPARE(push.changes.results, (QSet<QString> {u"a"_s, u"b"_s, u"d"_s, u"push"_s}));
        // the push call's own result is the created entity
        QCOMPARE(recordOf(store.denormalize(u"push"_s, list.push(), user1).data).pk(), u"30"_s);
    }

    // unshift puts the new item first
    void unshiftPrepends()
    {
        Store store;
        storeCase28Lists(store);
        QVERIFY(store
                    .setResponse(u"u"_s, list.unshift(), user1, json(R"({"id": 30, "userId": 1})"),
                                 at(2))
                    .ok());
        QCOMPARE(listOf(store, list, user1), (QStringList {u"30"_s, u"10"_s}));
        QCOMPARE(listOf(store, list, {}), (QStringList {u"30"_s, u"10"_s, u"20"_s}));
        QCOMPARE(listOf(store, list, user2), (QStringList {u"20"_s}));
    }

    // With the default Collection, an ordering key never filters
    void orderingKeysDoNotFilter()
    {
        Store store;
        const Schema plain = todoList();
        const Params ordered {{u"userId"_s, 1}, {u"orderBy"_s, u"title"_s}};
        QVERIFY(store.setResponse(u"o"_s, plain, ordered, json(R"([{"id": 10}])"), at(1)).ok());
        QVERIFY(store.setResponse(u"p"_s, plain.push(), user1, json(R"({"id": 30})"), at(2)).ok());
        QCOMPARE(listOf(store, plain, ordered), (QStringList {u"10"_s, u"30"_s}));
    }

    // The body (the created entity's fields) also matches, as in the JavaScript reference library
    void pushMatchesTheCreatedEntitysFields()
    {
        Store store;
        storeCase28Lists(store);
        QVERIFY(
            store.setResponse(u"p"_s, list.push(), {}, json(R"({"id": 31, "userId": 2})"), at(2))
                .ok());
        QCOMPARE(listOf(store, list, user2), (QStringList {u"20"_s, u"31"_s}));
        QCOMPARE(listOf(store, list, user1), (QStringList {u"10"_s}));
    }

    // A push never creates a list that is not in the store.
    void pushNeverCreatesACollection()
    {
        Store store;
        const StoreWrite push
            = store.setResponse(u"p"_s, list.push(), user1, json(R"({"id": 30})"), at(1));
        QVERIFY(push.ok());
        QVERIFY(!store.query(list, user1).found);
        QVERIFY(!store.query(list, {}).found);
        QVERIFY(store.entity({u"Todo"_s, u"30"_s})); // the entity itself is stored
        QCOMPARE(push.changes.entities, (QSet<EntityRef> {{u"Todo"_s, u"30"_s}}));
    }

    void pushingAnEntityAlreadyListedKeepsOneRow()
    {
        Store store;
        storeCase28Lists(store);
        QVERIFY(store
                    .setResponse(u"p"_s, list.push(), user1,
                                 json(R"({"id": 10, "title": "again"})"), at(2))
                    .ok());
        QCOMPARE(listOf(store, list, user1), (QStringList {u"10"_s}));
    }

    // A page is appended to the list; an overlapping page adds no duplicates.
    void paginationAppendsWithoutDuplicates()
    {
        Store store;
        const Params group {{u"group"_s, u"happy"_s}};
        QVERIFY(
            store.setResponse(u"l"_s, list, group, json(R"([{"id": 5}, {"id": 3}])"), at(1)).ok());
        // getPage's arguments without the pagination field (the REST layer strips it)
        QVERIFY(store
                    .setResponse(u"l"_s, list.paginated(), group, json(R"([{"id": 7}, {"id": 8}])"),
                                 at(2))
                    .ok());
        QCOMPARE(listOf(store, list, group), (QStringList {u"5"_s, u"3"_s, u"7"_s, u"8"_s}));
        QVERIFY(store
                    .setResponse(u"l"_s, list.paginated(), group, json(R"([{"id": 8}, {"id": 9}])"),
                                 at(3))
                    .ok());
        QCOMPARE(listOf(store, list, group),
                 (QStringList {u"5"_s, u"3"_s, u"7"_s, u"8"_s, u"9"_s}));
        // the result read with getList's schema shows the whole list
        QCOMPARE(ids(store.denormalize(u"l"_s, list, group).data),
                 (QStringList {u"5"_s, u"3"_s, u"7"_s, u"8"_s, u"9"_s}));
    }

    void firstPageIntoAnEmptyStore()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"l"_s, list.paginated(), {}, json(R"([{"id": 1}])"), at(1)).ok());
        QCOMPARE(listOf(store, list, {}), QStringList {u"1"_s});
    }

    void addWithCustomMerge()
    {
        Store store;
        QVERIFY(store.setResponse(u"l"_s, list, {}, json(R"([{"id": 1}, {"id": 2}])"), at(1)).ok());
        const Schema reversedPrepend
            = list.addWith([](const QStringList &existing, const QStringList &incoming) {
                  QStringList merged(incoming.crbegin(), incoming.crend());
                  return merged + existing;
              });
        QVERIFY(
            store.setResponse(u"l"_s, reversedPrepend, {}, json(R"([{"id": 3}, {"id": 4}])"), at(2))
                .ok());
        QCOMPARE(listOf(store, list, {}), (QStringList {u"4"_s, u"3"_s, u"1"_s, u"2"_s}));
    }

    void removeTakesItOutOfMatchingCollections()
    {
        Store store;
        storeCase28Lists(store);
        QVERIFY(store.setResponse(u"r"_s, list.remove(), user1, json(R"({"id": 10})"), at(2)).ok());
        QCOMPARE(listOf(store, list, user1), QStringList());
        QCOMPARE(listOf(store, list, {}), QStringList {u"20"_s});
        QVERIFY(store.entity({u"Todo"_s, u"10"_s})); // removed from lists, not deleted
    }

    // A user's nested `todos` and the top-level list with the same arguments are one collection.
    void nestedCollectionSharesTheTopLevelList()
    {
        Store store;
        const Params args {{u"userId"_s, u"1"_s}};
        QVERIFY(store
                    .setResponse(
                        u"user"_s, userSchema(), {},
                        json(R"({"id": 1, "name": "ann", "todos": [{"id": 5}, {"id": 6}]})"), at(1))
                    .ok());
        QCOMPARE(ids(store.query(todoList(), args).data), (QStringList {u"5"_s, u"6"_s}));
        // a push through the top-level list shows in the user's todos
        QVERIFY(store
                    .setResponse(u"p"_s, todoList().push(), args, json(R"({"id": 7, "userId": 1})"),
                                 at(2))
                    .ok());
        const Record user = recordOf(store.denormalize(u"user"_s, userSchema(), {}).data);
        QCOMPARE(ids(user.value(u"todos"_s)), (QStringList {u"5"_s, u"6"_s, u"7"_s}));
    }

    // Push on a wrapper applies to its collection
    void pushOnAWrapperAppliesToItsCollection()
    {
        Store store;
        const Schema wrapper = Schema::object({{u"results"_s, todoList()}, {u"total"_s, Schema()}});
        QCOMPARE(wrapper.push().kind(), Schema::Kind::Collection);
        QCOMPARE(wrapper.push().collectionMode(), Schema::CollectionMode::Push);
        QCOMPARE(wrapper.paginated().kind(), Schema::Kind::Object);
        QCOMPARE(wrapper.paginated().collectionMode(), Schema::CollectionMode::AddWith);
        QVERIFY(store
                    .setResponse(u"w"_s, wrapper, {},
                                 json(R"({"results": [{"id": 1}], "total": 1})"), at(1))
                    .ok());
        QVERIFY(store.setResponse(u"p"_s, wrapper.push(), {}, json(R"({"id": 2})"), at(2)).ok());
        QVERIFY(store
                    .setResponse(u"w"_s, wrapper.paginated(), {},
                                 json(R"({"results": [{"id": 3}], "total": 3})"), at(3))
                    .ok());
        const QVariantMap read = store.denormalize(u"w"_s, wrapper, {}).data.toMap();
        QCOMPARE(ids(read.value(u"results"_s)), (QStringList {u"1"_s, u"2"_s, u"3"_s}));
        QCOMPARE(read.value(u"total"_s), QVariant(3.0));
    }

    void olderListDoesNotReplaceANewerOne()
    {
        Store store;
        QVERIFY(
            store.setResponse(u"l"_s, list, {}, json(R"([{"id": 1}, {"id": 2}])"), at(200)).ok());
        QVERIFY(store.setResponse(u"l"_s, list, {}, json(R"([{"id": 9}])"), at(100)).ok());
        QCOMPARE(listOf(store, list, {}), (QStringList {u"1"_s, u"2"_s}));
    }
};

QTEST_GUILESS_MAIN(tst_StoreCollections)
#include "tst_storecollections.moc"
