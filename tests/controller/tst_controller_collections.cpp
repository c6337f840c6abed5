// Collections through the Controller (CASES 28, 29, 31, 19): getList.push / unshift join only
// the stored lists they match, getPage appends to getList's list without duplicates.
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
        // CASES 31 with a server whose pages overlap: [1, 2], then [3, 4], then [4, 5].
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
        QCOMPARE(list(paged), (QList<int> {1, 2, 3, 4}));
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.constFirst().entities.contains(todoListRef()));
        QVERIFY(changes.sets.constFirst().results.isEmpty()
                || changes.sets.constFirst().results.contains(paged.getList->key({})));

        QVERIFY(await(controller->fetch(paged.getList.getPage, {{u"page"_s, 3}})).value);
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
};

QTEST_GUILESS_MAIN(tst_ControllerCollections)
#include "tst_controller_collections.moc"
