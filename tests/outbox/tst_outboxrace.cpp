// The race rule between reads and queued changes (docs/controller.md "Requests are dated when
// they are sent"): the server applies each request when it arrives, so a read that reached it
// before a change was answered without that change, whenever its answer comes. Changes wait in
// the outbox (one at a time), for a retry, or across a restart; a read sent meanwhile must never
// undo them, neither while they wait (their guesses stay shown) nor once they are confirmed.
// Against a server that applies requests on arrival and answers when the test says.
#include "virtualtimefixture.h"

#include <DataClient/createresource.h>
#include <DataClient/outbox.h>
#include <DataClient/private/controlleroutbox_p.h>
#include <DataClient/rowlist.h>
#include <DataClient/testing/fakerestapi.h>

#include <QtCore/QAbstractEventDispatcher>
#include <QtCore/QElapsedTimer>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

constexpr int todoCount = 4;

//! Spins the event loop until \a done, up to 5 s. Unlike QTest::qWaitFor it does not sleep
//! 10 ms between checks: it wakes at each event (the random interleavings wait hundreds of
//! times per seed).
template<typename Predicate> bool spinUntil(Predicate done)
{
    QElapsedTimer elapsed;
    elapsed.start();
    QTimer wake; // an event at least every 20 ms, so that the deadline is checked
    wake.start(20);
    QAbstractEventDispatcher *dispatcher = QThread::currentThread()->eventDispatcher();
    while (!done()) {
        if (elapsed.hasExpired(5000))
            return false;
        dispatcher->processEvents(QEventLoop::WaitForMoreEvents);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    return true;
}

//! The seeds of the random interleavings: DATACLIENT_RACE_SEED=<n> replays one,
//! DATACLIENT_RACE_SEEDS=<count> runs seeds 1..count (default 30).
QList<quint32> raceSeeds()
{
    bool ok = false;
    const quint32 one = qEnvironmentVariable("DATACLIENT_RACE_SEED").toUInt(&ok);
    if (ok)
        return {one};
    const quint32 count = qEnvironmentVariable("DATACLIENT_RACE_SEEDS").toUInt(&ok);
    QList<quint32> seeds;
    for (quint32 seed = 1; seed <= (ok && count > 0 ? count : 30u); ++seed)
        seeds.append(seed);
    return seeds;
}

QJsonArray untickedTodos()
{
    QJsonArray seed;
    for (int id = 1; id <= todoCount; ++id)
        seed.append(todo(id, 1, u"todo %1"_s.arg(id)));
    return seed;
}

//! A read of the list the server received, answered with what the server held on its arrival.
struct HeldRead
{
    QJsonArray snapshot;
    TestServer::Responder responder;
};

} // namespace

class tst_OutboxRace : public VirtualTimeTest
{
    Q_OBJECT

protected:
    DataClient::Resource todos;
    //! Reads of /todos, in arrival order, until the test answers them.
    QList<HeldRead> heldReads;

    void setUp() override
    {
        controller->setGcEnabled(false); // the virtual clock jumps over backoffs
        heldReads.clear();
        todos = makeTodos();
    }
    DataClient::Resource makeTodos() const
    {
        return DataClient::createResource({.path = u"/todos/:id"_s,
                                           .schema = todoSchema(),
                                           .urlPrefix = server->url(),
                                           .optimistic = true,
                                           .queueWhenOffline = true});
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
    bool answerRead(qsizetype index = 0)
    {
        if (index >= heldReads.size())
            return false;
        const HeldRead read = heldReads.takeAt(index);
        read.responder.send(ServerResponse::json(read.snapshot));
        return true;
    }
    //! Todo \a id as the list shows it: completed, or nullopt when the list does not show it.
    std::optional<bool> shownCompleted(int id) const
    {
        const ResponseState state = controller->getResponse(todos.getList);
        for (const QVariant &row : rowsOf(state.data)) {
            const QVariantMap map = row.toMap();
            if (map.value(u"id"_s).toInt() == id)
                return map.value(u"completed"_s).toBool();
        }
        return std::nullopt;
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
        FakeRestApi api(server.get());
        QVERIFY(api.addCollection(u"/todos"_s, untickedTodos()));
        holdReadsOf(api);
        // Changes are answered after a delay, so that the refetch goes out while the first one
        // is on the wire (the demo at --latency 1500).
        api.setLatency(400);

        QFuture<QVariant> load = controller->fetch(todos.getList);
        QTRY_COMPARE(heldReads.size(), 1);
        QVERIFY(answerRead());
        QVERIFY(await(load).value);
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
        QList<QFuture<QVariant>> ticks;
        for (int id = 1; id <= 3; ++id)
            ticks.append(controller->fetch(todos.partialUpdate, {{u"id"_s, id}},
                                           QJsonObject {{u"completed"_s, true}}));
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

    // The second tick is answered 503 and waits its backoff; a refetch sent and answered
    // meanwhile lacks it. The tick stays shown, and once its retry is confirmed it stays: each
    // attempt is dated when it is sent.
    void aRetriedChangeIsDatedAtEachAttempt()
    {
        FakeRestApi api(server.get());
        QVERIFY(api.addCollection(u"/todos"_s, untickedTodos()));
        holdReadsOf(api);
        api.setLatency(400);
        QFuture<QVariant> load = controller->fetch(todos.getList);
        QTRY_COMPARE(heldReads.size(), 1);
        QVERIFY(answerRead());
        QVERIFY(await(load).value);

        QList<QFuture<QVariant>> ticks;
        for (int id = 1; id <= 2; ++id)
            ticks.append(controller->fetch(todos.partialUpdate, {{u"id"_s, id}},
                                           QJsonObject {{u"completed"_s, true}}));
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
        FakeRestApi api(server.get());
        QVERIFY(api.addCollection(u"/todos"_s, untickedTodos()));
        holdReadsOf(api);
        api.setLatency(400);

        DataClient::detail::setOutboxFile(controller.get(), outboxPath);
        connectivity->setOnline(false);
        for (int id = 1; id <= 3; ++id)
            controller->fetch(todos.partialUpdate, {{u"id"_s, id}},
                              QJsonObject {{u"completed"_s, true}});
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

    // Random interleavings of ticks and unticks (queued one behind the other in the outbox),
    // refetches of the list, and answers in any order: a change is confirmed, refused (422:
    // rolled back) or failed with a 503 (retried when it had waited in the outbox). Once every
    // answer is in, the list shows what the server holds. A failing row names its seed.
    void randomInterleavingsEndShowingTheServersState_data()
    {
        QTest::addColumn<quint32>("seed");
        for (const quint32 seed : raceSeeds())
            QTest::addRow("seed %u", seed) << seed;
    }
    void randomInterleavingsEndShowingTheServersState()
    {
        QFETCH(quint32, seed);
        QRandomGenerator random(seed);
        QRandomGenerator serverRandom(seed ^ 0x5eedu);
        QMap<int, bool> held; // the server's data
        for (int id = 1; id <= todoCount; ++id)
            held.insert(id, false);
        const auto entity = [&](int id) {
            return QJsonObject {{u"id"_s, id},
                                {u"userId"_s, 1},
                                {u"title"_s, u"todo %1"_s.arg(id)},
                                {u"completed"_s, held.value(id)}};
        };
        struct HeldAnswer
        {
            bool read = false;
            ServerResponse response;
            TestServer::Responder responder;
        };
        QList<HeldAnswer> answers; // what the server decided on arrival, not sent yet
        qsizetype arrivals = 0;
        QList<int> patched; // the ids of the PATCHes the server received, in order
        server->routeDeferred("GET", u"/todos"_s,
                              [&](const RecordedRequest &, const TestServer::Responder &r) {
                                  ++arrivals;
                                  QJsonArray list;
                                  for (int id = 1; id <= todoCount; ++id)
                                      list.append(entity(id));
                                  answers.append({true, ServerResponse::json(list), r});
                              });
        server->routeDeferred(
            "PATCH", u"/todos/:id"_s,
            [&](const RecordedRequest &request, const TestServer::Responder &r) {
                ++arrivals;
                const int id = request.pathParams.value(u"id"_s).toInt();
                patched.append(id);
                const quint32 roll = serverRandom.bounded(100u);
                if (roll < 15) {
                    answers.append({false, ServerResponse::json(QJsonObject {}, 503), r});
                } else if (roll < 25) {
                    answers.append({false, ServerResponse::json(QJsonObject {}, 422), r});
                } else {
                    held[id] = request.json()[u"completed"_s].toBool();
                    answers.append({false, ServerResponse::json(entity(id)), r});
                }
            });

        struct Change
        {
            int id = 0;
            bool value = false;
            QFuture<QVariant> future;
            bool queued = false; // waited in the outbox: a 503 retries it
        };
        QList<Change> changes;
        QList<int> made; // the ids of the changes, in the order they were made
        QFuture<QVariant> read;
        qsizetype expected = 0; // arrivals the Controller's sends must lead to
        QString trace;
        const auto settled = [&] { return spinUntil([&] { return arrivals == expected; }); };
        const auto onTheWire = [&]() -> Change * {
            for (Change &change : changes) {
                if (!change.future.isFinished())
                    return &change;
            }
            return nullptr;
        };
        const auto answer = [&](qsizetype index) {
            const HeldAnswer next = answers.takeAt(index);
            trace
                += next.read ? u"answer GET; "_s : u"answer PATCH %1; "_s.arg(next.response.status);
            next.responder.send(next.response);
            if (next.read)
                return spinUntil([&] { return read.isFinished(); });
            Change *change = onTheWire();
            if (!change)
                return false;
            if (next.response.status == 503 && change->queued) {
                // Waits its backoff: the retry goes once the clock reaches it.
                if (!spinUntil([&] { return clock->advanceToNext() >= 0; }))
                    return false;
                ++expected;
                return true;
            }
            const QFuture<QVariant> future = change->future;
            if (!spinUntil([&] { return future.isFinished(); }))
                return false;
            if (controller->outbox()->count() > 0)
                ++expected; // the next change goes
            return true;
        };

        QFuture<QVariant> load = read = controller->fetch(todos.getList);
        ++expected;
        QVERIFY(settled());
        QVERIFY(answer(0));
        QVERIFY(await(load).value);

        for (int step = 0; step < 40; ++step) {
            const quint32 action = random.bounded(100u);
            if (action < 35) {
                const int id = 1 + int(random.bounded(quint32(todoCount)));
                const bool value = random.bounded(2u) == 1;
                const bool waits = controller->outbox()->count() > 0;
                changes.append({id, value,
                                controller->fetch(todos.partialUpdate, {{u"id"_s, id}},
                                                  QJsonObject {{u"completed"_s, value}}),
                                waits});
                made.append(id);
                trace += u"tick %1=%2; "_s.arg(id).arg(value);
                if (!waits)
                    ++expected;
            } else if (action < 55) {
                if (read.isFinished()) {
                    read = controller->fetch(todos.getList);
                    ++expected;
                    trace += u"refetch; "_s;
                }
            } else if (!answers.isEmpty()) {
                QVERIFY2(answer(random.bounded(answers.size())), qPrintable(trace));
            }
            QVERIFY2(settled(),
                     qPrintable(u"the server received %1 requests, expected %2: %3"_s.arg(arrivals)
                                    .arg(expected)
                                    .arg(trace)));
            // A todo whose last change waits behind another shows that change, whatever
            // answers came meanwhile. (The change on the wire may be refused: a read answered
            // meanwhile may show the server's data until then.)
            QHash<int, std::optional<bool>> waiting;
            const Change *head = onTheWire();
            for (const Change &change : std::as_const(changes)) {
                const bool unsent = !change.future.isFinished() && &change != head;
                waiting[change.id] = unsent ? std::optional<bool>(change.value) : std::nullopt;
            }
            for (auto it = waiting.cbegin(); it != waiting.cend(); ++it) {
                QVERIFY2(!*it || shownCompleted(it.key()) == **it,
                         qPrintable(
                             u"todo %1 waits to be set to %2 but shows %3 after: %4"_s.arg(it.key())
                                 .arg(it->value_or(false))
                                 .arg(shownCompleted(it.key()).value_or(false))
                                 .arg(trace)));
            }
        }
        // Every answer goes out now, oldest first (retries included), until nothing waits.
        for (int round = 0; round < 500 && !answers.isEmpty(); ++round) {
            QVERIFY2(answer(0), qPrintable(trace));
            QVERIFY2(settled(), qPrintable(trace));
        }
        QVERIFY(answers.isEmpty());
        QCOMPARE(controller->outbox()->count(), 0);
        QVERIFY(read.isFinished());

        // What the server received: the changes in the order they were made, each until it was
        // answered (a retry repeats it), never one before an earlier one.
        QList<int> distinct = patched;
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        QList<int> madeDistinct = made;
        madeDistinct.erase(std::unique(madeDistinct.begin(), madeDistinct.end()),
                           madeDistinct.end());
        QVERIFY2(distinct == madeDistinct, qPrintable(trace));
        // What the user sees: the server's data, nothing pending.
        const ResponseState state = controller->getResponse(todos.getList);
        QVERIFY(!state.pending);
        for (int id = 1; id <= todoCount; ++id) {
            QVERIFY2(shownCompleted(id) == held.value(id),
                     qPrintable(u"todo %1: the server holds completed=%2, the list shows %3 "
                                "after: %4"_s.arg(id)
                                    .arg(held.value(id))
                                    .arg(shownCompleted(id).value_or(false))
                                    .arg(trace)));
        }
    }
};

QTEST_MAIN(tst_OutboxRace)
#include "tst_outboxrace.moc"
