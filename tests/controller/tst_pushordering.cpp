// Ordering a push against a fetch answer about the same record: with a version field the
// server's word decides whatever arrives first (a fetch that started before the push and
// answers after it, a push that arrives late); without one the date rule does (a fetch is dated
// by its start, a push by its arrival). Real sockets: the TestServer answers when the test says,
// the push comes over a WebSocket.
#include <DataClient/testing/websockettestserver.h>

#include <DataClient/controller.h>
#include <DataClient/livefeed.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/websocketsource.h>

#include <QtCore/QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

QJsonObject item(int version, const QString &title)
{
    return {{u"id"_s, 1}, {u"version"_s, version}, {u"title"_s, title}};
}

QString pushed(int version, const QString &title)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject {{u"type"_s, u"updated"_s},
                                                        {u"entity"_s, u"Item"_s},
                                                        {u"data"_s, item(version, title)}})
                                 .toJson(QJsonDocument::Compact));
}

} // namespace

class tst_PushOrdering : public QObject
{
    Q_OBJECT

    TestServer server;
    WebSocketTestServer ws;
    std::unique_ptr<Controller> controller;
    QList<TestServer::Responder> waiting;

    EndpointPtr endpoint(const Schema &schema) const
    {
        return RestEndpoint::create(
            {.path = u"/items/:id"_s, .urlPrefix = server.url(), .schema = schema});
    }
    static Schema itemSchema(bool versioned)
    {
        EntitySchema entity(u"Item"_s);
        return Schema::entity(versioned ? entity.withVersionField(u"version"_s) : entity);
    }
    QString shownTitle(const EndpointPtr &items) const
    {
        return controller->getResponse(items, {{u"id"_s, 1}})
            .data.toMap()
            .value(u"title"_s)
            .toString();
    }
    //! Pushes \a message and waits until the feed committed it.
    bool push(LiveFeed &feed, const QString &message)
    {
        QSignalSpy committed(&feed, &LiveFeed::committed);
        ws.send(message);
        return committed.wait();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        QVERIFY(ws.listen());
        server.routeDeferred(
            "GET", u"/items/:id"_s,
            [this](const RecordedRequest &, const TestServer::Responder &r) { waiting.append(r); });
    }
    void init()
    {
        waiting.clear();
        controller = std::make_unique<Controller>();
    }
    void cleanup() { controller.reset(); }

    void ordersByVersion_data()
    {
        QTest::addColumn<bool>("versioned");
        QTest::addColumn<bool>("fetchFirst"); // the answer arrives before the push
        QTest::addColumn<int>("answerVersion");
        QTest::addColumn<int>("pushVersion");
        QTest::addColumn<QString>("shown");
        // The fetch starts before the push in every row: by date, the push is the newer.
        QTest::newRow("versioned, push first, the answer newer")
            << true << false << 4 << 3 << u"answer v4"_s;
        QTest::newRow("versioned, push first, the answer older")
            << true << false << 2 << 3 << u"push v3"_s;
        QTest::newRow("versioned, a late push older than the answer")
            << true << true << 4 << 3 << u"answer v4"_s;
        QTest::newRow("versioned, a late push newer than the answer")
            << true << true << 4 << 5 << u"push v5"_s;
        QTest::newRow("no version: push first, the push is dated later")
            << false << false << 4 << 3 << u"push v3"_s;
        QTest::newRow("no version: a late push is dated later")
            << false << true << 4 << 3 << u"push v3"_s;
    }
    void ordersByVersion()
    {
        QFETCH(bool, versioned);
        QFETCH(bool, fetchFirst);
        QFETCH(int, answerVersion);
        QFETCH(int, pushVersion);
        QFETCH(QString, shown);

        const Schema schema = itemSchema(versioned);
        const EndpointPtr items = endpoint(schema);
        LiveMapping mapping;
        mapping.addEntity(u"Item"_s, schema);
        WebSocketSource source(ws.url());
        LiveFeed feed(controller.get(), &source, mapping);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);

        QFuture<QVariant> fetch = controller->fetch(items, {{u"id"_s, 1}});
        QTRY_COMPARE(waiting.size(), 1); // the fetch is at the server: it started first
        const auto answer = [&] {
            waiting.takeFirst().send(
                ServerResponse::json(item(answerVersion, u"answer v%1"_s.arg(answerVersion))));
            return QTest::qWaitFor([&] { return fetch.isFinished(); }, 5000);
        };
        if (fetchFirst) {
            QVERIFY(answer());
            QVERIFY(push(feed, pushed(pushVersion, u"push v%1"_s.arg(pushVersion))));
        } else {
            QVERIFY(push(feed, pushed(pushVersion, u"push v%1"_s.arg(pushVersion))));
            QVERIFY(answer());
        }
        QCOMPARE(shownTitle(items), shown);
    }

    void shouldUpdateHookDecides()
    {
        // "r9" sorts after "r10" as text: the application's hook reads the number.
        const auto revision = [](const QJsonObject &record) {
            return record.value(u"rev"_s).toString().mid(1).toInt();
        };
        const Schema schema = Schema::entity(EntitySchema(u"Doc"_s).withShouldUpdate(
            [revision](const QJsonObject &existing, const QJsonObject &incoming) {
                return revision(incoming) >= revision(existing);
            }));
        const QJsonObject r10 {{u"id"_s, 1}, {u"rev"_s, u"r10"_s}, {u"body"_s, u"ten"_s}};
        const QJsonObject r9 {{u"id"_s, 1}, {u"rev"_s, u"r9"_s}, {u"body"_s, u"nine"_s}};
        const QJsonObject r11 {{u"id"_s, 1}, {u"rev"_s, u"r11"_s}, {u"body"_s, u"eleven"_s}};
        QVERIFY(!controller->set(schema, r10, 1000).error);
        QVERIFY(!controller->set(schema, r9, 2000).error); // dated later, older by the hook
        const auto body = [&] {
            return controller->get(schema, {{u"id"_s, 1}}).data.toMap().value(u"body"_s).toString();
        };
        QCOMPARE(body(), u"ten"_s);
        QVERIFY(!controller->set(schema, r11, 500).error); // dated earlier, newer by the hook
        QCOMPARE(body(), u"eleven"_s);
    }
};

QTEST_MAIN(tst_PushOrdering)
#include "tst_pushordering.moc"
