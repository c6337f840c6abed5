// The fixture of the list tests (re-filtering, list members): an in-process server with six
// todos, a Resource whose lists filter on userId and completed, and CollectionModels checked by
// QAbstractItemModelTester.
#pragma once

#include "modelsignals.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/store.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtTest/QAbstractItemModelTester>
#include <QTest>

#include <functional>
#include <memory>

namespace ListFixture {

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

inline QJsonObject todo(int id, int userId, bool completed, const QString &title = {})
{
    return {{u"id"_s, id},
            {u"userId"_s, userId},
            {u"title"_s, title.isEmpty() ? u"todo %1"_s.arg(id) : title},
            {u"completed"_s, completed}};
}

class ListTest : public QObject
{
    Q_OBJECT

protected:
    std::unique_ptr<TestServer> server;
    std::unique_ptr<FakeRestApi> api;
    std::unique_ptr<Controller> controller;
    Resource todos;

    //! A server with todos 1..6 (user 1: 1, 2, 3; user 2: 4, 5, 6; 3 and 6 completed), after
    //! \a routes (which win over the fake API's).
    void start(const std::function<void(TestServer &)> &routes = {}, bool optimistic = false,
               std::shared_ptr<const Collection> collection = {})
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        api = std::make_unique<FakeRestApi>(server.get());
        QJsonArray seed;
        for (int id = 1; id <= 6; ++id)
            seed.append(todo(id, id <= 3 ? 1 : 2, id % 3 == 0));
        QVERIFY(api->addCollection(u"/todos"_s, seed));
        if (routes)
            routes(*server); // the last route added wins
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                .urlPrefix = server->baseUrl().toString(),
                                .searchParams = {u"userId"_s, u"completed"_s},
                                .optimistic = optimistic,
                                .collection = std::move(collection)});
        QVERIFY2(todos.isValid(), qPrintable(todos.errorString()));
        controller = std::make_unique<Controller>();
    }
    std::unique_ptr<CollectionModel> model(const Params &params)
    {
        auto model = std::make_unique<CollectionModel>(controller.get(), todos.getList, params);
        new QAbstractItemModelTester(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, model.get());
        [&] { QTRY_COMPARE(model->status(), CollectionModel::Ready); }();
        return model;
    }
    static QList<int> ids(const CollectionModel &model)
    {
        QList<int> result;
        for (int row = 0; row < model.rowCount(); ++row)
            result.append(model.get(row).toMap().value(u"id"_s).toInt());
        return result;
    }
    qsizetype listReads() const { return server->requests("GET", u"/todos"_s).size(); }
    static void verifyRemoved(const ModelSignals &s, int row)
    {
        QCOMPARE(s.removed.size(), 1);
        QCOMPARE(s.removed.at(0).at(1).toInt(), row);
        QCOMPARE(s.removed.at(0).at(2).toInt(), row);
        QCOMPARE(s.inserted.size() + s.moved.size() + s.reset.size() + s.layout.size(), 0);
    }
    static void verifyInserted(const ModelSignals &s, int row)
    {
        QCOMPARE(s.inserted.size(), 1);
        QCOMPARE(s.inserted.at(0).at(1).toInt(), row);
        QCOMPARE(s.inserted.at(0).at(2).toInt(), row);
        QCOMPARE(s.removed.size() + s.moved.size() + s.reset.size() + s.layout.size(), 0);
    }

    static Schema todoSchema() { return Schema::entity(EntitySchema(u"Todo"_s)); }

private Q_SLOTS:
    void cleanup()
    {
        controller.reset();
        api.reset();
        server.reset();
    }
};

} // namespace ListFixture
