// The explicit list members: getList.move (a PATCH whose answer leaves the lists the call's
// arguments name and joins those it fits, also for lists that do not follow changes by
// themselves), getList.remove (out of one list, not deleted) and getList.assign (a list replaced
// by the answer), each as one precise model signal.
#include "listfixture.h"

using namespace ListFixture;

class tst_CollectionModelListMembers : public ListTest
{
    Q_OBJECT

private:
    //! Routes that answer a list-path PATCH or PUT with its body, as a server whose playlist
    //! removal or list assignment echoes what it did.
    static void echoListWrites(TestServer &s)
    {
        for (const QByteArray &method : {QByteArray("PATCH"), QByteArray("PUT")}) {
            s.route(method, u"/todos"_s, [](const RecordedRequest &request) {
                return ServerResponse::json(request.json());
            });
        }
    }

private Q_SLOTS:
    void moveLeavesTheNamedListAndJoinsTheOneItFits()
    {
        // These lists keep their answers: only the explicit member moves rows.
        start({}, false, std::make_shared<Collection>(Collection::KeepsAnswers));
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        auto user1 = model({{u"userId"_s, 1}});
        ModelSignals openSignals(open.get()), doneSignals(done.get()), userSignals(user1.get());

        QVERIFY(controller
                    ->fetch(todos.getList.move, {{u"id"_s, 2}, {u"completed"_s, false}},
                            QJsonObject {{u"completed"_s, true}})
                    .isValid());
        QTRY_COMPARE(ids(*done), QList<int>({3, 6, 2}));
        QCOMPARE(ids(*open), QList<int>({1, 4, 5}));
        verifyRemoved(openSignals, 1);
        verifyInserted(doneSignals, 2);
        QCOMPARE(ids(*user1), QList<int>({1, 2, 3}));
        QCOMPARE(userSignals.total(), userSignals.changed.size()); // its data, not its rows

        const QList<RecordedRequest> sent = server->requests("PATCH", u"/todos/2"_s);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.at(0).query.toString(), u"completed=false"_s);
        QCOMPARE(sent.at(0).json().toObject(), QJsonObject({{u"completed"_s, true}}));
        QCOMPARE(api->item(u"/todos"_s, 2).value(u"completed"_s), QJsonValue(true));
    }

    void anOptimisticMoveRollsBackExactly()
    {
        start(
            [](TestServer &s) {
                s.route("PATCH", u"/todos/:id"_s, [](const RecordedRequest &) {
                    return ServerResponse::json(QJsonObject {{u"detail"_s, u"no"_s}}, 500);
                });
            },
            true, std::make_shared<Collection>(Collection::KeepsAnswers));
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        ModelSignals openSignals(open.get()), doneSignals(done.get());
        QFuture<QVariant> move
            = controller->fetch(todos.getList.move, {{u"id"_s, 5}, {u"completed"_s, false}},
                                QJsonObject {{u"completed"_s, true}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4}));
        QCOMPARE(ids(*done), QList<int>({3, 6, 5}));
        QTRY_VERIFY(move.isFinished());
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6}));
        QCOMPARE(openSignals.removed.size(), 1);
        QCOMPARE(openSignals.inserted.size(), 1);
        QCOMPARE(doneSignals.inserted.size(), 1);
        QCOMPARE(doneSignals.removed.size(), 1);
        QCOMPARE(openSignals.reset.size() + doneSignals.reset.size(), 0);
        QVERIFY(controller->store().optimisticLayers().isEmpty());
    }

    void removeTakesTheEntityOutOfOneListWithoutDeletingIt()
    {
        start(echoListWrites);
        auto user1 = model({{u"userId"_s, 1}});
        auto open = model({{u"completed"_s, false}});
        ModelSignals userSignals(user1.get()), openSignals(open.get());

        QVERIFY(controller->fetch(todos.getList.remove, {{u"userId"_s, 1}}, todo(2, 1, false))
                    .isValid());
        QTRY_COMPARE(ids(*user1), QList<int>({1, 3}));
        verifyRemoved(userSignals, 1);
        // The entity is not deleted, and the other list it is in keeps it.
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(openSignals.removed.size() + openSignals.inserted.size(), 0);
        QVERIFY(controller->store().entity(EntityRef {u"Todo"_s, u"2"_s}).has_value());
        const QList<RecordedRequest> sent = server->requests("PATCH", u"/todos"_s);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.at(0).query.toString(), u"userId=1"_s);
        QCOMPARE(sent.at(0).json().toObject().value(u"id"_s).toInt(), 2);
    }

    void assignReplacesTheListWithTheAnswer()
    {
        start(echoListWrites);
        auto user1 = model({{u"userId"_s, 1}});
        auto user2 = model({{u"userId"_s, 2}});
        ModelSignals userSignals(user1.get()), otherSignals(user2.get());

        const QJsonArray contents {todo(3, 1, true), todo(1, 1, false)};
        QVERIFY(controller->fetch(todos.getList.assign, {{u"userId"_s, 1}}, contents).isValid());
        QTRY_COMPARE(ids(*user1), QList<int>({3, 1}));
        QCOMPARE(userSignals.removed.size(), 1); // todo 2
        QCOMPARE(userSignals.moved.size(), 1); // 3 before 1
        QCOMPARE(userSignals.inserted.size() + userSignals.reset.size(), 0);
        QCOMPARE(otherSignals.total(), 0);
        const QList<RecordedRequest> sent = server->requests("PUT", u"/todos"_s);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.at(0).query.toString(), u"userId=1"_s);
        QCOMPARE(sent.at(0).json().toArray(), contents);
    }

    void theMembersAreFoundByName()
    {
        start();
        for (const QString &name : {u"getList.move"_s, u"getList.remove"_s, u"getList.assign"_s}) {
            QVERIFY2(todos.member(name), qPrintable(name));
            QCOMPARE(todos.member(name)->name(), name);
        }
        QCOMPARE(todos.getList.move->method(), QByteArray("PATCH"));
        QCOMPARE(todos.getList.move->path(), u"/todos/:id"_s);
        QCOMPARE(todos.getList.remove->method(), QByteArray("PATCH"));
        QCOMPARE(todos.getList.remove->path(), u"/todos"_s);
        QCOMPARE(todos.getList.assign->method(), QByteArray("PUT"));
        QCOMPARE(todos.getList.assign->path(), u"/todos"_s);
    }
};

QTEST_MAIN(tst_CollectionModelListMembers)
#include "tst_collectionmodel_listmembers.moc"
