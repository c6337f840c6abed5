// The outbox against the in-process server, in virtual time: an offline change is
// shown at once and nothing is sent; going online replays the changes in order with a stable
// Idempotency-Key; a network error keeps a change and retries it; a 4xx drops one (rolled back,
// outboxFailed) and later changes still go; a 5xx retries with backoff, which a reconnect does
// not shorten.
#include "outboxfixture.h"

#include <QtCore/QDateTime>
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_Outbox : public OutboxTest
{
    Q_OBJECT

    //! Renames note 1 online and the connection dies mid-answer (a connection dropped before
    //! any answer is sent again by QNetworkAccessManager itself): true once the change waits
    //! to retry (attempt 2 after 500 ms), queued, not failed.
    bool changeWithoutAnswer(QFuture<QVariant> *change)
    {
        seed();
        noteScript
            = {ServerResponse::json(title(u"x"_s)).cutAfter(2, ServerResponse::Ending::Close)};
        *change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        return waitForMutations(1)
            && QTest::qWaitFor([&] { return controller->nextTimerDue() == clock->now() + 500; });
    }

private Q_SLOTS:
    void theOptionDefaultsToOffAndExtendSetsIt()
    {
        const EndpointPtr plain = RestEndpoint::create({.method = "PATCH", .path = u"/a"_s});
        QVERIFY(!plain->queueWhenOffline());
        QVERIFY(plain->extend({.queueWhenOffline = true})->queueWhenOffline());
        QVERIFY(notes.partialUpdate->queueWhenOffline());
        QCOMPARE(Outbox::endpointIdentity(*notes.partialUpdate),
                 u"PATCH /notes/:id partialUpdate"_s);
    }

    void anOfflineChangeIsShownAtOnceAndNothingIsSent()
    {
        seed();
        connectivity->setOnline(false);
        QSignalSpy count(controller->outbox(), &Outbox::countChanged);
        QFuture<QVariant> change
            = controller->fetch(notes.partialUpdate, id(1), title(u"offline edit"_s));
        QCOMPARE(shownTitle(1), u"offline edit"_s); // optimistic, at once
        QCOMPARE(outboxCount(), 1);
        QCOMPARE(count.size(), 1);
        QTest::qWait(0); // an event-loop turn: still nothing
        QCOMPARE(server->requestCount(), 0);
        QVERIFY(!change.isFinished()); // pending until the server confirms it

        // The model a UI shows: "1 change waiting".
        QAbstractItemModelTester tester(controller->outbox(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QModelIndex row = controller->outbox()->index(0);
        QCOMPARE(row.data(Outbox::MethodRole).toString(), u"PATCH"_s);
        QCOMPARE(row.data(Outbox::UrlRole).toString(), server->url(u"/notes/1"_s));
        QCOMPARE(row.data(Outbox::SinceRole).toDateTime().toMSecsSinceEpoch(), clock->now());
        QCOMPARE(controller->outbox()->roleNames().value(Outbox::UrlRole), QByteArray("url"));
    }

    void goingOnlineReplaysInOrderWithIdempotencyKeys()
    {
        seed();
        connectivity->setOnline(false);
        QFuture<QVariant> first = controller->fetch(notes.partialUpdate, id(1), title(u"a"_s));
        QFuture<QVariant> second = controller->fetch(notes.partialUpdate, id(2), title(u"b"_s));
        QFuture<QVariant> third
            = controller->fetch(notes.getList.push, {}, QJsonObject {{u"title"_s, u"c"_s}});
        QCOMPARE(outboxCount(), 3);
        connectivity->setOnline(true);
        QCOMPARE(await(third).value->toMap().value(u"title"_s), u"c"_s);
        QVERIFY(first.isFinished() && second.isFinished());
        const auto sent = mutations();
        QCOMPARE(sent.size(), 3);
        QCOMPARE(sent[0].method, QByteArray("PATCH"));
        QCOMPARE(sent[0].path, u"/notes/1"_s);
        QCOMPARE(sent[0].json(), QJsonValue(title(u"a"_s)));
        QCOMPARE(sent[1].path, u"/notes/2"_s);
        QCOMPARE(sent[1].json(), QJsonValue(title(u"b"_s)));
        QCOMPARE(sent[2].method, QByteArray("POST"));
        QCOMPARE(sent[2].path, u"/notes"_s);
        QSet<QByteArray> keys;
        for (const auto &request : sent) {
            QVERIFY(request.hasHeader("Idempotency-Key"));
            keys.insert(request.header("Idempotency-Key"));
        }
        QCOMPARE(keys.size(), 3); // one per change
        QCOMPARE(outboxCount(), 0);
        QCOMPARE(shownTitle(1), u"a"_s); // committed now, not a layer
        QCOMPARE(shownTitle(2), u"b"_s);
    }

    void aNetworkErrorKeepsTheChangeAndRetriesWithTheSameKey()
    {
        QFuture<QVariant> change;
        QVERIFY(changeWithoutAnswer(&change));
        QVERIFY(!change.isFinished());
        QCOMPARE(outboxCount(), 1);
        QCOMPARE(shownTitle(1), u"x"_s);
        clock->advance(500);
        QVERIFY(await(change).value);
        const auto sent = mutations();
        QCOMPARE(sent.size(), 2);
        QVERIFY(!sent[0].header("Idempotency-Key").isEmpty());
        QCOMPARE(sent[1].header("Idempotency-Key"), sent[0].header("Idempotency-Key"));
        QCOMPARE(outboxCount(), 0);
    }

    void aChangeFailingWhileOfflineGoesOnReconnect()
    {
        QFuture<QVariant> change;
        QVERIFY(changeWithoutAnswer(&change));
        connectivity->setOnline(false);
        clock->advance(500); // the retry is due offline: it waits for the network
        QCOMPARE(mutations().size(), 1);
        connectivity->setOnline(true);
        QVERIFY(await(change).value);
        QCOMPARE(mutations().size(), 2);
    }

    void a4xxDropsRollsBackAndLaterChangesGo()
    {
        seed();
        connectivity->setOnline(false);
        QFuture<QVariant> refused = controller->fetch(notes.partialUpdate, id(1), title(u"bad"_s));
        QFuture<QVariant> accepted = controller->fetch(notes.partialUpdate, id(2), title(u"ok"_s));
        QCOMPARE(shownTitle(1), u"bad"_s);
        noteScript = {ServerResponse::json(QJsonObject {{u"error"_s, u"title taken"_s}}, 422)};
        QSignalSpy failed(controller.get(), &Controller::outboxFailed);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"outbox: dropped PATCH .*/notes/1"_s));
        connectivity->setOnline(true);
        QVERIFY(await(accepted).value);
        const Outcome outcome = await(refused);
        QCOMPARE(outcome.error->status(), 422);
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed[0][0].toByteArray(), QByteArray("PATCH"));
        QCOMPARE(failed[0][1].toUrl(), QUrl(server->url(u"/notes/1"_s)));
        QCOMPARE(failed[0][2].value<NetworkError>().status(), 422);
        QCOMPARE(shownTitle(1), u"one"_s); // rolled back
        QCOMPARE(shownTitle(2), u"ok"_s);
        QCOMPARE(mutations().size(), 2);
        QCOMPARE(outboxCount(), 0);
    }

    // A route that moved (301 to the path with a slash) did not apply the change: a refusal,
    // dropped at once as a 4xx is, rolled back, never sent again (nor read at the Location).
    void aMovedRouteDropsTheChangeWithoutRetrying()
    {
        seed();
        // Django's APPEND_SLASH: "/notes" is answered 301 for every method, "/notes/" serves.
        server->route("*", u"/notes"_s, [](const RecordedRequest &request) {
            if (!request.path.endsWith(u'/'))
                return ServerResponse::redirect(301, "/notes/");
            if (request.method == "GET")
                return ServerResponse::json(QJsonArray {noteJson(1, u"one"_s)});
            return ServerResponse::json(noteJson(50, request.json()[u"title"_s].toString()), 201);
        });
        connectivity->setOnline(false);
        QFuture<QVariant> change = controller->fetch(notes.getList.push, {}, title(u"new"_s));
        QCOMPARE(controller->getResponse(notes.getList).data.toList().size(), 3); // the guess
        QSignalSpy failed(controller.get(), &Controller::outboxFailed);
        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(u"outbox: dropped POST .*/notes: .*did not apply the POST"_s));
        connectivity->setOnline(true);
        const Outcome outcome = await(change);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Redirect);
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed[0][0].toByteArray(), QByteArray("POST"));
        QCOMPARE(failed[0][2].value<NetworkError>().kind(), NetworkError::Kind::Redirect);
        QCOMPARE(outboxCount(), 0);
        QCOMPARE(controller->getResponse(notes.getList).data.toList().size(), 2); // rolled back
        clock->advance(3600 * 1000); // no retry waits
        QVERIFY(receivedExactly(1));
        QCOMPARE(mutations().first().path, u"/notes"_s);
    }

    void a5xxRetriesAQueuedChangeWithBackoff()
    {
        seed();
        noteScript = {ServerResponse::json({}, 503), ServerResponse::json({}, 500)};
        connectivity->setOnline(false);
        QFuture<QVariant> change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        connectivity->setOnline(true);
        QVERIFY(waitForMutations(1));
        QTRY_COMPARE(controller->nextTimerDue(), clock->now() + 500);
        clock->advance(499);
        QCOMPARE(mutations().size(), 1);
        clock->advance(1);
        QVERIFY(waitForMutations(2));
        QTRY_COMPARE(controller->nextTimerDue(), clock->now() + 1000);
        clock->advance(1000);
        QVERIFY(await(change).value);
        const auto sent = mutations();
        QCOMPARE(sent.size(), 3);
        QCOMPARE(sent[2].header("Idempotency-Key"), sent[0].header("Idempotency-Key"));
        QCOMPARE(outboxCount(), 0);
        QCOMPARE(shownTitle(1), u"x"_s);
    }

    void aReconnectDoesNotShortenABackoff()
    {
        // A change waiting out the backoff the server asked for: the network coming back (a
        // hundred times within a second) does not send it again before its time.
        seed();
        noteScript = {ServerResponse::json({}, 503).withHeader("Retry-After", "20")};
        connectivity->setOnline(false);
        QFuture<QVariant> change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        connectivity->setOnline(true);
        QVERIFY(waitForMutations(1));
        QTRY_COMPARE(controller->nextTimerDue(), clock->now() + 20000);
        for (int flip = 0; flip < 100; ++flip) {
            connectivity->setOnline(false);
            connectivity->setOnline(true);
            clock->advance(10);
        }
        QVERIFY(receivedExactly(1));
        clock->advance(20000 - 1000 - 1);
        QVERIFY(receivedExactly(1));
        QCOMPARE(outboxCount(), 1);
        clock->advance(1); // the Retry-After has passed
        QVERIFY(await(change).value);
        QCOMPARE(server->requests("PATCH", u"/notes/1"_s).size(), 2);
        QCOMPARE(outboxCount(), 0);
    }

    void anAnswerToAChangeMadeOnlineIsFinalAsForAnyMutation()
    {
        // Not queued: the server answered, so the change fails (rolled back) through its
        // future, as without the option (the demo's --fail-rate rollback and Retry banner).
        seed();
        noteScript = {ServerResponse::json({}, 500)};
        QSignalSpy failed(controller.get(), &Controller::outboxFailed);
        QFuture<QVariant> change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        QCOMPARE(outboxCount(), 1); // on the wire: kept until answered
        const Outcome outcome = await(change);
        QCOMPARE(outcome.error->status(), 500);
        QCOMPARE(shownTitle(1), u"one"_s);
        QCOMPARE(outboxCount(), 0);
        QCOMPARE(failed.size(), 0);
        const qint64 due = controller->nextTimerDue(); // no retry waits (maybe a GC pass)
        QVERIFY(due == -1 || due > clock->now() + 60000);
        QCOMPARE(mutations().size(), 1);
    }

    void aCallerThatLeavesDoesNotDropTheChange()
    {
        connectivity->setOnline(false);
        QFuture<QVariant> change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        change.cancel();
        QTest::qWait(0);
        QCOMPARE(outboxCount(), 1);
        connectivity->setOnline(true);
        QVERIFY(waitForMutations(1));
        QTRY_COMPARE(outboxCount(), 0);
    }

    void aResetDropsTheOutbox()
    {
        connectivity->setOnline(false);
        QFuture<QVariant> change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        controller->resetEntireStore(); // a logout: the next user never sends it
        QCOMPARE(outboxCount(), 0);
        QVERIFY(await(change).canceled());
        connectivity->setOnline(true);
        QTest::qWait(0);
        QCOMPARE(server->requestCount(), 0);
    }
};

QTEST_MAIN(tst_Outbox)
#include "tst_outbox.moc"
