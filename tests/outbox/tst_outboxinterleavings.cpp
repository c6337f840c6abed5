// The race between reads and changes that wait (docs/controller.md "Requests are dated when
// they are sent"), by seeded random interleavings against a model of a server that applies each
// request when it arrives and answers when the test says: ticks and unticks queued one behind
// the other in the outbox, refetches of the list, answers in any order, changes confirmed,
// refused (422: rolled back) or failed with a 503 (retried when they had waited). Invariants:
// a todo whose last change waits shows that change; once every answer is in, the list shows
// what the server holds; the server received the changes in the order they were made.
// DATACLIENT_RACE_SEED=<n> replays one seed, DATACLIENT_RACE_SEEDS=<count> runs more.
#include "outboxracefixture.h"

#include <DataClient/outbox.h>

#include <QtCore/QAbstractEventDispatcher>
#include <QtCore/QElapsedTimer>
#include <QtCore/QRandomGenerator>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QTest>

#include <algorithm>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

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

} // namespace

class tst_OutboxInterleavings : public OutboxRaceTest
{
    Q_OBJECT

private Q_SLOTS:
    // A failing row names its seed, and its message the steps that led there.
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

QTEST_MAIN(tst_OutboxInterleavings)
#include "tst_outboxinterleavings.moc"
