// The race rule between reads and queued changes (docs/controller.md "Requests are dated when
// they are sent"): the server applies each request when it arrives, so a read that reached it
// before a change was answered without that change, whenever its answer comes. Changes wait in
// the outbox (one at a time), for a retry, or across a restart; a read sent meanwhile must never
// undo them, neither while they wait (their guesses stay shown) nor once they are confirmed.
// Against FakeRestApi with latency (it applies each request when it arrives), the list reads
// answered when the test says. Random interleavings: tst_outboxinterleavings.
#include "outboxracefixture.h"

#include <DataClient/outbox.h>
#include <DataClient/private/controlleroutbox_p.h>
#include <DataClient/testing/fakerestapi.h>

#include <QtCore/QTemporaryDir>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

//! A read of the list the server received, answered with what the server held on its arrival.
struct HeldRead
{
    QJsonArray snapshot;
    TestServer::Responder responder;
};

} // namespace

class tst_OutboxRace : public OutboxRaceTest
{
    Q_OBJECT

protected:
    //! Reads of /todos, in arrival order, until the test answers them.
    QList<HeldRead> heldReads;

    void setUp() override
    {
        OutboxRaceTest::setUp();
        heldReads.clear();
    }
    //! GET /todos answers with what \a api holds when the read arrives, when the test says.
    void holdReadsOf(FakeRestApi &api)
    {
        server->routeDeferred(
            "GET", u"/todos"_s,
            [this, &api](const RecordedRequest &, const TestServer::Responder &responder) {
                heldReads.append({api.collection(u"/todos"_s), responder});
            });
    }
    /*!
        A FakeRestApi serving unticked todos at /todos, its list reads held (holdReadsOf), its
        changes answered after 400 ms: a refetch can go out while a change is on the wire (the
        demo at --latency). With \a load, the list is loaded first.
    */
    std::unique_ptr<FakeRestApi> serveTodos(bool load)
    {
        auto api = std::make_unique<FakeRestApi>(server.get());
        if (!api->addCollection(u"/todos"_s, untickedTodos()))
            return nullptr;
        holdReadsOf(*api);
        api->setLatency(400);
        if (!load)
            return api;
        QFuture<QVariant> loaded = controller->fetch(todos.getList);
        if (!QTest::qWaitFor([&] { return !heldReads.isEmpty(); }) || !answerRead()
            || !await(loaded).value)
            return nullptr;
        return api;
    }
    //! The partialUpdates {completed: true} of todos 1..\a count, made at once (they queue).
    QList<QFuture<QVariant>> tickFirst(int count)
    {
        QList<QFuture<QVariant>> ticks;
        for (int id = 1; id <= count; ++id)
            ticks.append(controller->fetch(todos.partialUpdate, {{u"id"_s, id}},
                                           QJsonObject {{u"completed"_s, true}}));
        return ticks;
    }
    bool answerRead(qsizetype index = 0)
    {
        if (index >= heldReads.size())
            return false;
        const HeldRead read = heldReads.takeAt(index);
        read.responder.send(ServerResponse::json(read.snapshot));
        return true;
    }
    //! The methods and paths the server received, from the \a from-th request on.
    QStringList received(qsizetype from = 0) const
    {
        QStringList seen;
        const auto all = server->requests();
        for (qsizetype i = from; i < all.size(); ++i)
            seen.append(QString::fromLatin1(all[i].method) + u' ' + all[i].path);
        return seen;
    }
    //! Every row of the list shows what \a api holds, and none is pending.
    void verifyListShows(const FakeRestApi &api)
    {
        const ResponseState state = controller->getResponse(todos.getList);
        QVERIFY(state.hasData());
        QVERIFY(!state.pending);
        for (int id = 1; id <= todoCount; ++id) {
            const bool onServer = api.item(u"/todos"_s, id).value(u"completed"_s).toBool();
            QVERIFY2(
                shownCompleted(id) == onServer,
                qPrintable(u"todo %1: the server holds completed=%2, the list shows %3"_s.arg(id)
                               .arg(onServer)
                               .arg(shownCompleted(id).value_or(false))));
        }
    }

private Q_SLOTS:
    // Ticks 1, 2 and 3: the first goes at once, the others wait in the outbox for it. A refetch
    // of the list reaches the server before (no change applied yet) or after the first change
    // and before the others, and is answered while they are under way or once all are confirmed.
    void aReadSentWhileChangesWaitNeverUndoesThem_data()
    {
        QTest::addColumn<bool>("readAfterFirstChange");
        QTest::addColumn<bool>("answeredLast");
        QTest::newRow("read between the changes, answered last") << true << true;
        QTest::newRow("read between the changes, answered at once") << true << false;
        QTest::newRow("read before any change, answered last") << false << true;
        QTest::newRow("read before any change, answered at once") << false << false;
    }
    void aReadSentWhileChangesWaitNeverUndoesThem()
    {
        QFETCH(bool, readAfterFirstChange);
        QFETCH(bool, answeredLast);
        const std::unique_ptr<FakeRestApi> served = serveTodos(true);
        QVERIFY(served);
        FakeRestApi &api = *served;
        const qsizetype loaded = server->requestCount();

        QFuture<QVariant> refetch;
        const auto startRefetch = [&] {
            refetch = controller->fetch(todos.getList);
            QTRY_COMPARE(heldReads.size(), 1); // it reached the server
            if (!answeredLast)
                QVERIFY(answerRead());
        };
        if (!readAfterFirstChange)
            startRefetch();
        const QList<QFuture<QVariant>> ticks = tickFirst(3);
        QCOMPARE(controller->outbox()->count(), 3);
        if (readAfterFirstChange) {
            QTRY_COMPARE(server->requests("PATCH", u"/todos/1"_s).size(), 1);
            startRefetch();
            QVERIFY(server->requests("PATCH", u"/todos/2"_s).isEmpty()); // still waiting
        }
        if (!answeredLast)
            QVERIFY(await(refetch).value);
        // Whatever that answer brought, the waiting ticks stay shown.
        for (int id = 1; id <= 3; ++id)
            QCOMPARE(shownCompleted(id), std::optional<bool>(true));

        for (const QFuture<QVariant> &tick : std::as_const(ticks))
            QVERIFY(await(tick).value);
        QCOMPARE(controller->outbox()->count(), 0);
        if (answeredLast) {
            QVERIFY(answerRead());
            QVERIFY(await(refetch).value);
        }
        // What the server received, in order: the refetch before the second change.
        const QStringList expected = readAfterFirstChange
            ? QStringList {u"PATCH /todos/1"_s, u"GET /todos"_s, u"PATCH /todos/2"_s,
                           u"PATCH /todos/3"_s}
            : QStringList {u"GET /todos"_s, u"PATCH /todos/1"_s, u"PATCH /todos/2"_s,
                           u"PATCH /todos/3"_s};
        QCOMPARE(received(loaded), expected);
        verifyListShows(api);
        for (int id = 1; id <= 3; ++id)
            QVERIFY(api.item(u"/todos"_s, id).value(u"completed"_s).toBool());
    }

    // Two requests on the wire at once may reach the server the other way round: a refetch sent
    // just after a tick, on another connection, is answered with the list before the tick. The
    // tick's answer is dated when it arrives, so that read cannot undo it, whichever is answered
    // first; the tick's guess stays shown until its own answer.
    void aReadOnTheWireWithAChangeNeverUndoesIt_data()
    {
        QTest::addColumn<bool>("readAnsweredFirst");
        QTest::newRow("change confirmed, then the read answered") << false;
        QTest::newRow("read answered, then the change confirmed") << true;
    }
    void aReadOnTheWireWithAChangeNeverUndoesIt()
    {
        QFETCH(bool, readAnsweredFirst);
        const std::unique_ptr<FakeRestApi> served = serveTodos(true);
        QVERIFY(served);
        FakeRestApi &api = *served;
        const QList<QFuture<QVariant>> ticks = tickFirst(1);
        QTRY_COMPARE(server->requests("PATCH", u"/todos/1"_s).size(), 1);
        QFuture<QVariant> refetch = controller->fetch(todos.getList);
        QTRY_COMPARE(heldReads.size(), 1);
        heldReads[0].snapshot = untickedTodos(); // it reached the server before the tick
        if (readAnsweredFirst) {
            QVERIFY(answerRead());
            QVERIFY(await(refetch).value);
            QCOMPARE(shownCompleted(1), std::optional<bool>(true)); // the guess, not the old value
        }
        QVERIFY(await(ticks[0]).value);
        if (!readAnsweredFirst) {
            QVERIFY(answerRead());
            QVERIFY(await(refetch).value);
        }
        QVERIFY(api.item(u"/todos"_s, 1).value(u"completed"_s).toBool());
        verifyListShows(api);
    }

    // The second tick is answered 503 and waits its backoff; a refetch sent and answered
    // meanwhile lacks it. The tick stays shown, and once its retry is confirmed it stays: each
    // attempt is dated when it is sent.
    void aRetriedChangeIsDatedAtEachAttempt()
    {
        const std::unique_ptr<FakeRestApi> served = serveTodos(true);
        QVERIFY(served);
        FakeRestApi &api = *served;
        const QList<QFuture<QVariant>> ticks = tickFirst(2);
        QTRY_COMPARE(server->requests("PATCH", u"/todos/1"_s).size(), 1);
        api.failNext(1, 503); // the next request: the second tick, queued behind the first
        QTRY_COMPARE(server->requests("PATCH", u"/todos/2"_s).size(), 1);
        // Someone else renames it meanwhile: the refetch brings a change of that todo.
        QJsonObject renamed = api.item(u"/todos"_s, 2);
        renamed.insert(u"title"_s, u"renamed elsewhere"_s);
        QVERIFY(api.setItem(u"/todos"_s, renamed));
        // Sent now, the refetch reaches the server after the refused attempt, before the retry.
        QSignalSpy states(controller.get(), &Controller::fetchStateChanged);
        QFuture<QVariant> refetch = controller->fetch(todos.getList);
        QTRY_COMPARE(heldReads.size(), 1);
        const QString tickKey = todos.partialUpdate->key({{u"id"_s, 2}});
        QTRY_VERIFY(std::any_of(states.cbegin(), states.cend(), [&](const QList<QVariant> &args) {
            return args.at(0).toString() == tickKey; // the 503 arrived: it waits its backoff
        }));
        QVERIFY(await(ticks[0]).value);
        QVERIFY(answerRead());
        QVERIFY(await(refetch).value);
        QCOMPARE(shownCompleted(2), std::optional<bool>(true)); // still waiting: still shown

        QVERIFY(clock->advanceToNext() >= 0); // the backoff is over: the retry goes
        QVERIFY(await(ticks[1]).value);
        QCOMPARE(server->requests("PATCH", u"/todos/2"_s).size(), 2);
        verifyListShows(api);
        QCOMPARE(controller->get(todoSchema(), {{u"id"_s, 2}}).data.toMap().value(u"title"_s),
                 QVariant(u"renamed elsewhere"_s));
        QVERIFY(api.item(u"/todos"_s, 2).value(u"completed"_s).toBool());
    }

    // The outbox of the last run is replayed one change at a time; the list read by the new
    // run's first screen reaches the server after the first change and before the others.
    void aReplayedChangeIsDatedWhenItIsSent()
    {
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString outboxPath = directory.filePath(u"store.outbox"_s);
        const std::unique_ptr<FakeRestApi> served = serveTodos(false);
        QVERIFY(served);
        FakeRestApi &api = *served;

        DataClient::detail::setOutboxFile(controller.get(), outboxPath);
        connectivity->setOnline(false);
        tickFirst(3);
        QCOMPARE(controller->outbox()->count(), 3);
        newController(); // the next start, online
        controller->setGcEnabled(false);
        connectivity->setOnline(true);
        todos = makeTodos();
        controller->outbox()->registerResource(todos);
        DataClient::detail::setOutboxFile(controller.get(), outboxPath);
        QCOMPARE(controller->outbox()->count(), 3);

        QTRY_COMPARE(server->requests("PATCH", u"/todos/1"_s).size(), 1);
        QFuture<QVariant> read = controller->fetch(todos.getList);
        QTRY_COMPARE(heldReads.size(), 1);
        QVERIFY(server->requests("PATCH", u"/todos/2"_s).isEmpty());
        QTRY_COMPARE(controller->outbox()->count(), 0);
        QVERIFY(api.item(u"/todos"_s, 3).value(u"completed"_s).toBool());
        QVERIFY(answerRead());
        QVERIFY(await(read).value);
        QCOMPARE(received(),
                 (QStringList {u"PATCH /todos/1"_s, u"GET /todos"_s, u"PATCH /todos/2"_s,
                               u"PATCH /todos/3"_s}));
        verifyListShows(api);
    }
};

QTEST_MAIN(tst_OutboxRace)
#include "tst_outboxrace.moc"
