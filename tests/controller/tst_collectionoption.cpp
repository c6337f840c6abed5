// The `Collection` option of createResource() (ResourceOptions::collection) end to end: a pushed
// or unshifted entity joins the stored lists the resource's Collection says it matches (its
// nonFilterArgumentKeys() decides which arguments count) — through a real server, the
// Controller and the store.
#include "controllerfixture.h"

#include <DataClient/collection.h>

#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

// `ignoredMe` does not decide membership.
class IgnoredMeCollection : public Collection
{
public:
    bool nonFilterArgumentKeys(const QString &key) const override
    {
        return key == u"ignoredMe"_s || Collection::nonFilterArgumentKeys(key);
    }
};

// A push filter of its own: a created entity joins only the unfiltered list.
class OnlyTheWholeListCollection : public Collection
{
public:
    bool matches(const Params &collectionArgs, const Params &, const QJsonObject &) const override
    {
        return collectionArgs.isEmpty();
    }
};

// The four stored lists, in this order: a new todo of user 1 joins the first, second and fourth.
const QList<Params> storedLists {
    {{u"userId"_s, 1}},
    {{u"userId"_s, 1}, {u"ignoredMe"_s, 5}},
    {{u"userId"_s, 2}},
    {},
};

} // namespace

Q_DECLARE_METATYPE(std::shared_ptr<const DataClient::Collection>)

class tst_CollectionOption : public BackendTest
{
    Q_OBJECT

private:
    QList<int> list(const Resource &resource, const Params &args) const
    {
        return ids(controller->getResponse(resource.getList, args).data);
    }

private Q_SLOTS:
    void createdEntityJoinsTheListsTheCollectionMatches_data()
    {
        QTest::addColumn<std::shared_ptr<const Collection>>("collection");
        QTest::addColumn<bool>("unshift");
        // The lists of storedLists after the create (the new todo is 6).
        QTest::addColumn<QList<QList<int>>>("expected");

        const std::shared_ptr<const Collection> none;
        const auto ignoredMe = std::make_shared<const IgnoredMeCollection>();
        QTest::newRow("no option: every argument filters")
            << none << false
            << QList<QList<int>> {{1, 2, 3, 6}, {1, 2, 3}, {4, 5}, {1, 2, 3, 4, 5, 6}};
        QTest::newRow("nonFilterArgumentKeys(ignoredMe): push")
            << std::shared_ptr<const Collection>(ignoredMe) << false
            << QList<QList<int>> {{1, 2, 3, 6}, {1, 2, 3, 6}, {4, 5}, {1, 2, 3, 4, 5, 6}};
        QTest::newRow("nonFilterArgumentKeys(ignoredMe): unshift")
            << std::shared_ptr<const Collection>(ignoredMe) << true
            << QList<QList<int>> {{6, 1, 2, 3}, {6, 1, 2, 3}, {4, 5}, {6, 1, 2, 3, 4, 5}};
        QTest::newRow("matches() overridden: only the whole list")
            << std::shared_ptr<const Collection>(std::make_shared<OnlyTheWholeListCollection>())
            << false << QList<QList<int>> {{1, 2, 3}, {1, 2, 3}, {4, 5}, {1, 2, 3, 4, 5, 6}};
    }
    void createdEntityJoinsTheListsTheCollectionMatches()
    {
        QFETCH(std::shared_ptr<const Collection>, collection);
        QFETCH(bool, unshift);
        QFETCH(QList<QList<int>>, expected);

        const Resource resource = createResource({.path = u"/todos/:id"_s,
                                                  .schema = todoSchema(),
                                                  .urlPrefix = backend->server.url(),
                                                  .searchParams = {u"userId"_s},
                                                  .collection = collection});
        QVERIFY2(resource.isValid(), qPrintable(resource.errorString()));
        for (const Params &args : storedLists)
            QVERIFY(await(controller->fetch(resource.getList, args)).value);
        // The server does not filter by `ignoredMe`: both user-1 lists start equal.
        QCOMPARE(list(resource, storedLists.at(1)), (QList<int> {1, 2, 3}));

        const Params user1 {{u"userId"_s, u"1"_s}};
        const ResourceMember create = unshift ? resource.getList.unshift : resource.getList.push;
        const Outcome created = await(controller->fetch(
            create, user1, QJsonObject {{u"userId"_s, 1}, {u"title"_s, u"six"_s}}));
        QVERIFY(created.value);
        QCOMPARE(field(*created.value).value(u"id"_s).toInt(), 6);
        const RecordedRequest sent = backend->server.lastRequest();
        QCOMPARE(sent.method, "POST"_ba);
        QCOMPARE(sent.path, u"/todos"_s);
        QCOMPARE(sent.json()[u"title"_s].toString(), u"six"_s);

        for (qsizetype i = 0; i < storedLists.size(); ++i) {
            const QByteArray which = Collection::argumentsKey(storedLists.at(i)).toUtf8();
            QVERIFY2(list(resource, storedLists.at(i)) == expected.at(i), which.constData());
        }
        // No list that was not stored was created.
        QVERIFY(!controller->get(resource.getList->schema(), {{u"userId"_s, 3}}).found);
    }

    void everyListMemberUsesTheOption()
    {
        // getList carries the option; push, unshift and getPage are derived from it.
        const auto collection = std::make_shared<const IgnoredMeCollection>();
        const Resource resource = createResource({.path = u"/todos/:id"_s,
                                                  .schema = todoSchema(),
                                                  .urlPrefix = backend->server.url(),
                                                  .paginationField = u"page"_s,
                                                  .collection = collection});
        QVERIFY(resource.isValid());
        const QList<ResourceMember> members {resource.getList, resource.getList.push,
                                             resource.getList.unshift, resource.getList.getPage};
        for (const ResourceMember &member : members) {
            QVERIFY2(member->schema().collectionType() == collection, qPrintable(member->name()));
        }
        // Without the option every member gets the default Collection.
        const Resource plain = createResource(
            {.path = u"/todos/:id"_s, .schema = todoSchema(), .urlPrefix = backend->server.url()});
        QVERIFY(plain.getList->schema().collectionType());
        QVERIFY(!dynamic_cast<const IgnoredMeCollection *>(
            plain.getList->schema().collectionType().get()));
    }
};

QTEST_GUILESS_MAIN(tst_CollectionOption)
#include "tst_collectionoption.moc"
