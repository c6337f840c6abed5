// What the push tests share: the in-process REST server with 12 todos of 3 users (FakeRestApi at
// /todos), an in-process WebSocket server, a Controller, the todos resource and the default
// envelope's mapping of it, and list models with a QAbstractItemModelTester.
#pragma once

#include "modelsignals.h"
#include <DataClient/testing/websockettestserver.h>

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/livefeed.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/websocketsource.h>

#include <QtCore/QJsonDocument>
#include <QtTest/QAbstractItemModelTester>
#include <QTest>

#include <memory>

struct LiveFixture
{
    DataClient::Testing::TestServer server;
    std::unique_ptr<DataClient::Testing::FakeRestApi> api;
    DataClient::Testing::WebSocketTestServer ws;
    std::unique_ptr<DataClient::Controller> controller;
    DataClient::Resource todos;

    bool start()
    {
        using namespace Qt::StringLiterals;
        using namespace DataClient;
        if (!server.listen() || !ws.listen())
            return false;
        api = std::make_unique<Testing::FakeRestApi>(&server);
        if (!api->addCollection(u"/todos"_s, Testing::SampleData::todos(12, 3)))
            return false;
        const EntitySchema todo = EntitySchema(u"Todo"_s).withDefaults(
            {{u"userId"_s, 0}, {u"title"_s, QString()}, {u"completed"_s, false}});
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = Schema::entity(todo),
                                .urlPrefix = server.baseUrl().toString(),
                                .searchParams = {u"userId"_s}});
        controller = std::make_unique<Controller>();
        return todos.isValid();
    }

    //! The default envelope's names: "Todo", the "todos" collection, "todos.getList".
    DataClient::LiveMapping mapping() const
    {
        using namespace Qt::StringLiterals;
        DataClient::LiveMapping mapping;
        mapping.addEntity(u"Todo"_s, todos.get->schema());
        mapping.addCollection(u"todos"_s, todos.getList->schema());
        mapping.addEndpoint(u"todos.getList"_s, todos.getList);
        return mapping;
    }

    //! A list model of the todos with \a params, ready (its first answer shown).
    std::unique_ptr<DataClient::CollectionModel> model(const DataClient::Params &params)
    {
        auto made = std::make_unique<DataClient::CollectionModel>(controller.get(), todos.getList,
                                                                  params);
        new QAbstractItemModelTester(
            made.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, made.get());
        if (!QTest::qWaitFor([&] { return made->status() == DataClient::CollectionModel::Ready; },
                             5000))
            return nullptr;
        return made;
    }

    qsizetype listRequests() const
    {
        using namespace Qt::StringLiterals;
        return server.requests("GET", u"/todos"_s).size();
    }

    static QString json(const QJsonObject &object)
    {
        return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    }
};
