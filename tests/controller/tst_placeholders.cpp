// Optimistic creates without client ids (docs/optimistic-updates.md): a create whose
// body has no primary key shows its row at once under a placeholder key that is never sent;
// writes naming it are held until the create is confirmed; reads of it are answered from the
// store. Against FakeRestApi keeping client-sent ids, so a placeholder sent by mistake would be
// stored, and every test asserts the server's log.
#include "placeholderbackend.h"

#include <QTest>

#include <memory>

using namespace PlaceholderFixture;

class tst_Placeholders : public PlaceholderTest
{
    Q_OBJECT

private:
    void start(bool deferCreates)
    {
        startBackend(deferCreates);
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
    }
    //! Deferred creates, one of them waiting for its answer in \a created: its placeholder key.
    QString startWithPendingCreate(QFuture<QVariant> *created, const QString &title = u"new"_s)
    {
        start(true);
        *created = push(title);
        return backend->creates.waitFor(1) ? idOf(5) : QString();
    }
    QFuture<QVariant> rename(const QString &id, const QString &title)
    {
        return controller->fetch(todos.partialUpdate, {{u"id"_s, id}},
                                 QJsonObject {{u"title"_s, title}});
    }
    QVariantList rows() const { return controller->getResponse(todos.getList, {}).data.toList(); }
    Record row(qsizetype index) const { return rows().value(index).value<Record>(); }
    QString idOf(qsizetype index) const { return row(index).pk(); }
    QFuture<QVariant> push(const QString &title)
    {
        return controller->fetch(todos.getList.push, {}, newTodo(title));
    }

private Q_SLOTS:
    void cleanup() { stopBackend(); }

    void aCreateWithoutPkShowsAPlaceholderRowAndSendsTheBodyAsGiven()
    {
        start(false);
        ChangeRecorder changes(controller.get());
        QFuture<QVariant> created = push(u"new"_s);
        QCOMPARE(changes.sets.size(), 1); // at once
        QCOMPARE(rows().size(), 6);
        QVERIFY(isPlaceholderKey(idOf(5)));
        QVERIFY(row(5).isPending());
        QCOMPARE(row(5).value(u"title"_s), QVariant(u"new"_s));
        QVERIFY(controller->getResponse(todos.getList, {}).pending);

        const Outcome outcome = await(created);
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->value<Record>().pk(), u"6"_s);
        QCOMPARE(backend->server.requests("POST", u"/todos"_s).size(), 1);
        QCOMPARE(backend->server.requests("POST", u"/todos"_s).at(0).json().toObject(),
                 newTodo(u"new"_s)); // exactly the caller's body
        QCOMPARE(rows().size(), 6);
        QCOMPARE(idOf(5), u"6"_s);
        QVERIFY(!row(5).isPending());
        QVERIFY(!controller->getResponse(todos.getList, {}).pending);
        QCOMPARE(backend->api.item(u"/todos"_s, 6).value(u"title"_s).toString(), u"new"_s);
    }

    void aBodyWithItsOwnPkKeepsItAndSendsIt()
    {
        start(false);
        QJsonObject body = newTodo(u"mine"_s);
        body.insert(u"id"_s, 100);
        QFuture<QVariant> created = controller->fetch(todos.getList.push, {}, body);
        QCOMPARE(idOf(5), u"100"_s);
        QVERIFY(row(5).isPending());
        QVERIFY(await(created).value);
        QCOMPARE(backend->server.requests("POST", u"/todos"_s).at(0).json().toObject(), body);
        QCOMPARE(idOf(5), u"100"_s);
        QVERIFY(!row(5).isPending());
        QCOMPARE(backend->api.item(u"/todos"_s, 100).value(u"title"_s).toString(), u"mine"_s);
    }

    void twoCreatesInARowGetTwoPlaceholdersAndTwoRows()
    {
        start(false);
        QFuture<QVariant> first = push(u"first"_s);
        QFuture<QVariant> second = push(u"second"_s);
        QCOMPARE(rows().size(), 7);
        QVERIFY(isPlaceholderKey(idOf(5)));
        QVERIFY(isPlaceholderKey(idOf(6)));
        QVERIFY(idOf(5) != idOf(6));
        QVERIFY(await(first).value);
        QVERIFY(await(second).value);
        QCOMPARE(ids(rows()), (QList<int> {1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(row(5).value(u"title"_s), QVariant(u"first"_s));
        QCOMPARE(row(6).value(u"title"_s), QVariant(u"second"_s));
        QCOMPARE(backend->api.collection(u"/todos"_s).size(), 7);
    }

    void anUnshiftShowsItsPlaceholderFirstAndIsConfirmedThere()
    {
        start(false);
        QFuture<QVariant> created
            = controller->fetch(todos.getList.unshift, {}, newTodo(u"first"_s));
        QCOMPARE(rows().size(), 6);
        QVERIFY(isPlaceholderKey(idOf(0)));
        QVERIFY(row(0).isPending());
        QVERIFY(await(created).value);
        QCOMPARE(ids(rows()), (QList<int> {6, 1, 2, 3, 4, 5}));
        QVERIFY(!row(0).isPending());
        QCOMPARE(backend->server.requests("POST", u"/todos"_s).at(0).json().toObject(),
                 newTodo(u"first"_s));
    }

    void aHeldEditIsSentOnceWithTheServersId()
    {
        QFuture<QVariant> created;
        const QString placeholder = startWithPendingCreate(&created);
        ChangeRecorder changes(controller.get());
        QFuture<QVariant> edit = controller->fetch(todos.partialUpdate, {{u"id"_s, placeholder}},
                                                   QJsonObject {{u"completed"_s, true}});
        QCOMPARE(changes.sets.size(), 1); // the edit shows on the placeholder row at once
        QCOMPARE(row(5).value(u"completed"_s), QVariant(true));
        QVERIFY(row(5).isPending());
        QVERIFY(!edit.isFinished());

        backend->create(0, 6);
        QVERIFY(await(created).value);
        QCOMPARE(controller->confirmedKey(placeholder), u"6"_s);
        QCOMPARE(idOf(5), u"6"_s);
        QCOMPARE(row(5).value(u"completed"_s), QVariant(true)); // never flips back meanwhile
        const Outcome edited = await(edit);
        QVERIFY(edited.value);
        QCOMPARE(backend->server.requests("PATCH", u"/todos/6"_s).size(), 1);
        QCOMPARE(backend->count("PATCH"), 1);
        QCOMPARE(backend->server.requests("PATCH", u"/todos/6"_s).at(0).json().toObject(),
                 (QJsonObject {{u"completed"_s, true}}));
        QVERIFY(!row(5).isPending());
        QCOMPARE(backend->api.item(u"/todos"_s, 6).value(u"completed"_s), QJsonValue(true));

        // After the answer, a write naming the placeholder (a delegate that kept it) goes to
        // the server's id too.
        QVERIFY(await(controller->fetch(todos.update, {{u"id"_s, placeholder}},
                                        QJsonObject {{u"title"_s, u"renamed"_s}}))
                    .value);
        QCOMPARE(backend->server.requests("PUT", u"/todos/6"_s).size(), 1);
    }

    void aHeldDeleteHidesTheRowAtOnceAndIsSentWithTheServersId()
    {
        QFuture<QVariant> created;
        const QString placeholder = startWithPendingCreate(&created);
        QFuture<QVariant> removed = controller->fetch(todos.remove, {{u"id"_s, placeholder}});
        QCOMPARE(rows().size(), 5);
        backend->create(0, 6);
        QVERIFY(await(created).value);
        QCOMPARE(rows().size(), 5); // still hidden: the delete is on its way
        QVERIFY(await(removed).value);
        QCOMPARE(backend->server.requests("DELETE", u"/todos/6"_s).size(), 1);
        QCOMPARE(backend->count("DELETE"), 1);
        QCOMPARE(ids(rows()), (QList<int> {1, 2, 3, 4, 5}));
        QVERIFY(backend->api.item(u"/todos"_s, 6).isEmpty());
    }

    void aFailedCreateLeavesNoRowAndSendsNoneOfItsHeldWrites()
    {
        QFuture<QVariant> created;
        const QString placeholder = startWithPendingCreate(&created, u"doomed"_s);
        QFuture<QVariant> edit = rename(placeholder, u"edited"_s);
        QFuture<QVariant> removed = controller->fetch(todos.remove, {{u"id"_s, placeholder}});
        backend->answer(0, Testing::ServerResponse::json(QJsonObject {{u"error"_s, u"no"_s}}, 500));

        const Outcome failed = await(created);
        QVERIFY(failed.error);
        QCOMPARE(failed.error->status(), 500);
        QCOMPARE(ids(rows()), (QList<int> {1, 2, 3, 4, 5}));
        QVERIFY(!controller->getResponse(todos.getList, {}).pending);
        for (const QFuture<QVariant> &held : {edit, removed}) {
            const Outcome outcome = await(held);
            QVERIFY(outcome.error);
            QVERIFY2(outcome.error->message().contains(u"was not sent: the create of its row "
                                                       u"failed"_s),
                     qPrintable(outcome.error->message()));
        }
        QCOMPARE(backend->server.requestCount(), 2); // GET /todos and the POST, nothing else
        QCOMPARE(controller->confirmedKey(placeholder), QString());

        // Naming that placeholder later fails at once, unsent, saying why.
        const Outcome late = await(controller->fetch(todos.partialUpdate, {{u"id"_s, placeholder}},
                                                     QJsonObject {{u"title"_s, u"x"_s}}));
        QVERIFY(late.error);
        QCOMPARE(late.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(late.error->message().contains(u"whose create failed or was dropped; nothing "
                                                u"was sent"_s),
                 qPrintable(late.error->message()));
        QCOMPARE(backend->server.requestCount(), 2);
    }

    void aCreateAnsweredOutsideTheSchemaFailsWithTheSchemaErrorsPath_data()
    {
        QTest::addColumn<QJsonValue>("answer");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no id") << QJsonValue(QJsonObject {{u"title"_s, u"x"_s}})
                               << u"at \"id\": expected a non-empty primary key"_s;
        QTest::newRow("a placeholder as id")
            << QJsonValue(QJsonObject {{u"id"_s, u"\u0001new:1"_s}, {u"title"_s, u"x"_s}})
            << u"at \"id\": expected a primary key that does not start with U+0001 (reserved for "
               u"placeholder keys), found \"new:1\""_s;
        QTest::newRow("an array") << QJsonValue(QJsonArray {1})
                                  << u"at \"[0]\": expected an object"_s;
    }
    void aCreateAnsweredOutsideTheSchemaFailsWithTheSchemaErrorsPath()
    {
        QFETCH(QJsonValue, answer);
        QFETCH(QString, expected);
        QFuture<QVariant> created;
        QFuture<QVariant> edit = rename(startWithPendingCreate(&created), u"edited"_s);
        backend->answer(0, Testing::ServerResponse::json(answer, 201));
        const Outcome failed = await(created);
        QVERIFY(failed.error);
        QCOMPARE(failed.error->kind(), NetworkError::Kind::InvalidResponse);
        QVERIFY2(failed.error->message().contains(u"does not fit the endpoint's schema"_s)
                     && failed.error->message().contains(expected),
                 qPrintable(failed.error->message()));
        QCOMPARE(ids(rows()), (QList<int> {1, 2, 3, 4, 5})); // the placeholder row is gone
        QVERIFY(await(edit).error);
        QCOMPARE(backend->count("PATCH"), 0);
        // The store is not corrupted: lists and reads still work.
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ids(rows()), (QList<int> {1, 2, 3, 4, 5}));
    }

    void resetEntireStoreDropsThePlaceholderAndItsHeldWrites()
    {
        QFuture<QVariant> created;
        const QString placeholder = startWithPendingCreate(&created);
        QFuture<QVariant> edit = rename(placeholder, u"edited"_s);
        controller->resetEntireStore();
        QVERIFY(await(edit).canceled());
        QVERIFY(controller->getResponse(todos.getList, {}).data.isNull());
        QVERIFY(!controller->getResponse(todos.get, {{u"id"_s, placeholder}}).found);

        backend->create(0, 6); // the create's answer comes after the reset: dropped
        QVERIFY(await(created).canceled());
        QCOMPARE(controller->confirmedKey(placeholder), QString());
        QCOMPARE(backend->count("PATCH"), 0);
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QCOMPARE(ids(rows()), (QList<int> {1, 2, 3, 4, 5, 6}));
        QCOMPARE(backend->count("PATCH"), 0);
    }

    void aPlaceholderIsNeverFetched()
    {
        QFuture<QVariant> created;
        const QString placeholder = startWithPendingCreate(&created);
        const qsizetype before = backend->server.requestCount();

        // Answered from the store: the row as shown, no request.
        for (const QFuture<QVariant> &read :
             {controller->fetch(todos.get, {{u"id"_s, placeholder}}),
              controller->fetchIfStale(todos.get, {{u"id"_s, placeholder}})}) {
            const Outcome outcome = await(read);
            QVERIFY(outcome.value);
            QCOMPARE(outcome.value->value<Record>().value(u"title"_s), QVariant(u"new"_s));
        }
        const ResponseState state = controller->getResponse(todos.get, {{u"id"_s, placeholder}});
        QVERIFY(state.found);
        QVERIFY(state.pending);
        QCOMPARE(backend->server.requestCount(), before);

        // A placeholder key nobody made: an InvalidRequest error, nothing sent.
        const Outcome unknown
            = await(controller->fetch(todos.get, {{u"id"_s, placeholderKey(999)}}));
        QVERIFY(unknown.error);
        QCOMPARE(unknown.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(unknown.error->message().contains(u"placeholder key \"new:999\""_s),
                 qPrintable(unknown.error->message()));
        QCOMPARE(backend->server.requestCount(), before);

        backend->create(0, 6);
        QVERIFY(await(created).value);
        QVERIFY(!controller->getResponse(todos.get, {{u"id"_s, placeholder}}).found);
        QCOMPARE(backend->server.requestCount(), before);
    }

    void pendingIsTrueForOptimisticUpdatesAndDeletesUntilAnswered()
    {
        start(false);
        QFuture<QVariant> update = controller->fetch(todos.partialUpdate, {{u"id"_s, 2}},
                                                     QJsonObject {{u"title"_s, u"two!"_s}});
        QVERIFY(row(1).isPending());
        QVERIFY(!row(0).isPending());
        QVERIFY(controller->getResponse(todos.get, {{u"id"_s, 2}}).pending);
        QVERIFY(!controller->getResponse(todos.get, {{u"id"_s, 1}}).pending);
        QVERIFY(await(update).value);
        QVERIFY(!row(1).isPending());
        QVERIFY(!controller->getResponse(todos.get, {{u"id"_s, 2}}).pending);

        QFuture<QVariant> removed = controller->fetch(todos.remove, {{u"id"_s, 3}});
        const ResponseState hidden = controller->getResponse(todos.get, {{u"id"_s, 3}});
        QVERIFY(!hidden.found);
        QVERIFY(hidden.pending); // hidden by a delete the server has not confirmed
        QVERIFY(await(removed).value);
        QVERIFY(!controller->getResponse(todos.get, {{u"id"_s, 3}}).pending);
    }
};

QTEST_GUILESS_MAIN(tst_Placeholders)
#include "tst_placeholders.moc"
