// Mutations as undo commands (DataClient::Undo, docs/undo.md), against the in-process server:
// what the server received for each undo and redo, what the store shows at once, and the edge
// cases — a create not answered yet, a record deleted on the server, offline, a cleared stack,
// 1,000 presses, a conflict, the Controller gone first.
#include "placeholderbackend.h"

#include <DataClient/connectivity.h>
#include <DataClient/outbox.h>
#include <DataClient/undorecorder.h>

#include <QtGui/QUndoStack>
#include <QtCore/QCoreApplication>
#include <QtCore/QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace PlaceholderFixture;

class tst_Undo : public PlaceholderTest
{
    Q_OBJECT

private:
    std::unique_ptr<QUndoStack> stack;
    std::unique_ptr<UndoRecorder> recorder;

    void start(bool deferCreates = false)
    {
        startBackend(deferCreates);
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        stack = std::make_unique<QUndoStack>();
        recorder = std::make_unique<UndoRecorder>(controller.get(), stack.get());
    }
    QString shownTitle(const QString &id) const
    {
        const auto shown = controller->store().shownEntity({u"Todo"_s, id});
        return shown ? shown->value(u"title"_s).toString() : QString();
    }
    QString serverTitle(int id) const
    {
        return backend->api.item(u"/todos"_s, id).value(u"title"_s).toString();
    }
    QList<Testing::RecordedRequest> sent(const QByteArray &method) const
    {
        QList<Testing::RecordedRequest> out;
        const auto requests = backend->server.requests();
        for (const auto &request : requests) {
            if (request.method == method)
                out.append(request);
        }
        return out;
    }
    QFuture<QVariant> rename(int id, const QString &title)
    {
        return recorder->partialUpdate(todos, {{u"id"_s, id}}, {{u"title"_s, title}},
                                       u"rename '%1'"_s.arg(shownTitle(QString::number(id))));
    }
    //! Every request of the recorder has answered.
    bool settled() const { return !controller->getResponse(todos.getList, {}).pending; }

private Q_SLOTS:
    void cleanup()
    {
        recorder.reset();
        stack.reset();
        stopBackend();
    }

    void anEditUndoesAndRedoesOnTheServerWithAFreshKeyEachTime()
    {
        start();
        QFuture<QVariant> renamed = rename(1, u"uno"_s);
        // The guess keeps the id the caller gave: a number, as the server sends it.
        QCOMPARE(controller->store().shownEntity(todoRef(1))->value(u"id"_s), QJsonValue(1));
        QVERIFY(await(renamed).value);
        QCOMPARE(stack->undoText(), u"rename 'one'"_s);
        stack->undo();
        QCOMPARE(shownTitle(u"1"_s), u"one"_s); // optimistic: shown at once
        QTRY_COMPARE(serverTitle(1), u"one"_s);
        stack->redo();
        QCOMPARE(shownTitle(u"1"_s), u"uno"_s);
        QTRY_COMPARE(serverTitle(1), u"uno"_s);
        QTRY_VERIFY(settled());
        const auto patches = sent("PATCH");
        QCOMPARE(patches.size(), 3);
        QSet<QByteArray> keys;
        for (const auto &patch : patches) {
            QCOMPARE(patch.path, u"/todos/1"_s);
            QVERIFY(!patch.header("Idempotency-Key").isEmpty());
            keys.insert(patch.header("Idempotency-Key"));
        }
        QCOMPARE(keys.size(), 3); // one key per request: an undo is not a retry of the original
        QCOMPARE(patches.at(1).json(), QJsonValue(QJsonObject {{u"title"_s, u"one"_s}}));
    }

    void consecutiveEditsOfOneFieldMergeWithinTheWindow()
    {
        start();
        rename(1, u"o"_s);
        rename(1, u"on"_s);
        rename(1, u"onex"_s);
        QCOMPARE(stack->count(), 1); // typing: one command
        recorder->partialUpdate(todos, {{u"id"_s, 1}}, {{u"completed"_s, true}});
        QCOMPARE(stack->count(), 2); // another field: another command
        recorder->setMergeWindowMs(0);
        rename(1, u"final"_s);
        QCOMPARE(stack->count(), 3);
        QTRY_VERIFY(settled());
        stack->undo();
        stack->undo();
        stack->undo();
        QTRY_VERIFY(settled());
        QTRY_COMPARE(serverTitle(1), u"one"_s); // the merged command's "before" is the first's
        QCOMPARE(backend->api.item(u"/todos"_s, 1).value(u"completed"_s), QJsonValue(false));
        // Ticked and unticked in the window: nothing left to undo, the stack drops it.
        recorder->setMergeWindowMs(2000);
        const int before = stack->count();
        recorder->partialUpdate(todos, {{u"id"_s, 2}}, {{u"completed"_s, true}});
        recorder->partialUpdate(todos, {{u"id"_s, 2}}, {{u"completed"_s, false}});
        QCOMPARE(stack->count(), stack->index());
        QVERIFY(stack->count() <= before + 1);
        QVERIFY(!stack->undoText().contains(u"completed"_s) || stack->count() == stack->index());
    }

    void aThousandPressesSendOnlyTheFirstAndTheLastState()
    {
        start();
        QVERIFY(await(rename(1, u"uno"_s)).value);
        backend->server.clearRequests();
        for (int i = 0; i < 500; ++i) {
            stack->undo();
            stack->redo();
        }
        QCOMPARE(shownTitle(u"1"_s), u"one"_s); // the first press shows at once
        QTRY_COMPARE(shownTitle(u"1"_s), u"uno"_s); // the last at the end of the turn
        QTRY_VERIFY(settled());
        const auto patches = sent("PATCH");
        QCOMPARE(patches.size(), 2); // the first undo (on the wire at once), then the last redo
        QCOMPARE(patches.last().json(), QJsonValue(QJsonObject {{u"title"_s, u"uno"_s}}));
        QCOMPARE(serverTitle(1), u"uno"_s);
        QCOMPARE(stack->index(), 1);
    }

    // An undo made while its edit is on the wire waits for the edit's answer, then goes: the
    // server never sees them out of order (two connections could swap them).
    void anUndoWaitsForTheEditItUndoesToBeAnswered()
    {
        start();
        DeferredReplies patches;
        patches.install(backend->server, "PATCH", u"/todos/:id"_s);
        rename(1, u"uno"_s);
        QVERIFY(patches.waitFor(1));
        stack->undo();
        QCOMPARE(shownTitle(u"1"_s), u"one"_s); // shown at once all the same
        QTest::qWait(100); // (nothing to await: the point is that nothing is sent)
        QCOMPARE(patches.pending.size(), 1);
        patches.pending.at(0).responder.send(Testing::ServerResponse::json(todo(1, 1, u"uno"_s)));
        QVERIFY(patches.waitFor(2));
        QCOMPARE(patches.pending.at(1).request.json(),
                 QJsonValue(QJsonObject {{u"title"_s, u"one"_s}}));
        patches.pending.at(1).responder.send(Testing::ServerResponse::json(todo(1, 1, u"one"_s)));
        QTRY_VERIFY(settled());
        QCOMPARE(shownTitle(u"1"_s), u"one"_s);
    }

    // The same, one press per event-loop turn (each shown at once) while the first is on the
    // wire: those that wait are dropped unsent as later ones replace them; the last one goes.
    void pressesWhileOneIsOnTheWireSendOnlyTheLast()
    {
        start();
        QVERIFY(await(rename(1, u"uno"_s)).value);
        DeferredReplies patches;
        patches.install(backend->server, "PATCH", u"/todos/:id"_s);
        for (int i = 0; i < 100; ++i) {
            stack->undo();
            QCOMPARE(shownTitle(u"1"_s), u"one"_s);
            QCoreApplication::processEvents();
            stack->redo();
            QCOMPARE(shownTitle(u"1"_s), u"uno"_s);
            QCoreApplication::processEvents();
        }
        stack->undo();
        QVERIFY(patches.waitFor(1));
        patches.pending.at(0).responder.send(Testing::ServerResponse::json(todo(1, 1, u"one"_s)));
        QVERIFY(patches.waitFor(2));
        QCOMPARE(patches.pending.at(1).request.json(),
                 QJsonValue(QJsonObject {{u"title"_s, u"one"_s}}));
        patches.pending.at(1).responder.send(Testing::ServerResponse::json(todo(1, 1, u"one"_s)));
        QTRY_VERIFY(settled());
        QCOMPARE(patches.pending.size(), 2);
        QCOMPARE(shownTitle(u"1"_s), u"one"_s);
        QCOMPARE(stack->index(), 0);
    }

    // A reset drops the answer of a step on the wire: the record's next request still waits
    // for that answer (the server may apply it), then goes; nothing stays held, and refused()
    // says the step's outcome is unknown.
    void aStepWhoseAnswerAResetDropsStillLetsTheNextGo()
    {
        start();
        QVERIFY(await(rename(1, u"uno"_s)).value);
        DeferredReplies patches;
        patches.install(backend->server, "PATCH", u"/todos/:id"_s);
        QSignalSpy refused(recorder.get(), &UndoRecorder::refused);
        stack->undo();
        QVERIFY(patches.waitFor(1));
        controller->resetEntireStore();
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        recorder->setConflictPolicy(UndoRecorder::ConflictPolicy::ApplyAnyway);
        stack->redo();
        patches.pending.at(0).responder.send(Testing::ServerResponse::json(todo(1, 1, u"one"_s)));
        QVERIFY(patches.waitFor(2));
        QCOMPARE(patches.pending.at(1).request.json(),
                 QJsonValue(QJsonObject {{u"title"_s, u"uno"_s}}));
        QTRY_COMPARE(refused.size(), 1);
        QVERIFY2(refused.at(0).at(1).toString().contains(u"canceled before the server answered"_s),
                 qPrintable(refused.at(0).at(1).toString()));
    }

    void undoOfAnUnansweredCreateDeletesItOnceConfirmed()
    {
        start(true);
        QFuture<QVariant> created = recorder->create(todos, {}, newTodo(u"new"_s), u"add 'new'"_s);
        QVERIFY(backend->creates.waitFor(1));
        QCOMPARE(controller->getResponse(todos.getList, {}).data.toList().size(), 6);
        stack->undo();
        QCOMPARE(controller->getResponse(todos.getList, {}).data.toList().size(), 5); // at once
        QCOMPARE(sent("DELETE").size(), 0); // it waits for the create's answer
        backend->create(0, 6);
        QTRY_COMPARE(sent("DELETE").size(), 1);
        QCOMPARE(sent("DELETE").at(0).path, u"/todos/6"_s);
        QTRY_VERIFY(backend->api.item(u"/todos"_s, 6).isEmpty());
        // Redo creates it again: the server's new id is the command's from then on.
        stack->redo();
        QVERIFY(backend->creates.waitFor(2));
        backend->create(1, 7);
        QTRY_VERIFY(settled());
        stack->undo();
        QTRY_COMPARE(sent("DELETE").size(), 2);
        QCOMPARE(sent("DELETE").at(1).path, u"/todos/7"_s);
        QVERIFY(created.isFinished());
    }

    // A create without a guess (not optimistic: no placeholder row) undone before its answer:
    // the delete needs the server's key, so it is sent when the create answers.
    void undoOfAnUnguessedCreateDeletesItWhenAnswered()
    {
        start(true);
        todos = createResource(
            {.path = u"/todos/:id"_s, .schema = todoSchema(), .urlPrefix = backend->server.url()});
        recorder->create(todos, {}, newTodo(u"new"_s), u"add 'new'"_s);
        QVERIFY(backend->creates.waitFor(1));
        QCoreApplication::processEvents(); // a later event-loop turn: the undo is sent at once
        stack->undo();
        QCOMPARE(sent("DELETE").size(), 0);
        backend->create(0, 6);
        QTRY_COMPARE(sent("DELETE").size(), 1);
        QCOMPARE(sent("DELETE").at(0).path, u"/todos/6"_s);
    }

    void undoOfADeleteCreatesItAgainAndTheNewIdReplacesTheOld()
    {
        start();
        const QJsonObject ada {{u"id"_s, 7}, {u"name"_s, u"Ada"_s}};
        QJsonObject withAuthor = todo(2, 1, u"two"_s);
        withAuthor.insert(u"author"_s, ada);
        QVERIFY(controller->set(todoSchema(), withAuthor).ok());
        QVERIFY(await(rename(2, u"deux"_s)).value);
        QVERIFY(await(recorder->remove(todos, {{u"id"_s, 2}}, u"delete 'deux'"_s)).error
                == std::nullopt);
        QVERIFY(backend->api.item(u"/todos"_s, 2).isEmpty());
        stack->undo(); // created again from what the store showed, without its id
        QCOMPARE(controller->getResponse(todos.getList, {}).data.toList().size(), 5); // at once
        QTRY_COMPARE(sent("POST").size(), 1);
        const QJsonObject body = sent("POST").at(0).json().toObject();
        QVERIFY(!body.contains(u"id"_s));
        QCOMPARE(body.value(u"title"_s), QJsonValue(u"deux"_s));
        QCOMPARE(body.value(u"author"_s), QJsonValue(ada)); // the record, not its key
        QTRY_VERIFY(settled());
        QCOMPARE(serverTitle(6), u"deux"_s); // the server's next id
        stack->undo(); // the rename: sent to the record's new id
        QTRY_COMPARE(sent("PATCH").size(), 2);
        QCOMPARE(sent("PATCH").at(1).path, u"/todos/6"_s);
        QTRY_COMPARE(serverTitle(6), u"two"_s);
        stack->redo();
        stack->redo(); // the delete again: of the new id
        QTRY_COMPARE(sent("DELETE").size(), 2);
        QCOMPARE(sent("DELETE").at(1).path, u"/todos/6"_s);
    }

    void undoAfterTheServerDeletedTheRecordIsRefusedAndTheStackKept()
    {
        start();
        QVERIFY(await(rename(3, u"trois"_s)).value);
        QVERIFY(backend->api.removeItem(u"/todos"_s, 3));
        QSignalSpy refused(recorder.get(), &UndoRecorder::refused);
        stack->undo();
        QTRY_COMPARE(refused.size(), 1);
        QCOMPARE(refused.at(0).at(0).toString(), u"rename 'three'"_s);
        const QString reason = refused.at(0).at(1).toString();
        QVERIFY2(reason.contains(u"404"_s) && reason.contains(u"no longer has Todo 3"_s),
                 qPrintable(reason));
        QTRY_COMPARE(stack->index(), 1); // put back: the command is still done
        QVERIFY(stack->canUndo());
        QCOMPARE(stack->undoText(), u"rename 'three'"_s);
        QCOMPARE(shownTitle(u"3"_s), u"trois"_s); // the undo's guess rolled back
    }

    void aConflictIsRefusedByDefaultAndApplyAnywayOverwrites()
    {
        start();
        QVERIFY(await(rename(1, u"uno"_s)).value);
        // Newer data from elsewhere (a push, another request).
        QVERIFY(controller->set(todoSchema(), todo(1, 1, u"from the server"_s)).ok());
        QSignalSpy refused(recorder.get(), &UndoRecorder::refused);
        backend->server.clearRequests();
        stack->undo();
        QCOMPARE(refused.size(), 1);
        const QString reason = refused.at(0).at(1).toString();
        QVERIFY2(reason.contains(u"title is 'from the server', not 'uno'"_s), qPrintable(reason));
        QTRY_COMPARE(stack->index(), 1);
        QCOMPARE(sent("PATCH").size(), 0);
        QCOMPARE(shownTitle(u"1"_s), u"from the server"_s);

        recorder->setConflictPolicy(UndoRecorder::ConflictPolicy::ApplyAnyway);
        stack->undo();
        QCOMPARE(shownTitle(u"1"_s), u"one"_s);
        QTRY_COMPARE(serverTitle(1), u"one"_s);
        QCOMPARE(refused.size(), 1);
    }

    void undoOfflineIsQueuedInTheOutbox()
    {
        start();
        Connectivity connectivity;
        controller->setConnectivity(&connectivity);
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = todoSchema(),
                                .urlPrefix = backend->server.url(),
                                .optimistic = true,
                                .queueWhenOffline = true});
        QVERIFY(await(rename(1, u"uno"_s)).value);
        connectivity.setOnline(false);
        stack->undo();
        QCOMPARE(shownTitle(u"1"_s), u"one"_s);
        QCOMPARE(controller->outbox()->count(), 1);
        QCOMPARE(sent("PATCH").size(), 1);
        connectivity.setOnline(true);
        QTRY_COMPARE(serverTitle(1), u"one"_s);
        QTRY_COMPARE(controller->outbox()->count(), 0);
        const auto patches = sent("PATCH");
        QCOMPARE(patches.size(), 2);
        QVERIFY(!patches.last().header("Idempotency-Key").isEmpty());
        controller->setConnectivity(nullptr);
    }

    void clearingTheStackWithStepsInFlightLetsThemFinish()
    {
        start();
        QVERIFY(await(rename(1, u"uno"_s)).value);
        QSignalSpy refused(recorder.get(), &UndoRecorder::refused);
        stack->undo();
        stack->clear(); // the command is deleted while its undo is on the wire
        QVERIFY(!stack->canUndo() && !stack->canRedo());
        QTRY_COMPARE(serverTitle(1), u"one"_s);
        QTRY_VERIFY(settled());
        QCOMPARE(refused.size(), 0);
        QCOMPARE(shownTitle(u"1"_s), u"one"_s);
    }

    void theControllerDestroyedBeforeTheStackSendsNothing()
    {
        start();
        QVERIFY(await(rename(1, u"uno"_s)).value);
        QSignalSpy refused(recorder.get(), &UndoRecorder::refused);
        const qsizetype before = backend->server.requestCount();
        controller.reset();
        QCOMPARE(recorder->controller(), nullptr);
        stack->undo();
        QCOMPARE(refused.size(), 1);
        QVERIFY(refused.at(0).at(1).toString().contains(u"Controller was destroyed"_s));
        stack->redo();
        stack->clear();
        QCOMPARE(backend->server.requestCount(), before);
        controller = std::make_unique<Controller>(); // for cleanup()
    }

    // Bad input says what is wrong and what happens: a null endpoint sends nothing; a record
    // the store does not hold is sent but not recorded (its values before are unknown).
    void badInputIsNamedAndNothingUndoableIsRecorded()
    {
        start();
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"UndoRecorder::update\\(\\): an endpoint is null.*"
                                                "nothing was sent"_s));
        QFuture<QVariant> none = recorder->update({}, {{u"id"_s, 1}}, {{u"title"_s, u"x"_s}});
        QVERIFY(none.isCanceled());
        QCOMPARE(stack->count(), 0);

        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(u"the store holds no record 42 .*cannot be undone"_s));
        QFuture<QVariant> unknown
            = recorder->partialUpdate(todos, {{u"id"_s, 42}}, {{u"title"_s, u"x"_s}});
        QCOMPARE(stack->count(), 0);
        QVERIFY(await(unknown).error); // sent all the same: the server has no todo 42
        QCOMPARE(sent("PATCH").size(), 1);

        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(u"UndoRecorder needs a Controller and a QUndoStack.*"_s));
        UndoRecorder orphan(nullptr, stack.get());
        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(u"UndoRecorder::remove\\(\\): its Controller is gone.*"_s));
        QVERIFY(orphan.remove(todos, {{u"id"_s, 1}}).isCanceled());
    }
};

QTEST_MAIN(tst_Undo)
#include "tst_undo.moc"
