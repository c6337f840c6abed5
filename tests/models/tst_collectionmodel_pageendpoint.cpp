// CollectionModel::setPageEndpoint(): a model of getList pages with the endpoint it is given
// (resource.getList.getPage): loadMore() / fetchMore() ask the server for page 2, 3, ... with the
// model's own params, append the rows, and stop after a short page. Without one, nothing is
// paged. A refetch of the first page keeps the later pages; a later page's failure is the page's
// (pageError), and a 404 past the end (Django REST Framework's "Invalid page.") ends hasMore.
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/responsestate.h>
#include <DataClient/rowlist.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QUrlQuery>
#include <QtTest/QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

constexpr int pageSize = 5;

// 24 todos, users 1 and 2 alternating (12 each).
QJsonArray feed()
{
    QJsonArray items;
    for (int id = 1; id <= 24; ++id) {
        items.append(QJsonObject {
            {u"id"_s, id}, {u"userId"_s, 2 - id % 2}, {u"title"_s, u"todo %1"_s.arg(id)}});
    }
    return items;
}

} // namespace

class tst_CollectionModelPageEndpoint : public QObject
{
    Q_OBJECT

private:
    TestServer server;
    std::unique_ptr<Controller> controller;
    QJsonArray items; // what GET /feed serves (feed() at the start of each test)
    bool invalidPagePastTheEnd = false; // a page with no items: 404 {"detail": "Invalid page."}
    int failingPage = 0; // answered 403 while set
    static constexpr int failingStatus = 403; // not retried: the failure shows at once

    Resource makeResource(const QString &paginationField) const
    {
        return createResource({.path = u"/feed/:id"_s,
                               .schema = Schema::entity(EntitySchema(u"Todo"_s).withDefaults(
                                   {{u"userId"_s, 0}, {u"title"_s, QString()}})),
                               .urlPrefix = server.baseUrl().toString(),
                               .searchParams = {u"userId"_s},
                               .paginationField = paginationField});
    }
    QList<RecordedRequest> feedRequests() const { return server.requests("GET", u"/feed"_s); }
    static QList<int> ids(const CollectionModel &model)
    {
        QList<int> result;
        for (int row = 0; row < model.rowCount(); ++row)
            result.append(model.get(row).toMap().value(u"id"_s).toInt());
        return result;
    }

    //! A model of user 1's todos with the page endpoint, \a pages pages loaded.
    std::unique_ptr<CollectionModel> pagedModel(const Resource &feedResource, int pages)
    {
        auto model = std::make_unique<CollectionModel>(controller.get(), feedResource.getList,
                                                       Params {{u"userId"_s, 1}});
        model->setPageEndpoint(feedResource.getList.getPage);
        if (!QTest::qWaitFor([&] { return model->status() == CollectionModel::Ready; }))
            qWarning("the first page did not load");
        for (int page = 2; page <= pages; ++page) {
            model->loadMore();
            if (!QTest::qWaitFor([&] { return !model->isLoadingMore(); }))
                qWarning("page %d did not load", page);
        }
        return model;
    }
    //! User 1's todos on the server, in its order.
    QList<int> serverIdsOfUser1() const
    {
        QList<int> result;
        for (const QJsonValue &item : items) {
            if (item[u"userId"_s].toInt() == 1)
                result.append(item[u"id"_s].toInt());
        }
        return result;
    }
    //! Reads user 1's first page again, as a mutation of an expired list or a reconnect does,
    //! and waits until the \a laterPages pages loaded after it were read again.
    void refetchFirstPage(const Resource &feedResource, int laterPages)
    {
        const qsizetype before = feedRequests().size();
        QFuture<QVariant> read = controller->fetch(feedResource.getList, {{u"userId"_s, 1}});
        QTRY_VERIFY(read.isFinished());
        QVERIFY(read.resultCount() == 1);
        QTRY_COMPARE(feedRequests().size(), before + 1 + laterPages);
        QTRY_VERIFY(!controller->getResponse(feedResource.getList, {{u"userId"_s, 1}}).loading);
        const QList<RecordedRequest> sent = feedRequests().mid(before);
        QVERIFY(!sent.at(0).query.hasQueryItem(u"page"_s)); // the first page, then the others
        for (int page = 2; page <= laterPages + 1; ++page)
            QCOMPARE(sent.at(page - 1).query.queryItemValue(u"page"_s), QString::number(page));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(server.listen()); }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        // GET /feed: filtered by ?userId=; the page in ?page= or ?p= (pageSize per page), the
        // first page without one.
        items = feed();
        invalidPagePastTheEnd = false;
        failingPage = 0;
        server.route("GET", u"/feed"_s, [this](const RecordedRequest &request) {
            const QString user = request.query.queryItemValue(u"userId"_s);
            QJsonArray matching;
            for (const QJsonValue &item : std::as_const(items)) {
                if (user.isEmpty() || QString::number(item[u"userId"_s].toInt()) == user)
                    matching.append(item);
            }
            int page = 1;
            for (const QString &field : {u"page"_s, u"p"_s}) {
                if (request.query.hasQueryItem(field))
                    page = request.query.queryItemValue(field).toInt();
            }
            if (page == failingPage)
                return ServerResponse::json(QJsonObject {{u"detail"_s, u"Forbidden."_s}},
                                            failingStatus);
            QJsonArray answer;
            for (qsizetype i = (page - 1) * pageSize;
                 i >= 0 && i < matching.size() && i < page * pageSize; ++i)
                answer.append(matching.at(i));
            if (answer.isEmpty() && page > 1 && invalidPagePastTheEnd)
                return ServerResponse::json(QJsonObject {{u"detail"_s, u"Invalid page."_s}}, 404);
            return ServerResponse::json(answer);
        });
        controller = std::make_unique<Controller>();
    }
    void cleanup() { controller.reset(); }

    void loadMoreUsesThePageEndpoint_data()
    {
        QTest::addColumn<QString>("paginationField");
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("userQuery"); // what every request carries besides the page
        QTest::addColumn<QList<int>>("pageSizes"); // rows added by page 1, 2, ...

        QTest::newRow("page, all users")
            << u"page"_s << Params() << QString() << QList<int> {5, 5, 5, 5, 4};
        QTest::newRow("page, user 2")
            << u"page"_s << Params {{u"userId"_s, 2}} << u"userId=2"_s << QList<int> {5, 5, 2};
        QTest::newRow("another field name (p), user 1")
            << u"p"_s << Params {{u"userId"_s, 1}} << u"userId=1"_s << QList<int> {5, 5, 2};
    }
    void loadMoreUsesThePageEndpoint()
    {
        QFETCH(QString, paginationField);
        QFETCH(Params, params);
        QFETCH(QString, userQuery);
        QFETCH(QList<int>, pageSizes);

        const Resource feedResource = makeResource(paginationField);
        QVERIFY2(feedResource.isValid(), qPrintable(feedResource.errorString()));
        CollectionModel model(controller.get(), feedResource.getList, params);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        Q_UNUSED(tester);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QCOMPARE(model.rowCount(), pageSizes.constFirst());
        // getList has no pagination field: without a page endpoint there is nothing more.
        QVERIFY(!model.hasMore());
        QVERIFY(!model.canFetchMore({}));
        model.loadMore();
        QVERIFY(!model.isLoadingMore());

        model.setPageEndpoint(feedResource.getList.getPage);
        QCOMPARE(model.pageEndpoint(), feedResource.getList.getPage.endpoint());
        QCOMPARE(model.status(), CollectionModel::Ready); // the stored first page, at once
        QVERIFY(model.hasMore());
        QVERIFY(model.canFetchMore({}));

        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        int rows = pageSizes.constFirst();
        for (qsizetype page = 2; page <= pageSizes.size(); ++page) {
            QVERIFY2(model.hasMore(), qPrintable(u"before page %1"_s.arg(page)));
            if (page % 2)
                model.loadMore();
            else
                model.fetchMore({}); // what a view calls
            QVERIFY(model.isLoadingMore());
            QVERIFY(!model.canFetchMore({}));
            model.loadMore(); // ignored: a page is in flight
            QTRY_VERIFY(!model.isLoadingMore());

            const RecordedRequest sent = feedRequests().constLast();
            QUrlQuery expectedQuery(userQuery);
            expectedQuery.addQueryItem(paginationField, QString::number(page));
            auto sentItems = sent.query.queryItems();
            auto expectedItems = expectedQuery.queryItems();
            std::sort(sentItems.begin(), sentItems.end());
            std::sort(expectedItems.begin(), expectedItems.end());
            QCOMPARE(sentItems, expectedItems);
            QCOMPARE(feedRequests().size(), page);

            rows += pageSizes.at(page - 1);
            QCOMPARE(model.rowCount(), rows);
            QCOMPARE(inserted.size(), page - 1); // one insertion per page, at the end
            QCOMPARE(inserted.constLast().at(1).toInt(), rows - pageSizes.at(page - 1));
        }
        QCOMPARE(reset.size(), 0);
        QVERIFY(!model.hasMore()); // the last page was short
        QVERIFY(!model.canFetchMore({}));
        model.loadMore();
        QVERIFY(!model.isLoadingMore());
        QCOMPARE(feedRequests().size(), pageSizes.size());

        // Every item of the user, each once, in the server's order.
        QList<int> expected;
        for (const QJsonValue &item : feed()) {
            if (!params.contains(u"userId"_s)
                || item[u"userId"_s].toInt() == params.value(u"userId"_s).toInt())
                expected.append(item[u"id"_s].toInt());
        }
        QCOMPARE(ids(model), expected);
    }

    // A refetch of the first page (a mutation of an expired list, a reconnect, refetch()) keeps
    // the later pages: the new first page, then the loaded rows after it without duplicates.
    // Never fewer rows than loaded, hasMore as it was, and the next page still reachable.
    void aFirstPageRefetchKeepsTheLaterPages()
    {
        const Resource feedResource = makeResource(u"page"_s);
        auto model = pagedModel(feedResource, 2);
        QCOMPARE(model->rowCount(), 2 * pageSize);
        QVERIFY(model->hasMore());
        const QList<int> loaded = ids(*model);
        QSignalSpy removed(model.get(), &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(model.get(), &QAbstractItemModel::modelReset);

        refetchFirstPage(feedResource, 1);
        QCOMPARE(ids(*model), loaded);
        QVERIFY(model->hasMore());
        QVERIFY(model->canFetchMore({}));
        QCOMPARE(removed.size(), 0);
        QCOMPARE(reset.size(), 0);
        const Params user1 {{u"userId"_s, 1}};
        QCOMPARE(rowsOf(controller->getResponse(feedResource.getList, user1).data).size(),
                 2 * pageSize);

        // The server changed meanwhile: the first row deleted, one added at the end. The next
        // refetch drops the deleted row, keeps the second page and reads it again: the row that
        // moved onto it from the third page shows. The third page brings the rest, each row once.
        items.removeAt(0);
        items.append(QJsonObject {{u"id"_s, 99}, {u"userId"_s, 1}, {u"title"_s, u"new"_s}});
        refetchFirstPage(feedResource, 1);
        QCOMPARE(ids(*model), serverIdsOfUser1().mid(0, 2 * pageSize));
        QVERIFY(model->hasMore());
        model->loadMore();
        QTRY_VERIFY(!model->isLoadingMore());
        QCOMPARE(ids(*model), serverIdsOfUser1());
        QVERIFY(!model->hasMore());

        // Everything loaded: a refetch keeps it all, and "all loaded" stays true.
        refetchFirstPage(feedResource, 2);
        QCOMPARE(ids(*model), serverIdsOfUser1());
        QVERIFY(!model->hasMore());
    }

    // Django REST Framework answers a page past the end with 404 {"detail": "Invalid page."}: a
    // list of exactly 2 pages reaches it. The list stays shown and complete, with no error.
    void anInvalidPagePastTheEndEndsHasMore()
    {
        invalidPagePastTheEnd = true;
        while (serverIdsOfUser1().size() > 2 * pageSize) // exactly two full pages
            items.removeAt(items.size() - 1);
        const Resource feedResource = makeResource(u"page"_s);
        auto model = pagedModel(feedResource, 2);
        QCOMPARE(model->rowCount(), 2 * pageSize);
        QVERIFY(model->hasMore()); // a full page: there may be more
        QSignalSpy pageError(model.get(), &CollectionModel::pageErrorChanged);

        model->loadMore();
        QTRY_VERIFY(!model->isLoadingMore());
        QCOMPARE(feedRequests().constLast().query.queryItemValue(u"page"_s), u"3"_s);
        QCOMPARE(model->status(), CollectionModel::Ready);
        QVERIFY(!model->networkError());
        QVERIFY(!model->pageNetworkError());
        QCOMPARE(pageError.size(), 0);
        QVERIFY(!model->hasMore());
        QVERIFY(!model->canFetchMore({}));
        QCOMPARE(ids(*model), serverIdsOfUser1());
        const ResponseState state
            = controller->getResponse(feedResource.getList, {{u"userId"_s, 1}});
        QVERIFY(state.hasData());
        QVERIFY(!state.error);
    }

    // Any other failure of a later page is the page's: the list stays shown (status Ready, no
    // error, the key's data intact), hasMore stays, pageError says what failed; a view does not
    // ask again by itself (canFetchMore), retryPage() does.
    void aFailedPageIsThePagesErrorAndRetryPageLoadsIt()
    {
        const Resource feedResource = makeResource(u"page"_s);
        auto model = pagedModel(feedResource, 1);
        const QList<int> firstPage = ids(*model);
        QSignalSpy pageError(model.get(), &CollectionModel::pageErrorChanged);
        QSignalSpy status(model.get(), &CollectionModel::statusChanged);
        failingPage = 2;

        model->loadMore();
        QTRY_VERIFY(!model->isLoadingMore());
        QCOMPARE(pageError.size(), 1);
        QVERIFY(model->pageNetworkError());
        QCOMPARE(model->pageNetworkError()->status(), failingStatus);
        QCOMPARE(model->pageErrorValue().toMap().value(u"status"_s).toInt(), failingStatus);
        QCOMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(status.size(), 0);
        QVERIFY(!model->networkError());
        QCOMPARE(ids(*model), firstPage);
        QVERIFY(model->hasMore());
        QVERIFY(!model->canFetchMore({}));
        QVERIFY(controller->getResponse(feedResource.getList, {{u"userId"_s, 1}}).hasData());

        failingPage = 0;
        model->retryPage();
        QVERIFY(model->isLoadingMore());
        QTRY_VERIFY(!model->isLoadingMore());
        QCOMPARE(feedRequests().constLast().query.queryItemValue(u"page"_s), u"2"_s);
        QVERIFY(!model->pageNetworkError());
        QCOMPARE(pageError.size(), 2);
        QCOMPARE(model->rowCount(), 2 * pageSize);
        QVERIFY(model->canFetchMore({}));
    }

    // A page error is the shown key's page load: re-targeted, the model shows the other key with
    // no page error and pages it as usual; a late answer of the old key's page changes nothing.
    void aPageErrorGoesWithARetarget()
    {
        const Resource feedResource = makeResource(u"page"_s);
        auto model = pagedModel(feedResource, 1);
        failingPage = 2;
        model->loadMore();
        QTRY_VERIFY(!model->isLoadingMore());
        QVERIFY(model->pageNetworkError());

        failingPage = 0;
        model->setParams({{u"userId"_s, 2}});
        QVERIFY(!model->pageNetworkError());
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QTRY_VERIFY(!model->isLoading());
        QVERIFY(model->canFetchMore({}));
        model->loadMore();
        QTRY_VERIFY(!model->isLoadingMore());
        QCOMPARE(model->rowCount(), 2 * pageSize);
        QVERIFY(!model->pageNetworkError());
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->get(row).toMap().value(u"userId"_s).toInt(), 2);
    }

    void clearingThePageEndpointStopsPaging()
    {
        const Resource feedResource = makeResource(u"page"_s);
        CollectionModel model(controller.get(), feedResource.getList, {});
        model.setPageEndpoint(feedResource.getList.getPage);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QVERIFY(model.hasMore());
        model.setPageEndpoint(nullptr);
        QVERIFY(!model.pageEndpoint());
        QVERIFY(!model.hasMore());
        model.loadMore();
        QVERIFY(!model.isLoadingMore());
        QCOMPARE(feedRequests().size(), 1);
    }
};

QTEST_MAIN(tst_CollectionModelPageEndpoint)
#include "tst_collectionmodel_pageendpoint.moc"
