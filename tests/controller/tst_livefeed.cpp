// A LiveFeed's messages as store writes, seen by list models: a pushed update is one
// dataChanged with the changed roles only, a removal one rowsRemoved in every list, an add lands
// in the matching lists only; malformed messages are counted, logged once per kind, and keep the
// connection; the messages of one turn are one commit, bounded per turn and in number waiting.
#include "livefixture.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QThread>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

//! A source the test pushes messages into directly: all within the test's own event-loop turn.
class ScriptedSource : public LiveSource
{
public:
    ScriptedSource() { setUrl(QUrl(u"ws://127.0.0.1:1/scripted"_s)); }
    void push(const QByteArray &data) { deliver({data, QString(), QString()}); }

protected:
    void connectTo(const QNetworkRequest &) override { markOpen(); }
    void disconnectNow() override { }
};

QByteArray updated(int id, const QString &title, int userId)
{
    return QJsonDocument(QJsonObject {{u"type"_s, u"updated"_s},
                                      {u"entity"_s, u"Todo"_s},
                                      {u"data"_s,
                                       QJsonObject {{u"id"_s, id},
                                                    {u"title"_s, title},
                                                    {u"userId"_s, userId},
                                                    {u"completed"_s, false}}}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

class tst_LiveFeed : public QObject
{
    Q_OBJECT

    std::unique_ptr<LiveFixture> f;

    //! A feed on a WebSocket to the fixture's server, open.
    std::unique_ptr<LiveFeed> openFeed(WebSocketSource *source)
    {
        source->setUrl(f->ws.url());
        auto feed = std::make_unique<LiveFeed>(f->controller.get(), source, f->mapping());
        QSignalSpy opened(source, &LiveSource::opened);
        if (!opened.wait())
            return nullptr;
        return feed;
    }

private Q_SLOTS:
    void init()
    {
        f = std::make_unique<LiveFixture>();
        QVERIFY(f->start());
    }
    void cleanup() { f.reset(); }

    void pushedUpdateIsOneDataChangedWithTheChangedRolesOnly()
    {
        auto list = f->model({{u"userId"_s, 1}});
        QVERIFY(list);
        WebSocketSource source;
        auto feed = openFeed(&source);
        QVERIFY(feed);
        const QVariantMap row = list->get(2).toMap();
        ModelSignals signals(list.get());
        QSignalSpy committed(feed.get(), &LiveFeed::committed);
        f->ws.send(QString::fromUtf8(updated(row.value(u"id"_s).toInt(), u"pushed"_s, 1)));
        QVERIFY(committed.wait());
        QCOMPARE(signals.total(), 1);
        QCOMPARE(signals.changed.size(), 1);
        QCOMPARE(signals.changed.at(0).at(0).toModelIndex().row(), 2);
        QCOMPARE(signals.changed.at(0).at(1).toModelIndex().row(), 2);
        const auto roles = signals.changed.at(0).at(2).value<QList<int>>();
        const int titleRole = list->roleNames().key("title"_ba);
        const int completedRole = list->roleNames().key("completed"_ba);
        QVERIFY(roles.contains(titleRole));
        QVERIFY(!roles.contains(completedRole) || row.value(u"completed"_s).toBool());
        QCOMPARE(list->get(2).toMap().value(u"title"_s).toString(), u"pushed"_s);
        QCOMPARE(feed->appliedCount(), 1);
        QCOMPARE(f->listRequests(), 1); // no poll, no refetch
    }

    void pushedRemovalLeavesEveryListWithOneRowsRemoved()
    {
        auto mine = f->model({{u"userId"_s, 1}});
        auto all = f->model({});
        QVERIFY(mine && all);
        const int id = mine->get(0).toMap().value(u"id"_s).toInt();
        int rowInAll = -1;
        for (int row = 0; row < all->rowCount(); ++row)
            rowInAll = all->get(row).toMap().value(u"id"_s).toInt() == id ? row : rowInAll;
        QVERIFY(rowInAll >= 0);
        WebSocketSource source;
        auto feed = openFeed(&source);
        QVERIFY(feed);
        ModelSignals mineSignals(mine.get());
        ModelSignals allSignals(all.get());
        QSignalSpy committed(feed.get(), &LiveFeed::committed);
        f->ws.send(LiveFixture::json(
            {{u"type"_s, u"deleted"_s}, {u"entity"_s, u"Todo"_s}, {u"pk"_s, id}}));
        QVERIFY(committed.wait());
        QCOMPARE(mineSignals.total(), 1);
        QCOMPARE(mineSignals.removed.size(), 1);
        QCOMPARE(mineSignals.removed.at(0).at(1).toInt(), 0);
        QCOMPARE(allSignals.total(), 1);
        QCOMPARE(allSignals.removed.size(), 1);
        QCOMPARE(allSignals.removed.at(0).at(1).toInt(), rowInAll);
    }

    void pushedAddLandsInTheMatchingListsOnly()
    {
        auto user1 = f->model({{u"userId"_s, 1}});
        auto user2 = f->model({{u"userId"_s, 2}});
        QVERIFY(user1 && user2);
        const int before = user1->rowCount();
        WebSocketSource source;
        auto feed = openFeed(&source);
        QVERIFY(feed);
        ModelSignals signals1(user1.get());
        ModelSignals signals2(user2.get());
        QSignalSpy committed(feed.get(), &LiveFeed::committed);
        f->ws.send(LiveFixture::json(
            {{u"type"_s, u"added"_s},
             {u"collection"_s, u"todos"_s},
             {u"args"_s, QJsonObject {{u"userId"_s, 1}}},
             {u"data"_s, QJsonObject {{u"id"_s, 500}, {u"title"_s, u"new"_s}, {u"userId"_s, 1}}}}));
        QVERIFY(committed.wait());
        QCOMPARE(signals1.total(), 1);
        QCOMPARE(signals1.inserted.size(), 1);
        QCOMPARE(signals1.inserted.at(0).at(1).toInt(), before);
        QCOMPARE(user1->get(before).toMap().value(u"title"_s).toString(), u"new"_s);
        QCOMPARE(signals2.total(), 0);
    }

    void refetchMessageRefetchesTheKeyOnce()
    {
        auto list = f->model({{u"userId"_s, 1}});
        QVERIFY(list);
        WebSocketSource source;
        auto feed = openFeed(&source);
        QVERIFY(feed);
        const QString refetch = LiveFixture::json({{u"type"_s, u"refetch"_s},
                                                   {u"endpoint"_s, u"todos.getList"_s},
                                                   {u"params"_s, QJsonObject {{u"userId"_s, 1}}}});
        f->api->setLatency(300); // the first refetch is still in flight when the second comes
        f->ws.send(refetch);
        f->ws.send(refetch);
        QTRY_COMPARE(feed->appliedCount(), 2);
        QTRY_COMPARE(f->listRequests(), 2);
        QTRY_VERIFY(!f->controller->getResponse(f->todos.getList, {{u"userId"_s, 1}}).loading);
        QCOMPARE(f->listRequests(), 2); // the second joined the first in flight
        QCOMPARE(f->server.lastRequest().query.toString(), u"userId=1"_s);
    }

    void anApplicationMapperReadsItsOwnShape()
    {
        auto list = f->model({{u"userId"_s, 1}});
        QVERIFY(list);
        const int id = list->get(0).toMap().value(u"id"_s).toInt();
        // The server sends {"op": "put", "todo": {...}} and {"op": "gone", "id": 5}.
        LiveMapping mapping = f->mapping();
        const Schema todo = mapping.entity(u"Todo"_s);
        mapping.setMapper([todo](const LiveMessage &message, LiveMessageError *error) {
            const QJsonObject object = QJsonDocument::fromJson(message.data).object();
            const QString op = object.value(u"op"_s).toString();
            if (op == u"put"_s)
                return QList<LiveAction> {LiveAction::update(todo, object.value(u"todo"_s))};
            if (op == u"gone"_s)
                return QList<LiveAction> {
                    LiveAction::remove(todo, object.value(u"id"_s).toVariant().toString())};
            *error = {u"unknown op"_s, u"\"op\": \"%1\""_s.arg(op)};
            return QList<LiveAction> {};
        });
        WebSocketSource source(f->ws.url());
        LiveFeed feed(f->controller.get(), &source, mapping);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        ModelSignals signals(list.get());
        f->ws.send(LiveFixture::json(
            {{u"op"_s, u"put"_s},
             {u"todo"_s, QJsonObject {{u"id"_s, id}, {u"title"_s, u"mapped"_s}}}}));
        QTRY_COMPARE(list->get(0).toMap().value(u"title"_s).toString(), u"mapped"_s);
        f->ws.send(LiveFixture::json({{u"op"_s, u"gone"_s}, {u"id"_s, id}}));
        QTRY_COMPARE(signals.removed.size(), 1);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"\\(unknown op\\)"_s));
        f->ws.send(LiveFixture::json({{u"op"_s, u"explode"_s}}));
        QTRY_COMPARE(feed.malformedCount(), 1);
        QCOMPARE(feed.appliedCount(), 2);
        QCOMPARE(signals.total(), 2);
    }

    void malformedMessagesAreCountedLoggedOnceAndKeepTheConnection()
    {
        auto list = f->model({{u"userId"_s, 1}});
        QVERIFY(list);
        WebSocketSource source;
        auto feed = openFeed(&source);
        QVERIFY(feed);
        const QStringList bad {
            u"not json"_s,
            u"[1, 2]"_s,
            uR"({"type":"exploded"})"_s,
            uR"({"type":"updated","entity":"Nope","data":{"id":1}})"_s,
            uR"({"type":"deleted","entity":"Todo"})"_s,
            uR"({"type":"updated","entity":"Todo","data":5})"_s,
        };
        const QStringList kinds {u"not JSON"_s, u"not an envelope"_s, u"unknown entity"_s,
                                 u"missing pk"_s, u"missing data"_s};
        for (const QString &kind : kinds) {
            QTest::ignoreMessage(QtWarningMsg,
                                 QRegularExpression(u"a malformed message \\(%1\\)"_s.arg(kind)));
        }
        ModelSignals signals(list.get());
        QSignalSpy changed(f->controller.get(), &Controller::changed);
        for (int round = 0; round < 2; ++round) {
            for (const QString &message : bad)
                f->ws.send(message);
        }
        QTRY_COMPARE(feed->malformedCount(), 12);
        QCOMPARE(feed->appliedCount(), 0);
        QCOMPARE(signals.total(), 0);
        QCOMPARE(changed.size(), 0);
        // The connection is kept: a good message after them is applied on it.
        const int id = list->get(0).toMap().value(u"id"_s).toInt();
        f->ws.send(QString::fromUtf8(updated(id, u"after"_s, 1)));
        QTRY_COMPARE(feed->appliedCount(), 1);
        QCOMPARE(f->ws.connectionCount(), 1);
        QCOMPARE(source.state(), LiveSource::State::Open);
        QCOMPARE(signals.changed.size(), 1);
    }

    void messagesOfOneTurnAreOneCommit()
    {
        auto list = f->model({{u"userId"_s, 1}});
        QVERIFY(list);
        ScriptedSource source;
        LiveFeed feed(f->controller.get(), &source, f->mapping());
        feed.setTurnBudgetMs(
            60000); // the count decides here, not the time (a slow sanitizer build)
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        ModelSignals signals(list.get());
        QSignalSpy changed(f->controller.get(), &Controller::changed);
        QSignalSpy committed(&feed, &LiveFeed::committed);
        // Every row updated twice, then the first once more: all within this turn.
        for (int pass = 0; pass < 2; ++pass) {
            for (int row = 0; row < list->rowCount(); ++row) {
                const int id = list->get(row).toMap().value(u"id"_s).toInt();
                source.push(updated(id, u"pass %1 row %2"_s.arg(pass).arg(row), 1));
            }
        }
        QVERIFY(committed.wait());
        QCOMPARE(committed.size(), 1);
        QCOMPARE(committed.at(0).at(0).toInt(), 2 * list->rowCount());
        QCOMPARE(changed.size(), 1);
        // One signal per changed row (adjacent rows may share one dataChanged range).
        int rowsSignalled = 0;
        for (const QList<QVariant> &args : std::as_const(signals.changed))
            rowsSignalled += args.at(1).toModelIndex().row() - args.at(0).toModelIndex().row() + 1;
        QCOMPARE(rowsSignalled, list->rowCount());
        QCOMPARE(signals.total(), int(signals.changed.size()));
        QCOMPARE(list->get(0).toMap().value(u"title"_s).toString(), u"pass 1 row 0"_s);
    }

    void workPerTurnIsBounded()
    {
        auto list = f->model({{u"userId"_s, 1}});
        QVERIFY(list);
        ScriptedSource source;
        LiveFeed feed(f->controller.get(), &source, f->mapping());
        feed.setMaxMessagesPerTurn(10);
        feed.setTurnBudgetMs(60000);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QSignalSpy committed(&feed, &LiveFeed::committed);
        const int id = list->get(0).toMap().value(u"id"_s).toInt();
        for (int i = 0; i < 35; ++i)
            source.push(updated(id, u"title %1"_s.arg(i), 1));
        QTRY_COMPARE(committed.size(), 4);
        QCOMPARE(committed.at(0).at(0).toInt(), 10);
        QCOMPARE(committed.at(1).at(0).toInt(), 10);
        QCOMPARE(committed.at(2).at(0).toInt(), 10);
        QCOMPARE(committed.at(3).at(0).toInt(), 5);
        QCOMPARE(list->get(0).toMap().value(u"title"_s).toString(), u"title 34"_s);
    }

    void aTurnStopsWritingOnceItsTimeIsSpent()
    {
        ScriptedSource source;
        LiveMapping mapping = f->mapping();
        mapping.setMapper([](const LiveMessage &, LiveMessageError *) {
            QThread::msleep(3); // a slow message
            return QList<LiveAction> {};
        });
        LiveFeed feed(f->controller.get(), &source, mapping);
        feed.setTurnBudgetMs(2);
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        QSignalSpy committed(&feed, &LiveFeed::committed);
        for (int i = 0; i < 4; ++i)
            source.push("{}");
        QTRY_COMPARE(committed.size(), 4); // one message per turn: each spends the budget
        for (const QList<QVariant> &args : std::as_const(committed))
            QCOMPARE(args.at(0).toInt(), 1);
    }

    void aFullQueueIsDroppedAndCaughtUpByRefetching()
    {
        auto list = f->model({{u"userId"_s, 1}});
        QVERIFY(list);
        ScriptedSource source;
        LiveFeed feed(f->controller.get(), &source, f->mapping());
        feed.setMaxQueuedMessages(20);
        // No time budget in the way (a slow build spends 8 ms on fewer messages): what is
        // checked here is the drop and the catch-up, the batching by time is checked above.
        feed.setTurnBudgetMs(60000);
        QVERIFY(feed.watch(f->todos.getList, {{u"userId"_s, 1}}));
        QTRY_COMPARE(source.state(), LiveSource::State::Open);
        const int id = list->get(0).toMap().value(u"id"_s).toInt();
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"20 messages waiting"_s));
        QSignalSpy committed(&feed, &LiveFeed::committed);
        for (int i = 0; i < 25; ++i)
            source.push(updated(id, u"title %1"_s.arg(i), 1));
        QCOMPARE(feed.droppedCount(), 21); // the 20 waiting and the one that found them
        QCOMPARE(feed.catchUpCount(), 1);
        QTRY_COMPARE(f->listRequests(), 2); // the watched key, read again once
        QTRY_COMPARE(committed.size(), 1); // the 4 that came after
        QCOMPARE(committed.at(0).at(0).toInt(), 4);
        QCOMPARE(feed.appliedCount(), 4);
    }
};

QTEST_MAIN(tst_LiveFeed)
#include "tst_livefeed.moc"
