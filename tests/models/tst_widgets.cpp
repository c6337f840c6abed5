// CollectionModel in Qt Widgets views (docs/widgets.md): a QTableView with one column per field,
// a QListView showing one field, both live against a Controller and the in-process server.
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonObject>
#include <QtTest/QAbstractItemModelTester>
#include <QtWidgets/QApplication>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QListView>
#include <QtWidgets/QTableView>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

class tst_Widgets : public QObject
{
    Q_OBJECT

private:
    Testing::TestServer server;
    std::unique_ptr<Testing::FakeRestApi> api;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        api = std::make_unique<Testing::FakeRestApi>(&server);
        QVERIFY(api->addCollection(u"/todos"_s, Testing::SampleData::todos(12, 3)));
    }

    void tableViewShowsAndFollowsTheStore()
    {
        Controller controller;
        const EntitySchema todo = EntitySchema(u"Todo"_s).withDefaults(
            {{u"title"_s, QString()}, {u"completed"_s, false}});
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = Schema::entity(todo),
                                               .urlPrefix = server.baseUrl().toString(),
                                               .searchParams = {u"userId"_s},
                                               .optimistic = true});

        auto *model
            = new DataClient::CollectionModel(&controller, todos.getList, {{u"userId"_s, 1}});
        model->setColumns({u"title"_s, u"completed"_s});
        QTableView table;
        table.setModel(model);
        model->setParent(&table);
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        Q_UNUSED(tester);

        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QVERIFY(model->rowCount() > 0);
        QCOMPARE(table.model()->columnCount(), 2);
        QCOMPARE(table.model()->headerData(0, Qt::Horizontal).toString(), u"title"_s);
        const QModelIndex firstTitle = model->index(0, 0);
        const QString title = model->data(firstTitle).toString();
        QVERIFY(!title.isEmpty());

        // A change made anywhere (here: a direct call) shows in the table's row.
        QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
        const int id = model->get(0).toMap().value(u"id"_s).toInt();
        controller.fetch(todos.partialUpdate, {{u"id"_s, id}},
                         QJsonObject {{u"title"_s, u"renamed"_s}});
        QCOMPARE(changed.size(), 1); // optimistic: at once
        QCOMPARE(model->data(model->index(0, 0)).toString(), u"renamed"_s);
        QTRY_COMPARE(api->item(u"/todos"_s, id).value(u"title"_s).toString(), u"renamed"_s);
    }

    // docs/widgets.md, "Ten lines": an editable table of todos.
    void tenLinesMakeAnEditableTable()
    {
        QTableView table;
        DataClient::Controller controller;
        const DataClient::Resource todos = DataClient::createResource({
            .path = u"/todos/:id"_s,
            .schema = DataClient::Schema::entity(DataClient::EntitySchema(u"Todo"_s)),
            .urlPrefix = server.baseUrl().toString(),
            .optimistic = true,
        });
        auto *model = new DataClient::CollectionModel(&controller, todos.getList, {}, &table);
        model->setColumns({u"title"_s, u"completed"_s});
        model->setEditable(todos); // a cell edit sends a PATCH of that field
        table.setModel(model);
        table.show();

        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(model->rowCount(), 12);
        QVERIFY(model->flags(model->index(0, 0)) & Qt::ItemIsEditable);
        QVERIFY(model->flags(model->index(0, 1)) & Qt::ItemIsUserCheckable);
        const int id = model->get(0).toMap().value(u"id"_s).toInt();
        QVERIFY(model->setData(model->index(0, 0), u"ten lines"_s));
        QCOMPARE(model->data(model->index(0, 0)).toString(), u"ten lines"_s);
        QTRY_COMPARE(api->item(u"/todos"_s, id).value(u"title"_s).toString(), u"ten lines"_s);
    }

    void listViewShowsOneField()
    {
        Controller controller;
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                               .urlPrefix = server.baseUrl().toString()});
        QListView list;
        auto *model = new DataClient::CollectionModel(&controller, todos.getList, {}, &list);
        model->setColumns({u"title"_s});
        list.setModel(model);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(list.model()->rowCount(), 12);
        QCOMPARE(model->data(model->index(3, 0)).toString(),
                 api->collection(u"/todos"_s).at(3).toObject().value(u"title"_s).toString());
    }
};

QTEST_MAIN(tst_Widgets)
#include "tst_widgets.moc"
