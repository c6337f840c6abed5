// ResourceMember::fetchListAs<T>(): a list member called directly resolves with gadgets, fields
// deserialized (QDateTime, Decimal), in the server's order; a failure is a NetworkError.
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/createresource.h>
#include <DataClient/decimal.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

struct Invoice
{
    Q_GADGET
    Q_PROPERTY(QString id MEMBER id)
    Q_PROPERTY(QString customer MEMBER customer)
    Q_PROPERTY(QDateTime issuedAt MEMBER issuedAt)
    Q_PROPERTY(DataClient::Decimal total MEMBER total)
public:
    QString id;
    QString customer;
    QDateTime issuedAt;
    DataClient::Decimal total;
    QString pk() const { return id; }
    static constexpr auto key = "Invoice";
};

namespace {

QJsonObject invoice(int id, const QString &customer, int day, const QString &total)
{
    return {{u"id"_s, QString::number(id)},
            {u"customer"_s, customer},
            {u"issuedAt"_s, u"2024-03-%1T10:00:00.000Z"_s.arg(day, 2, 10, QLatin1Char('0'))},
            {u"total"_s, total}};
}

// Newest first, as the server keeps them.
const QJsonArray allInvoices {
    invoice(3, u"ada"_s, 12, u"0.30"_s),
    invoice(1, u"bob"_s, 10, u"12345678901234567890.05"_s),
    invoice(2, u"ada"_s, 11, u"-7.5"_s),
};

} // namespace

class tst_FetchListAs : public ServerTest
{
    Q_OBJECT

    Resource invoices;

    void setUp() override
    {
        // GET /invoices: filtered by ?customer=, paged by ?page= (2 per page; no page: all).
        server.route("GET", u"/invoices"_s, [](const RecordedRequest &request) {
            const QString customer = request.query.queryItemValue(u"customer"_s);
            QJsonArray matching;
            for (const QJsonValue &item : allInvoices) {
                if (customer.isEmpty() || item[u"customer"_s].toString() == customer)
                    matching.append(item);
            }
            if (!request.query.hasQueryItem(u"page"_s))
                return ServerResponse::json(matching);
            const int page = request.query.queryItemValue(u"page"_s).toInt();
            QJsonArray items;
            for (qsizetype i = (page - 1) * 2; i >= 0 && i < matching.size() && i < page * 2; ++i)
                items.append(matching.at(i));
            return ServerResponse::json(items);
        });
        invoices = createResource<Invoice>({.path = u"/invoices/:id"_s,
                                            .urlPrefix = server.url(),
                                            .searchParams = {u"customer"_s},
                                            .paginationField = u"page"_s});
        QVERIFY2(invoices.isValid(), qPrintable(invoices.errorString()));
    }

private Q_SLOTS:
    void resolvesWithTypedItems_data()
    {
        QTest::addColumn<bool>("getPage");
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("sentQuery");
        QTest::addColumn<QStringList>("expectedIds");

        QTest::newRow("getList, no params") << false << Params() << QString() //
                                            << QStringList {u"3"_s, u"1"_s, u"2"_s};
        QTest::newRow("getList, filtered") << false << Params {{u"customer"_s, u"ada"_s}}
                                           << u"customer=ada"_s << QStringList {u"3"_s, u"2"_s};
        QTest::newRow("getPage 2")
            << true << Params {{u"page"_s, 2}} << u"page=2"_s << QStringList {u"2"_s};
        QTest::newRow("empty list") << false << Params {{u"customer"_s, u"nobody"_s}}
                                    << u"customer=nobody"_s << QStringList();
    }
    void resolvesWithTypedItems()
    {
        QFETCH(bool, getPage);
        QFETCH(Params, params);
        QFETCH(QString, sentQuery);
        QFETCH(QStringList, expectedIds);

        const ResourceMember member = getPage ? invoices.getList.getPage : invoices.getList;
        const auto outcome = await(member.fetchListAs<Invoice>(params));
        QVERIFY(outcome.finished);
        QVERIFY2(!outcome.error, outcome.error ? qPrintable(outcome.error->message()) : "");
        QVERIFY(outcome.value);

        QCOMPARE(server.requestCount(), 1);
        QCOMPARE(server.lastRequest().method, "GET"_ba);
        QCOMPARE(server.lastRequest().path, u"/invoices"_s);
        QCOMPARE(server.lastRequest().query.toString(), sentQuery);

        const QList<Invoice> items = *outcome.value;
        QStringList ids;
        for (const Invoice &item : items)
            ids.append(item.id);
        QCOMPARE(ids, expectedIds);
        // Every field as the server sent it, deserialized.
        for (const Invoice &item : items) {
            QJsonObject sent;
            for (const QJsonValue &candidate : allInvoices) {
                if (candidate[u"id"_s].toString() == item.id)
                    sent = candidate.toObject();
            }
            QCOMPARE(item.customer, sent[u"customer"_s].toString());
            QVERIFY(item.issuedAt.isValid());
            QCOMPARE(item.issuedAt.timeSpec(), Qt::UTC);
            QCOMPARE(item.issuedAt,
                     QDateTime::fromString(sent[u"issuedAt"_s].toString(), Qt::ISODateWithMs));
            QCOMPARE(item.total.toString(), sent[u"total"_s].toString());
        }
    }

    void aFailedRequestIsANetworkError()
    {
        server.route("GET", u"/invoices"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"error"_s, u"down"_s}}, 503);
        });
        const auto outcome = await(invoices.getList.fetchListAs<Invoice>());
        QVERIFY(outcome.finished);
        QVERIFY(!outcome.value);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 503);
        QCOMPARE(server.requestCount(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_FetchListAs)
#include "tst_fetchlistas.moc"
