// Shared by the editing tests (tests/models/tst_collectionedit*.cpp): a fresh in-process todo
// server, an optimistic todo resource and a shown, editable CollectionModel of user 1's todos
// (columns title, completed, createdAt, userId) checked by QAbstractItemModelTester.
#pragma once

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtTest/QAbstractItemModelTester>
#include <QtWidgets/QTableView>
#include <QTest>

#include <memory>

struct EditFixture
{
    enum Column { Title, Completed, CreatedAt, UserId };

    explicit EditFixture(bool optimistic = true)
    {
        using namespace Qt::StringLiterals;
        if (!server.listen())
            qFatal("the test server cannot listen");
        api = std::make_unique<DataClient::Testing::FakeRestApi>(&server);
        api->addCollection(u"/todos"_s, DataClient::Testing::SampleData::todos(12, 3));
        const DataClient::EntitySchema todo
            = DataClient::EntitySchema(u"Todo"_s)
                  .withField(u"createdAt"_s, DataClient::Deserialize::dateTime())
                  .withDefaults({{u"title"_s, QString()}, {u"completed"_s, false}});
        todos = DataClient::createResource({.path = u"/todos/:id"_s,
                                            .schema = DataClient::Schema::entity(todo),
                                            .urlPrefix = server.baseUrl().toString(),
                                            .searchParams = {u"userId"_s},
                                            .optimistic = optimistic});
        model = new DataClient::CollectionModel(&controller, todos.getList, {{u"userId"_s, 1}},
                                                &table);
        model->setColumns({u"title"_s, u"completed"_s, u"createdAt"_s, u"userId"_s});
        model->setEditable(todos);
        tester = std::make_unique<QAbstractItemModelTester>(
            model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.setModel(model);
        table.resize(640, 400);
    }

    //! Shows the table and waits for the first answer; false when that fails.
    [[nodiscard]] bool ready()
    {
        table.show();
        if (!QTest::qWaitForWindowExposed(&table))
            return false;
        return QTest::qWaitFor([this] {
            return model->status() == DataClient::CollectionModel::Ready && model->rowCount() > 1;
        });
    }

    int idOf(int row) const
    {
        using namespace Qt::StringLiterals;
        return model->get(row).toMap().value(u"id"_s).toInt();
    }
    QString pathOf(int row) const { return QStringLiteral("/todos/%1").arg(idOf(row)); }
    QList<DataClient::Testing::RecordedRequest> patches() const
    {
        QList<DataClient::Testing::RecordedRequest> out;
        const QList<DataClient::Testing::RecordedRequest> all = server.requests();
        for (const DataClient::Testing::RecordedRequest &request : all) {
            if (request.method == "PATCH")
                out.append(request);
        }
        return out;
    }

    DataClient::Testing::TestServer server;
    std::unique_ptr<DataClient::Testing::FakeRestApi> api;
    DataClient::Controller controller;
    DataClient::Resource todos;
    QTableView table;
    DataClient::CollectionModel *model = nullptr; // owned by the table
    std::unique_ptr<QAbstractItemModelTester> tester;
};
