// A paged CollectionModel whose list is read again (docs/pagination.md "Refetching a paged
// list"): rows pushed onto a list with only its first page loaded stay after a new first page; an
// invalidated list and a list restored from disk read their loaded pages again (a view keeps the
// rows it loaded, and "all loaded" waits for the last page); a page read after rows of the
// earlier pages were deleted reads the list again (the server's pages moved up).
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtCore/QUrlQuery>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

constexpr int pageSize = 5;
constexpr int firstTodos = 12;

} // namespace

class tst_CollectionModelPageRefetch : public QObject
{
    Q_OBJECT

private:
    TestServer server;
    std::unique_ptr<Controller> controller;
    QJsonArray items; // what GET /todos serves, in order: ids 1..firstTodos, then created ones
    Resource todos;
    QTemporaryDir dir;

    void serve()
    {
        server.route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            const int page = request.query.hasQueryItem(u"page"_s)
                ? request.query.queryItemValue(u"page"_s).toInt()
                : 1;
            QJsonArray answer;
            for (qsizetype i = (page - 1) * pageSize; i < items.size() && i < page * pageSize; ++i)
                answer.append(items.at(i));
            return ServerResponse::json(answer);
        });
        server.route("POST", u"/todos"_s, [this](const RecordedRequest &request) {
            QJsonObject created = request.json().toObject();
            created.insert(u"id"_s, 100 + items.size());
            items.append(created);
            return ServerResponse::json(created, 201);
        });
        server.route("DELETE", u"/todos/:id"_s, [this](const RecordedRequest &request) {
            const int id = request.pathParams.value(u"id"_s).toInt();
            for (qsizetype i = 0; i < items.size(); ++i) {
                if (items.at(i)[u"id"_s].toInt() == id)
                    items.removeAt(i--);
            }
            return ServerResponse::json(QJsonObject {{u"id"_s, id}});
        });
    }
    QList<int> serverIds() const
    {
        QList<int> result;
        for (const QJsonValue &item : items)
            result.append(item[u"id"_s].toInt());
        return result;
    }
    static QList<int> ids(const CollectionModel &model)
    {
        QList<int> result;
        for (int row = 0; row < model.rowCount(); ++row)
            result.append(model.get(row).toMap().value(u"id"_s).toInt());
        return result;
    }
    //! A model of the todos with \a pages pages loaded; nothing in flight afterwards.
    std::unique_ptr<CollectionModel> pagedModel(int pages)
    {
        auto model = std::make_unique<CollectionModel>(controller.get(), todos.getList);
        model->setPageEndpoint(todos.getList.getPage);
        for (int page = 1; page <= pages; ++page) {
            if (page > 1)
                model->loadMore();
            if (!QTest::qWaitFor([&] { return idle(*model); }))
                qWarning("page %d did not load", page);
        }
        return model;
    }
    static bool idle(const CollectionModel &model)
    {
        return model.status() == CollectionModel::Ready && !model.isLoading()
            && !model.isLoadingMore();
    }
    void newController()
    {
        controller = std::make_unique<Controller>();
        controller->setPersistence(dir.filePath(u"store"_s));
    }
    bool settled(const QFuture<QVariant> &future, const CollectionModel &model)
    {
        return QTest::qWaitFor([&] { return future.isFinished() && idle(model); });
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(server.listen() && dir.isValid()); }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        items = {};
        for (int id = 1; id <= firstTodos; ++id)
            items.append(QJsonObject {{u"id"_s, id}, {u"title"_s, u"todo %1"_s.arg(id)}});
        serve();
        QFile::remove(dir.filePath(u"store"_s));
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                .urlPrefix = server.baseUrl().toString(),
                                .paginationField = u"page"_s});
        newController();
    }
    void cleanup() { controller.reset(); }

    // The new row is on page 3 on the server; the next first page does not hold it, and it stays
    // shown until the later pages are read.
    void aRowPushedOntoTheFirstPageStaysAfterARefetch()
    {
        auto model = pagedModel(1);
        QFuture<QVariant> push
            = controller->fetch(todos.getList.push, {}, QJsonObject {{u"title"_s, u"new"_s}});
        QVERIFY(settled(push, *model));
        QCOMPARE(model->rowCount(), pageSize + 1);
        model->refetch();
        QTRY_VERIFY(idle(*model));
        QCOMPARE(ids(*model), (QList<int> {1, 2, 3, 4, 5, 112}));
        QVERIFY(model->hasMore());
    }

    void anInvalidatedListReadsItsPagesAgain()
    {
        auto model = pagedModel(2);
        QCOMPARE(model->rowCount(), 2 * pageSize);
        controller->invalidate(todos.getList);
        QTRY_VERIFY(idle(*model));
        QCOMPARE(ids(*model), serverIds().mid(0, 2 * pageSize));
        QVERIFY(model->hasMore());
        model->loadMore(); // page 3, not page 2 again
        QTRY_VERIFY(idle(*model));
        QCOMPARE(ids(*model), serverIds());
        QVERIFY(!model->hasMore());
    }

    // After a restart, the restored list shows its two pages; its revalidation reads both again,
    // and the next page is the third.
    void aRestoredListKeepsItsPages()
    {
        {
            auto model = pagedModel(2);
            QCOMPARE(model->rowCount(), 2 * pageSize);
        }
        newController();
        server.clearRequests();
        auto model = pagedModel(1);
        QTRY_COMPARE(server.requests("GET", u"/todos"_s).size(), 2);
        QTRY_VERIFY(idle(*model));
        QCOMPARE(ids(*model), serverIds().mid(0, 2 * pageSize));
        QVERIFY(model->hasMore());
        model->loadMore();
        QTRY_VERIFY(idle(*model));
        QCOMPARE(ids(*model), serverIds());
        QVERIFY(!model->hasMore());
    }

    // Todo 3 goes: todo 6 moves onto the server's first page, and page 2 begins with todo 7.
    void aPageAfterDeletedRowsReadsTheListAgain()
    {
        auto model = pagedModel(1);
        QFuture<QVariant> removed = controller->fetch(todos.remove, {{u"id"_s, 3}});
        QVERIFY(settled(removed, *model));
        QCOMPARE(model->rowCount(), pageSize - 1);
        model->loadMore();
        QTRY_VERIFY(idle(*model));
        QTRY_COMPARE(ids(*model), serverIds().mid(0, 2 * pageSize));
        QVERIFY(model->hasMore());
    }
};

QTEST_MAIN(tst_CollectionModelPageRefetch)
#include "tst_collectionmodel_pagerefetch.moc"
