// Collections through the Controller: getList.push / unshift join only the stored lists they
// match, getPage appends to getList's list without duplicates.
#include "controllerfixture.h"

#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ControllerCollections : public BackendTest
{
    Q_OBJECT

private:
    QList<int> list(const Resource &resource, const Params &args = {}) const
    {
        return ids(controller->getResponse(resource.getList, args).data);
    }

private Q_SLOTS:
    void pushJoinsOnlyTheStoredListsItMatches()
    {
        const Params user1 {{u"userId"_s, 1}};
        const Params user2 {{u"userId"_s, 2}};
        QVERIFY(await(controller->fetch(todos.getList, user1)).value);
        QVERIFY(await(controller->fetch(todos.getList, user2)).value);
        ChangeRecorder changes(controller.get());
        const Outcome created = await(controller->fetch(
            todos.getList.push, user1, QJsonObject {{u"userId"_s, 1}, {u"title"_s, u"six"_s}}));
        QVERIFY(created.value);
        QCOMPARE(field(*created.value).value(u"id"_s).toInt(), 6);
        QCOMPARE(field(*created.value).value(u"title"_s).toString(), u"six"_s);

        QCOMPARE(list(todos, user1), (QList<int> {1, 2, 3, 6}));
        QCOMPARE(list(todos, user2), (QList<int> {4, 5}));
        // A list that is not stored is not created.
        QCOMPARE(controller->getResponse(todos.getList, {{u"userId"_s, 3}}).status,
                 ExpiryStatus::Invalid);
        QVERIFY(!controller->get(todos.getList->schema(), {{u"userId"_s, 3}}).found);

        QCOMPARE(changes.sets.size(), 1);
        const ChangeSet set = changes.sets.constFirst();
        QVERIFY(set.entities.contains(todoRef(6)));
        QVERIFY(set.entities.contains(todoListRef(user1)));
        QVERIFY(!set.entities.contains(todoListRef(user2)));
        // The created entity is queryable.
        QCOMPARE(field(controller->getResponse(todos.get, {{u"id"_s, 6}}).data).value(u"title"_s),
                 QVariant(u"six"_s));
    }

    void unshiftPrependsToMatchingLists()
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(await(controller->fetch(todos.getList, {{u"userId"_s, 1}})).value);
        QVERIFY(await(controller->fetch(todos.getList.unshift, {{u"userId"_s, 2}},
                                        QJsonObject {{u"userId"_s, 2}, {u"title"_s, u"first"_s}}))
                    .value);
        QCOMPARE(list(todos), (QList<int> {6, 1, 2, 3, 4, 5}));
        QCOMPARE(list(todos, {{u"userId"_s, 1}}), (QList<int> {1, 2, 3}));
    }

    void getPageAppendsWithoutDuplicates()
    {
        // A server whose pages overlap: [1, 2], then [3, 4], then [4, 5].
        backend->server.route("GET", u"/paged"_s, [](const RecordedRequest &request) {
            const QString page = request.query.queryItemValue(u"page"_s);
            if (page == u"2"_s)
                return ServerResponse::json(
                    QJsonArray {todo(3, 1, u"three"_s), todo(4, 2, u"four"_s)});
            if (page == u"3"_s)
                return ServerResponse::json(
                    QJsonArray {todo(4, 2, u"four"_s), todo(5, 2, u"five"_s)});
            return ServerResponse::json(QJsonArray {todo(1, 1, u"one"_s), todo(2, 1, u"two"_s)});
        });
        const Resource paged = createResource({.path = u"/paged/:id"_s,
                                               .schema = todoSchema(),
                                               .urlPrefix = backend->server.url(),
                                               .paginationField = u"page"_s});
        QVERIFY(paged.isValid());
        QVERIFY(await(controller->fetch(paged.getList, {})).value);
        QCOMPARE(list(paged), (QList<int> {1, 2}));

        ChangeRecorder changes(controller.get());
        const Outcome page2 = await(controller->fetch(paged.getList.getPage, {{u"page"_s, 2}}));
        QVERIFY(page2.value);
        // The page resolves with its own items, the store holds the merged list.
        QCOMPARE(ids(*page2.value), (QList<int> {3, 4}));
        QCOMPARE(list(paged), (QList<int> {1, 2, 3, 4}));
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.constFirst().entities.contains(todoListRef()));
        QVERIFY(changes.sets.constFirst().results.isEmpty()
                || changes.sets.constFirst().results.contains(paged.getList->key({})));

        const Outcome page3 = await(controller->fetch(paged.getList.getPage, {{u"page"_s, 3}}));
        QVERIFY(page3.value);
        QCOMPARE(ids(*page3.value), (QList<int> {4, 5}));
        QCOMPARE(list(paged), (QList<int> {1, 2, 3, 4, 5}));
        // getPage reads the same list as getList.
        QCOMPARE(ids(controller->getResponse(paged.getList.getPage, {{u"page"_s, 3}}).data),
                 (QList<int> {1, 2, 3, 4, 5}));
        // The same page again adds nothing: no signal.
        changes.clear();
        QVERIFY(await(controller->fetch(paged.getList.getPage, {{u"page"_s, 3}})).value);
        QCOMPARE(list(paged), (QList<int> {1, 2, 3, 4, 5}));
        QVERIFY(changes.sets.isEmpty());
    }

    // An app that loads pages until one comes back empty must stop.
    void anEmptyPageResolvesEmpty()
    {
        const Params user1 {{u"userId"_s, 1}};
        QVERIFY(await(controller->fetch(todos.getList, user1)).value);
        backend->server.route("GET", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonArray {});
        });
        const Outcome page
            = await(controller->fetch(todos.getList.getPage, {{u"userId"_s, 1}, {u"page"_s, 2}}));
        QVERIFY(page.value);
        QCOMPARE(page.value->typeId(), QMetaType::QVariantList);
        QVERIFY(page.value->toList().isEmpty());
        QCOMPARE(list(todos, user1), (QList<int> {1, 2, 3}));
    }

    // The same for a list wrapped in an object ({results, total}): the wrapper, with the page's
    // own items; a page's items are read back merged with what the store knew.
    void aWrappedPageResolvesWithItsOwnItems()
    {
        backend->server.route("GET", u"/wrapped"_s, [](const RecordedRequest &request) {
            const bool second = request.query.queryItemValue(u"page"_s) == u"2"_s;
            const QJsonArray items = second
                ? QJsonArray {QJsonObject {{u"id"_s, 3}, {u"title"_s, u"three, again"_s}}}
                : QJsonArray {todo(1, 1, u"one"_s), todo(3, 1, u"three"_s, true)};
            return ServerResponse::json(QJsonObject {{u"results"_s, items}, {u"total"_s, 9}});
        });
        const Schema list = Schema::collection(Schema::array(todoSchema()));
        const Resource wrapped
            = createResource({.path = u"/wrapped/:id"_s,
                              .schema = todoSchema(),
                              .urlPrefix = backend->server.url(),
                              .paginationField = u"page"_s})
                  .extend({{u"getList"_s,
                            {.schema = Schema::object({{u"results"_s, list}, {u"total"_s, {}}})}}});
        QVERIFY2(wrapped.isValid(), qPrintable(wrapped.errorString()));
        QVERIFY(await(controller->fetch(wrapped.getList, {})).value);
        const Outcome page = await(controller->fetch(wrapped.getList.getPage, {{u"page"_s, 2}}));
        QVERIFY(page.value);
        const QVariantMap object = page.value->toMap();
        QCOMPARE(object.value(u"total"_s).toInt(), 9);
        QCOMPARE(ids(object.value(u"results"_s)), (QList<int> {3}));
        const QVariantMap three = field(object.value(u"results"_s).toList().constFirst());
        QCOMPARE(three.value(u"title"_s).toString(), u"three, again"_s);
        QCOMPARE(three.value(u"completed"_s).toBool(), true); // kept from the first page
    }
};

QTEST_GUILESS_MAIN(tst_ControllerCollections)
#include "tst_controller_collections.moc"
