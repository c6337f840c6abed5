// Lists that follow their data under optimistic guesses and races: a guessed move shows at once
// and rolls back exactly, a placeholder row moves, a row under a layer moves with its committed
// change, and a move racing a read of the list it joins shows the row once.
#include "listfixture.h"

#include <DataClient/placeholderkey.h>

using namespace ListFixture;

class tst_CollectionModelRefilterOptimistic : public ListTest
{
    Q_OBJECT

private Q_SLOTS:
    void anOptimisticMoveShowsAtOnceAndRollsBackExactly()
    {
        start(
            [](TestServer &s) {
                s.route("PATCH", u"/todos/:id"_s, [](const RecordedRequest &) {
                    return ServerResponse::json(QJsonObject {{u"detail"_s, u"no"_s}}, 500)
                        .withDelay(50);
                });
            },
            true);
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        ModelSignals openSignals(open.get()), doneSignals(done.get());
        QFuture<QVariant> update = controller->fetch(todos.partialUpdate, {{u"id"_s, 4}},
                                                     QJsonObject {{u"completed"_s, true}});
        // At once, before any answer.
        QCOMPARE(ids(*open), QList<int>({1, 2, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6, 4}));
        verifyRemoved(openSignals, 2);
        verifyInserted(doneSignals, 2);
        openSignals.clear();
        doneSignals.clear();

        QTRY_VERIFY(update.isFinished());
        QCOMPARE(server->requests("PATCH", u"/todos/4"_s).size(), 1);
        // Back where it was, as one insert and one remove.
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6}));
        verifyInserted(openSignals, 2);
        verifyRemoved(doneSignals, 2);
        QVERIFY(controller->store().optimisticLayers().isEmpty());
    }

    void aConfirmedOptimisticMoveGivesNoFurtherSignal()
    {
        start({}, true);
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        ModelSignals openSignals(open.get()), doneSignals(done.get());
        QFuture<QVariant> update = controller->fetch(todos.partialUpdate, {{u"id"_s, 4}},
                                                     QJsonObject {{u"completed"_s, true}});
        QCOMPARE(ids(*done), QList<int>({3, 6, 4}));
        QTRY_VERIFY(update.isFinished());
        QVERIFY(controller->store().optimisticLayers().isEmpty());
        QCOMPARE(ids(*open), QList<int>({1, 2, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6, 4}));
        QCOMPARE(openSignals.removed.size(), 1);
        QCOMPARE(doneSignals.inserted.size(), 1);
        QCOMPARE(openSignals.inserted.size() + doneSignals.removed.size(), 0);
        QCOMPARE(openSignals.reset.size() + doneSignals.reset.size(), 0);
    }

    void aRowUnderAnOptimisticLayerMovesWithItsCommittedChange()
    {
        // A title guess is pending on todo 2 when the server's record says it is completed:
        // the row moves, and stays moved when the guess is confirmed.
        QList<TestServer::Responder> held;
        start(
            [&held](TestServer &s) {
                s.routeDeferred("PATCH", u"/todos/:id"_s,
                                [&held](const RecordedRequest &, const TestServer::Responder &r) {
                                    held.append(r);
                                });
            },
            true);
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        QFuture<QVariant> rename = controller->fetch(todos.partialUpdate, {{u"id"_s, 2}},
                                                     QJsonObject {{u"title"_s, u"guessed"_s}});
        QTRY_COMPARE(held.size(), 1);
        ModelSignals openSignals(open.get()), doneSignals(done.get());

        api->setItem(u"/todos"_s, todo(2, 1, true));
        QVERIFY(controller->fetch(todos.get, {{u"id"_s, 2}}).isValid());
        QTRY_COMPARE(ids(*done), QList<int>({3, 6, 2}));
        QCOMPARE(ids(*open), QList<int>({1, 4, 5}));
        verifyRemoved(openSignals, 1);
        QCOMPARE(doneSignals.inserted.size(), 1);

        held.at(0).send(ServerResponse::json(todo(2, 1, true, u"guessed"_s)));
        QTRY_VERIFY(rename.isFinished());
        QVERIFY(controller->store().optimisticLayers().isEmpty());
        QCOMPARE(ids(*done), QList<int>({3, 6, 2}));
        QCOMPARE(done->get(2).toMap().value(u"title"_s).toString(), u"guessed"_s);
        QCOMPARE(ids(*open), QList<int>({1, 4, 5}));
        QCOMPARE(openSignals.removed.size() + openSignals.inserted.size(), 1);
        QCOMPARE(doneSignals.removed.size() + doneSignals.inserted.size(), 1);
    }

    void aPlaceholderRowMovesAndEndsInTheListItsConfirmedRecordFits()
    {
        // An optimistic create not yet answered shows as a placeholder row in "open"; completing
        // it moves the placeholder to "done" at once; the create's answer and the held edit end
        // with the server's row there, once.
        QList<TestServer::Responder> creates;
        start(
            [&creates](TestServer &s) {
                s.routeDeferred("POST", u"/todos"_s,
                                [&creates](const RecordedRequest &,
                                           const TestServer::Responder &r) { creates.append(r); });
            },
            true);
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        const QJsonObject body {{u"userId"_s, 1}, {u"title"_s, u"new"_s}, {u"completed"_s, false}};
        QFuture<QVariant> created = controller->fetch(todos.getList.push, {}, body);
        QCOMPARE(open->rowCount(), 5);
        const QString placeholder = open->get(4).toMap().value(u"id"_s).toString();
        QVERIFY(isPlaceholderKey(placeholder));
        QTRY_COMPARE(creates.size(), 1);

        ModelSignals openSignals(open.get()), doneSignals(done.get());
        QFuture<QVariant> edit = controller->fetch(todos.partialUpdate, {{u"id"_s, placeholder}},
                                                   QJsonObject {{u"completed"_s, true}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(done->rowCount(), 3);
        QCOMPARE(done->get(2).toMap().value(u"id"_s).toString(), placeholder);
        verifyRemoved(openSignals, 4);
        verifyInserted(doneSignals, 2);

        QJsonObject answer = body;
        answer.insert(u"id"_s, 7);
        QVERIFY(api->setItem(u"/todos"_s, answer));
        creates.at(0).send(ServerResponse::json(answer, 201));
        QTRY_VERIFY(created.isFinished() && edit.isFinished());
        QTRY_VERIFY(controller->store().optimisticLayers().isEmpty());
        QCOMPARE(server->requests("PATCH", u"/todos/7"_s).size(), 1);
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6, 7}));
        QCOMPARE(openSignals.reset.size() + doneSignals.reset.size(), 0);
    }

    void aMoveRacingARefetchOfTheTargetListShowsTheRowOnce_data()
    {
        QTest::addColumn<bool>("refetchAnswersFirst");
        QTest::newRow("the refetch answers before the move") << true;
        QTest::newRow("the refetch answers after the move") << false;
    }
    void aMoveRacingARefetchOfTheTargetListShowsTheRowOnce()
    {
        // The refetch of "done" is sent before the PATCH: its answer (without todo 2) is older
        // than the move, so whatever order the answers arrive in, todo 2 shows once in "done".
        QFETCH(bool, refetchAnswersFirst);
        QList<TestServer::Responder> heldLists;
        bool holdLists = false;
        start([&](TestServer &s) {
            s.routeDeferred(
                "GET", u"/todos"_s,
                [&](const RecordedRequest &request, const TestServer::Responder &r) {
                    if (!holdLists) {
                        const QJsonArray all = api->collection(u"/todos"_s);
                        QJsonArray matching;
                        const QString completed = request.query.queryItemValue(u"completed"_s);
                        for (const QJsonValue &item : all) {
                            if (completed.isEmpty()
                                || (item[u"completed"_s].toBool() == (completed == u"true"_s)))
                                matching.append(item);
                        }
                        r.send(ServerResponse::json(matching));
                    } else {
                        heldLists.append(r);
                    }
                });
        });
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        ModelSignals doneSignals(done.get());
        const QJsonArray doneBefore {todo(3, 1, true), todo(6, 2, true)};

        holdLists = true;
        done->refetch();
        QTRY_COMPARE(heldLists.size(), 1);
        QFuture<QVariant> move = controller->fetch(todos.partialUpdate, {{u"id"_s, 2}},
                                                   QJsonObject {{u"completed"_s, true}});
        if (refetchAnswersFirst) {
            heldLists.at(0).send(ServerResponse::json(doneBefore));
            QTRY_VERIFY(!done->isLoading());
            QTRY_VERIFY(move.isFinished());
        } else {
            QTRY_VERIFY(move.isFinished());
            QCOMPARE(ids(*done), QList<int>({3, 6, 2}));
            heldLists.at(0).send(ServerResponse::json(doneBefore));
            QTRY_VERIFY(!done->isLoading());
        }
        QCOMPARE(ids(*done), QList<int>({3, 6, 2}));
        QCOMPARE(ids(*open), QList<int>({1, 4, 5}));
        QCOMPARE(doneSignals.inserted.size(), 1);
        QCOMPARE(doneSignals.removed.size() + doneSignals.reset.size(), 0);
        QCOMPARE(server->requests("PATCH", u"/todos/2"_s).size(), 1);

        // A refetch that starts after the move holds the server's list: still one row.
        holdLists = false;
        done->refetch();
        QTRY_COMPARE(server->requests("GET", u"/todos"_s).size(), 4);
        QTRY_VERIFY(!done->isLoading());
        QCOMPARE(ids(*done), QList<int>({2, 3, 6}));
        QCOMPARE(doneSignals.reset.size(), 0);
    }
};

QTEST_MAIN(tst_CollectionModelRefilterOptimistic)
#include "tst_collectionmodel_refilteroptimistic.moc"
