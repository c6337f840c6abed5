// CollectionModel::setPageEndpoint(): a model of getList pages with the endpoint it is given
// (resource.getList.getPage): loadMore() / fetchMore() ask the server for page 2, 3, ... with the
// model's own params, append the rows, and stop after a short page. Without one, nothing is
// paged.
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
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

private Q_SLOTS:
    void initTestCase() { QVERIFY(server.listen()); }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        // GET /feed: filtered by ?userId=; the page in ?page= or ?p= (pageSize per page), the
        // first page without one.
        server.route("GET", u"/feed"_s, [](const RecordedRequest &request) {
            const QString user = request.query.queryItemValue(u"userId"_s);
            QJsonArray matching;
            for (const QJsonValue &item : feed()) {
                if (user.isEmpty() || QString::number(item[u"userId"_s].toInt()) == user)
                    matching.append(item);
            }
            int page = 1;
            for (const QString &field : {u"page"_s, u"p"_s}) {
                if (request.query.hasQueryItem(field))
                    page = request.query.queryItemValue(field).toInt();
            }
            QJsonArray items;
            for (qsizetype i = (page - 1) * pageSize;
                 i >= 0 && i < matching.size() && i < page * pageSize; ++i)
                items.append(matching.at(i));
            return ServerResponse::json(items);
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
