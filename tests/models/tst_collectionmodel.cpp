// CollectionModel end to end: a Controller, real HTTP (TestServer + FakeRestApi), and the model a
// Widgets view would use, checked by QAbstractItemModelTester throughout.
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtTest/QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_CollectionModel : public QObject
{
    Q_OBJECT

private:
    TestServer server;
    std::unique_ptr<FakeRestApi> api;
    std::unique_ptr<Controller> controller;
    Resource todos;

    std::unique_ptr<CollectionModel> makeModel(const Params &params)
    {
        auto model = std::make_unique<CollectionModel>(controller.get(), todos.getList, params);
        new QAbstractItemModelTester(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, model.get());
        return model;
    }
    int todosOfUser(int userId) const
    {
        int count = 0;
        for (const auto &item : api->collection(u"/todos"_s))
            count += item.toObject().value(u"userId"_s).toInt() == userId;
        return count;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        const EntitySchema todo = EntitySchema(u"Todo"_s).withDefaults(
            {{u"userId"_s, 0}, {u"title"_s, QString()}, {u"completed"_s, false}});
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = Schema::entity(todo),
                                .urlPrefix = server.baseUrl().toString(),
                                .searchParams = {u"userId"_s},
                                .paginationField = u"page"_s,
                                .optimistic = true});
        QVERIFY2(todos.isValid(), qPrintable(todos.errorString()));
    }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        api = std::make_unique<FakeRestApi>(&server);
        FakeRestApi::Options options;
        options.pagination = FakeRestApi::Pagination::PageNumber;
        options.pageSize = 5;
        QVERIFY(api->addCollection(u"/todos"_s, SampleData::todos(12, 3), options));
        controller = std::make_unique<Controller>();
    }
    void cleanup()
    {
        controller.reset();
        api.reset();
    }

    void loadsTheListAsRows()
    {
        auto model = makeModel({{u"userId"_s, 1}});
        QCOMPARE(model->status(), CollectionModel::Loading);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(model->rowCount(), todosOfUser(1));
        QCOMPARE(model->key(), u"GET %1/todos?userId=1"_s.arg(server.baseUrl().toString()));
        const int titleRole = model->roleNames().key("title"_ba);
        QVERIFY(titleRole >= CollectionModel::FirstFieldRole);
        QCOMPARE(model->data(model->index(0), titleRole), model->get(0).toMap().value(u"title"_s));
    }

    void oneUpdateIsOneDataChangedInEveryModelShowingIt()
    {
        auto a = makeModel({{u"userId"_s, 1}});
        auto b = makeModel({});
        QTRY_COMPARE(a->status(), CollectionModel::Ready);
        QTRY_COMPARE(b->status(), CollectionModel::Ready);
        const QVariantMap target = a->get(0).toMap();
        int rowInB = -1;
        for (int row = 0; row < b->rowCount(); ++row)
            if (b->get(row).toMap().value(u"id"_s) == target.value(u"id"_s))
                rowInB = row;
        QVERIFY(rowInB >= 0);
        QSignalSpy changedA(a.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy changedB(b.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy resetA(a.get(), &QAbstractItemModel::modelReset);
        QSignalSpy insertedA(a.get(), &QAbstractItemModel::rowsInserted);

        auto done = controller->fetch(todos.partialUpdate, {{u"id"_s, target.value(u"id"_s)}},
                                      QJsonObject {{u"title"_s, u"renamed"_s}});
        QCOMPARE(changedA.size(), 1); // optimistic: at once
        QCOMPARE(changedB.size(), 1);
        QCOMPARE(changedA.at(0).at(0).toModelIndex().row(), 0);
        QCOMPARE(changedB.at(0).at(0).toModelIndex().row(), rowInB);
        const auto roles = changedA.at(0).at(2).value<QList<int>>();
        QVERIFY(roles.contains(a->roleNames().key("title"_ba)));
        QVERIFY(roles.contains(CollectionModel::PendingRole));
        QVERIFY(!roles.contains(a->roleNames().key("completed"_ba)));
        QCOMPARE(a->index(0).data(CollectionModel::PendingRole), QVariant(true));
        QTRY_VERIFY(done.isFinished());
        // The server confirmed the same values: only `pending` flips back, in one dataChanged.
        QCOMPARE(changedA.size(), 2);
        QCOMPARE(changedB.size(), 2);
        QCOMPARE(changedA.at(1).at(2).value<QList<int>>(),
                 (QList<int> {CollectionModel::PendingRole}));
        QCOMPARE(a->index(0).data(CollectionModel::PendingRole), QVariant(false));
        QCOMPARE(resetA.size(), 0);
        QCOMPARE(insertedA.size(), 0);
        QCOMPARE(a->get(0).toMap().value(u"title"_s).toString(), u"renamed"_s);
    }

    void pushedEntityIsOneInsertion()
    {
        auto model = makeModel({{u"userId"_s, 2}});
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        const int before = model->rowCount();
        QSignalSpy inserted(model.get(), &QAbstractItemModel::rowsInserted);
        // No id before the server assigns one: a placeholder row (at once, if the resource is
        // optimistic), the server's entity in its place later; one insertion either way, and no
        // reason to warn.
        QTest::failOnWarning(QRegularExpression(u"optimistic"_s));
        auto done = controller->fetch(todos.getList.push, {{u"userId"_s, 2}},
                                      QJsonObject {{u"userId"_s, 2}, {u"title"_s, u"new"_s}});
        QTRY_VERIFY(done.isFinished());
        QCOMPARE(model->rowCount(), before + 1);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), before);
    }

    void deletedEntityIsOneRemoval()
    {
        auto model = makeModel({});
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        const int before = model->rowCount();
        QSignalSpy removed(model.get(), &QAbstractItemModel::rowsRemoved);
        auto done = controller->fetch(todos.remove, {{u"id"_s, 3}});
        QCOMPARE(model->rowCount(), before - 1); // optimistic
        QTRY_VERIFY(done.isFinished());
        QCOMPARE(removed.size(), 1);
        QCOMPARE(model->rowCount(), before - 1);
    }

    void loadMoreAppendsPagesAndStops()
    {
        auto model = std::make_unique<CollectionModel>(controller.get(), todos.getList.getPage,
                                                       Params {{u"page"_s, 1}});
        QAbstractItemModelTester tester(model.get(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        Q_UNUSED(tester);
        // getPage as the model's own endpoint: page 1 first, then loadMore() asks for 2, 3...
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(model->rowCount(), 5);
        QVERIFY(model->hasMore());
        QVERIFY(model->canFetchMore({}));
        model->fetchMore({});
        QVERIFY(model->isLoadingMore());
        QVERIFY(!model->canFetchMore({}));
        QTRY_VERIFY(!model->isLoadingMore());
        QCOMPARE(model->rowCount(), 10);
        model->loadMore();
        QTRY_VERIFY(!model->isLoadingMore());
        QCOMPARE(model->rowCount(), 12);
        QVERIFY(!model->hasMore());
    }

    void errorThenRefetchRecovers()
    {
        api->failNext(1, 404);
        auto model = makeModel({});
        QTRY_COMPARE(model->status(), CollectionModel::Error);
        QVERIFY(model->networkError());
        QCOMPARE(model->networkError()->status(), 404);
        QCOMPARE(model->errorValue().toMap().value(u"status"_s).toInt(), 404);
        model->refetch();
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(model->rowCount(), 12);
    }

    void badParamsAreAnErrorNotACrash()
    {
        // `get` needs :id: without it nothing can be read
        CollectionModel model(controller.get(), todos.get, {});
        QCOMPARE(model.status(), CollectionModel::Error);
        QVERIFY(model.networkError()->message().contains(u"id"_s));
        QCOMPARE(server.requestCount(), 0);
        model.setParams({{u"id"_s, 4}});
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QCOMPARE(model.value().toMap().value(u"id"_s).toInt(), 4);
        QCOMPARE(model.rowCount(), 0); // one entity: no rows
    }

    void destroyedControllerLeavesTheModelIdle()
    {
        auto model = makeModel({});
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        controller.reset();
        QCOMPARE(model->status(), CollectionModel::Idle);
        QCOMPARE(model->rowCount(), 0);
    }

    void destroyingTheModelMidRequestIsSafe()
    {
        api->setLatency(50);
        auto model = makeModel({});
        QTRY_COMPARE(server.requestCount(), 1);
        model.reset();
        auto same = controller->fetchIfStale(todos.getList, {});
        QTRY_VERIFY(same.isFinished());
        QCOMPARE(same.result().toList().size(), 12);
    }
};

QTEST_MAIN(tst_CollectionModel)
#include "tst_collectionmodel.moc"
