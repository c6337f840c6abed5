// Coroutines (optional: built when QCoro 0.8+ is found): co_await controller.fetch(...)
// and the typed forms, a failure as a NetworkError thrown at the co_await. QCoro::waitFor spins
// an event loop: a test's way to run a coroutine, never the library's.
#include "typedorders.h"

#include <DataClient/controller.h>
#include <DataClient/testing/mocknetwork.h>

#include <QCoro/QCoroFuture>
#include <QCoro/QCoroTask>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

// String literals stay out of the coroutine bodies: GCC 12 miscompiles them there ("array used
// as initializer").
Params idParams(int id)
{
    return {{u"id"_s, id}};
}

QString describe(const QVariant &raw, const Order &order)
{
    return u"%1 %2 %3"_s.arg(raw.toMap().value(u"id"_s).toString(), order.customer.name,
                             order.total.toString());
}

//! What an app's coroutine looks like: await the order, then its typed form.
QCoro::Task<QString> describeOrder(Controller &controller, Resource orders, int id)
{
    const QVariant raw = co_await controller.fetch(orders.get, idParams(id));
    const Order order
        = co_await controller.fetch(orders.get, idParams(id)).then([](const QVariant &value) {
              return fromVariant<Order>(value);
          });
    co_return describe(raw, order);
}

QCoro::Task<int> statusOfFailure(Controller &controller, Resource orders)
{
    try {
        co_await controller.fetch(orders.get, idParams(404));
    } catch (const NetworkError &error) {
        co_return error.status();
    }
    co_return 0;
}

} // namespace

class tst_Coroutines : public QObject
{
    Q_OBJECT

    const Resource orders = orderResource(u"http://api.test"_s);

private Q_SLOTS:
    void coAwaitAFetchAndItsTypedForm()
    {
        MockNetwork network({{.endpoint = orders.get,
                              .params = {{u"id"_s, 1}},
                              .response = orderJson(1, u"9.99"_s)}});
        Controller controller(&network);
        QCOMPARE(QCoro::waitFor(describeOrder(controller, orders, 1)), u"1 Ada 9.99"_s);
        // The second co_await joined nothing: the first had finished; a fresh read was sent.
        QCOMPARE(network.requests().size(), 2);
    }

    void aFailureIsThrownAtTheCoAwait()
    {
        MockNetwork network({{.endpoint = orders.get, .params = {{u"id"_s, 404}}, .status = 404}});
        Controller controller(&network);
        QCOMPARE(QCoro::waitFor(statusOfFailure(controller, orders)), 404);
    }
};

QTEST_GUILESS_MAIN(tst_Coroutines)
#include "tst_coroutines.moc"
