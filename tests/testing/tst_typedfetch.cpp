// Typed C++: fetchAs<T>() / fetchListAs<T>() of a ResourceMember and the Controller's
// answer as gadgets — a nested gadget, a QDateTime (milliseconds, UTC) and a Decimal beyond a
// double's precision survive.
#include "typedorders.h"
#include "utcdatetime.h"

#include <DataClient/controller.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/mocknetwork.h>
#include <DataClient/testing/testserver.h>

#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_TypedFetch : public QObject
{
    Q_OBJECT

    static void checkFirst(const Order &order)
    {
        QCOMPARE(order.id, 1);
        QCOMPARE(order.placedAt, utcDateTime(QDate(2024, 5, 1), QTime(8, 30, 0, 250)));
        QCOMPARE(order.total.toString(), u"12345678901234567890.05"_s);
        QCOMPARE(order.customer.id, 71);
        QCOMPARE(order.customer.name, u"Ada"_s);
    }

private Q_SLOTS:
    void theControllerAnswerAsGadgets()
    {
        const Resource orders = orderResource(u"http://api.test"_s);
        MockNetwork network({{.endpoint = orders.get,
                              .params = {{u"id"_s, 1}},
                              .response = orderJson(1, u"12345678901234567890.05"_s)},
                             {.endpoint = orders.getList,
                              .response = QJsonArray {orderJson(1, u"12345678901234567890.05"_s),
                                                      orderJson(2, u"-0.10"_s)}}});
        Controller controller(&network);
        const std::optional<QVariant> one = await(controller.fetch(orders.get, {{u"id"_s, 1}}));
        QVERIFY(one);
        QString error;
        checkFirst(fromVariant<Order>(*one, &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const std::optional<QVariant> all = await(controller.fetch(orders.getList));
        QVERIFY(all);
        const QList<Order> list = fromVariantList<Order>(*all, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(list.size(), 2);
        checkFirst(list.first());
        QCOMPARE(list.last().total.toString(), u"-0.10"_s);
    }

    void fetchAsAndFetchListAsOfAResourceMember()
    {
        // ResourceMember::fetchAs sends with the default manager: over the in-process server.
        TestServer server;
        QVERIFY(server.listen());
        server.route("GET", u"/orders/1"_s, [](const RecordedRequest &) {
            return ServerResponse::json(orderJson(1, u"12345678901234567890.05"_s));
        });
        server.route("GET", u"/orders"_s, [](const RecordedRequest &) {
            return ServerResponse::json(
                QJsonArray {orderJson(1, u"12345678901234567890.05"_s), orderJson(3, u"7"_s)});
        });
        const Resource orders = orderResource(server.url());
        const std::optional<Order> one = await(orders.get.fetchAs<Order>({{u"id"_s, 1}}));
        QVERIFY(one);
        checkFirst(*one);
        const std::optional<QList<Order>> list = await(orders.getList.fetchListAs<Order>());
        QVERIFY(list);
        QCOMPARE(list->size(), 2);
        checkFirst(list->first());
        QCOMPARE(list->last().customer.id, 73);
        QCOMPARE(list->last().placedAt.date(), QDate(2024, 5, 3));
    }
};

QTEST_GUILESS_MAIN(tst_TypedFetch)
#include "tst_typedfetch.moc"
