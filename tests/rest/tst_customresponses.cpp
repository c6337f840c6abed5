// Three endpoint customizations of docs/hooks.md against the real test server: field
// deserialization, cursor pagination from a Link header (parseResponse), and polling with
// pollFrequency. docs/hooks.md quotes this file.
#include "restfixture.h"
#include "servertest.h"
#include "utcdatetime.h"

#include <DataClient/createresource.h>
#include <DataClient/decimal.h>
#include <DataClient/deserializer.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

// 3. Field deserialization: a gadget entity; QDateTime and Decimal properties are deserialized.
// [order]
struct Order
{
    Q_GADGET
    Q_PROPERTY(QString id MEMBER id)
    Q_PROPERTY(QDateTime createdAt MEMBER createdAt)
    Q_PROPERTY(DataClient::Decimal total MEMBER total)
public:
    QString id;
    QDateTime createdAt;
    DataClient::Decimal total;
    QString pk() const { return id; }
    static constexpr auto key = "Order";
};
// [order]

namespace {

// 4. Header access: { link, results } when there is a Link header or the body is an array.
// [link-class]
class LinkHeaderEndpoint : public EndpointBase<LinkHeaderEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QJsonValue parseResponse(const Response &response) const override
    {
        const QJsonValue results = RestEndpoint::parseResponse(response);
        if (response.hasHeader("link") || results.isArray()) {
            return QJsonObject {{u"link"_s, QString::fromUtf8(response.header("link"))},
                                {u"results"_s, results}};
        }
        return results;
    }
};
// [link-class]

// The cursor of the rel="next" link, e.g. <http://host/repos?cursor=2>; rel="next" -> "2".
QString nextCursor(const QJsonValue &page)
{
    static const QRegularExpression next(uR"(<[^>]*[?&]cursor=([^&>]+)[^>]*>;\s*rel="next")"_s);
    return next.match(page[u"link"_s].toString()).captured(1);
}

} // namespace

class tst_CustomResponses : public ServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void fieldDeserialization()
    {
        server.route("GET", u"/orders/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(
                QJsonObject {{u"id"_s, request.pathParams.value(u"id"_s)},
                             {u"createdAt"_s, u"2024-05-15T15:36:43.144Z"_s},
                             {u"total"_s, u"12345678901234567890.05"_s}});
        });
        // [deserialize]
        const Resource orders = createResource<Order>({
            .path = u"/orders/:id"_s,
            .urlPrefix = server.url(),
        });
        QFuture<Order> order = orders.get.fetchAs<Order>({{u"id"_s, u"7"_s}});
        // [deserialize]
        QCOMPARE(orders.get->schema().entitySchema().key(), u"Order"_s);
        const auto outcome = await(order);
        QVERIFY(outcome.value);
        QCOMPARE(server.lastRequest().path, u"/orders/7"_s);
        QCOMPARE(outcome.value->id, u"7"_s);
        QCOMPARE(outcome.value->createdAt, utcDateTime(QDate(2024, 5, 15), QTime(15, 36, 43, 144)));
        QCOMPARE(outcome.value->total.toString(), u"12345678901234567890.05"_s);

        // The same through a dynamic entity schema, read as QVariant.
        const Resource dynamic = createResource({
            .path = u"/orders/:id"_s,
            .schema = Schema::entity(EntitySchema(u"Order"_s)
                                         .withField(u"createdAt"_s, Deserialize::dateTime())
                                         .withField(u"total"_s, Deserialize::decimal())),
            .urlPrefix = server.url(),
        });
        const auto variant = await(dynamic.get({{u"id"_s, u"8"_s}}));
        QVERIFY(variant.value);
        const QVariantMap fields = variant.value->toMap();
        QCOMPARE(fields.value(u"createdAt"_s).typeId(), QMetaType::QDateTime);
        QCOMPARE(fields.value(u"total"_s).value<Decimal>().toString(),
                 u"12345678901234567890.05"_s);
    }

    void cursorPaginationFromLinkHeader()
    {
        server.route("GET", u"/repos"_s, [this](const RecordedRequest &request) {
            const int cursor = request.query.queryItemValue(u"cursor"_s).toInt();
            QJsonArray page {QJsonObject {{u"id"_s, QString::number(cursor * 10 + 1)}},
                             QJsonObject {{u"id"_s, QString::number(cursor * 10 + 2)}}};
            ServerResponse answer = ServerResponse::json(page);
            if (cursor < 2) {
                answer.withHeader("Link",
                                  "<" + server.url(u"/repos?cursor=%1"_s.arg(cursor + 1)).toUtf8()
                                      + ">; rel=\"next\"");
            }
            return answer;
        });
        server.route("GET", u"/repos/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(QJsonObject {{u"id"_s, request.pathParams.value(u"id"_s)}});
        });
        // [link]
        const Schema repo = Schema::entity(EntitySchema(u"Repo"_s));
        const Resource repos
            = createResource({
                                 .path = u"/repos/:id"_s,
                                 .schema = repo,
                                 .urlPrefix = server.url(),
                                 .paginationField = u"cursor"_s,
                                 .endpoint = endpointFactory<LinkHeaderEndpoint>(),
                             })
                  .extend({{u"getList"_s,
                            {.schema = Schema::object(
                                 {{u"results"_s, Schema::collection(Schema::array(repo))}})}}});
        QFuture<QJsonValue> first = repos.getList->fetch(&network, {});
        // [link]
        auto outcome = await(first);
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toObject().value(u"results"_s).toArray().size(), 2);
        QCOMPARE(nextCursor(*outcome.value), u"1"_s);
        // getPage follows the cursor; its schema is the wrapper's paginated variant.
        QCOMPARE(repos.getList.getPage->schema().kind(), Schema::Kind::Object);
        QString cursor = nextCursor(*outcome.value);
        QStringList ids;
        while (!cursor.isEmpty()) {
            outcome = await(repos.getList.getPage->fetch(&network, {{u"cursor"_s, cursor}}));
            QVERIFY(outcome.value);
            QCOMPARE(server.lastRequest().query.queryItemValue(u"cursor"_s), cursor);
            for (const QJsonValue &item : outcome.value->toObject().value(u"results"_s).toArray())
                ids << item[u"id"_s].toString();
            cursor = nextCursor(*outcome.value);
        }
        QCOMPARE(ids, (QStringList {u"11"_s, u"12"_s, u"21"_s, u"22"_s}));
        QCOMPARE(outcome.value->toObject().value(u"link"_s).toString(), QString()); // last page
        // A single object without a Link header is returned as parsed.
        outcome = await(repos.get->fetch(&network, {{u"id"_s, u"5"_s}}));
        QCOMPARE(outcome.value, std::optional(QJsonValue(QJsonObject {{u"id"_s, u"5"_s}})));
    }

    // pollFrequency is carried by every member; a live query (Controller / QML Live) re-fetches
    // at that interval. Here a QTimer plays that subscriber to show the endpoint side.
    void pollingWithPollFrequency()
    {
        int served = 0;
        server.route("GET", u"/clock/:id"_s, [&served](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}, {u"tick"_s, ++served}});
        });
        // [poll]
        const Resource clocks = createResource({
            .path = u"/clock/:id"_s,
            .schema = Schema::entity(EntitySchema(u"Clock"_s)),
            .urlPrefix = server.url(),
            .pollFrequency = 50, // milliseconds
        });
        // [poll]
        QCOMPARE(clocks.get->pollFrequency(), 50);
        QCOMPARE(clocks.get->property("pollFrequency").toInt(), 50);
        QTimer subscriber;
        subscriber.setInterval(clocks.get->pollFrequency());
        QList<int> ticks;
        int started = 0;
        connect(&subscriber, &QTimer::timeout, this, [&] {
            ++started;
            clocks.get->fetch(&network, {{u"id"_s, u"1"_s}}).then(this, [&](const QJsonValue &v) {
                ticks << v[u"tick"_s].toInt();
            });
        });
        subscriber.start();
        QTRY_VERIFY(ticks.size() >= 3);
        subscriber.stop();
        QCOMPARE(ticks.mid(0, 3), (QList<int> {1, 2, 3}));
        QVERIFY(server.requests("GET", u"/clock/1"_s).size() >= 3);
        QTRY_COMPARE(ticks.size(), started); // every started fetch answered before returning
        QCOMPARE(served, started);
    }
};

QTEST_GUILESS_MAIN(tst_CustomResponses)
#include "tst_customresponses.moc"
