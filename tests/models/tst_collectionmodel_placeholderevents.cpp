// What happens while a CollectionModel shows the previous key's rows as a placeholder: params
// change again, or back; the model is destroyed; the store is reset; an entity of a kept row
// changes or is deleted. The answers are held and sent one by one (keptrowstest.h).
#include "keptrowstest.h"

using namespace KeptRows;

class tst_CollectionModelPlaceholderEvents : public KeptRowsTest
{
    Q_OBJECT

private Q_SLOTS:
    void onlyTheLastKeyShows_data()
    {
        QTest::addColumn<bool>("middleAnswersFirst");
        QTest::newRow("B answers after C") << false;
        QTest::newRow("B answers before C") << true;
    }
    void onlyTheLastKeyShows()
    {
        QFETCH(bool, middleAnswersFirst);
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        switchToUser2(*model); // B
        QuerySignals spy(model.get());
        model->setParams(everyone); // C, before B answered
        QTRY_VERIFY(isHeld(QString()));
        verifyPlaceholder(*model, shown);

        if (middleAnswersFirst) {
            answer(u"userId=2"_s);
            QTRY_VERIFY(controller->getResponse(todos.getList, user2).found);
            verifyPlaceholder(*model, shown); // still A's rows: B is not what is asked for
        }
        QCOMPARE(spy.total(), 0);
        answer(QString());
        QTRY_VERIFY(!model->isPlaceholder());
        QCOMPARE(rowIds(*model), idsOf(0));
        QCOMPARE(spy.reset.size(), 0);

        if (!middleAnswersFirst) {
            spy.clear();
            answer(u"userId=2"_s); // B's late answer is stored, and not shown
            QTRY_VERIFY(controller->getResponse(todos.getList, user2).found);
            QCOMPARE(rowIds(*model), idsOf(0));
            QCOMPARE(spy.total(), 0);
            QCOMPARE(spy.placeholder.size(), 0);
        }
        QCOMPARE(listRequests(), 3);
    }

    void backToTheShownKeyShowsItAtOnce()
    {
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        switchToUser2(*model);
        QuerySignals spy(model.get());

        model->setParams(user1);
        QVERIFY(!model->isPlaceholder());
        QVERIFY(!model->isLoading());
        QCOMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), shown);
        QCOMPARE(spy.total(), 0); // the rows already were user 1's: not even a reset
        QCOMPARE(spy.placeholder.size(), 1);

        answer(u"userId=2"_s); // the abandoned key's late answer changes nothing shown
        QTRY_VERIFY(controller->getResponse(todos.getList, user2).found);
        QCOMPARE(rowIds(*model), shown);
        QCOMPARE(spy.total(), 0);
        QCOMPARE(listRequests(), 2);
    }

    // The model's read of the new key had no other caller: destroying the model aborts it (a
    // query that is gone sends and stores nothing more), and the late answer is dropped.
    void destroyedWhilePlaceholder()
    {
        auto model = loadedList(user1);
        switchToUser2(*model);
        model.reset();
        QTRY_VERIFY(!controller->getResponse(todos.getList, user2).loading);
        answer(u"userId=2"_s);
        QCOMPARE(listRequests(), 2);
        QVERIFY(!controller->getResponse(todos.getList, user2).found);
    }

    void resetEntireStoreEndsThePlaceholder()
    {
        // Forgetting everything (a logout) forgets the kept rows too: nothing of them may stay.
        auto model = loadedList(user1);
        switchToUser2(*model);
        QuerySignals spy(model.get());
        controller->resetEntireStore();
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.reset.size(), 0);
        QTRY_COMPARE(held.pending.size(), 2); // the canceled request's key is read again
        answer(u"userId=2"_s);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), idsOf(2));
    }

    void aKeptRowFollowsItsEntity()
    {
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        switchToUser2(*model);
        QuerySignals spy(model.get());

        // Another request renames the entity of row 1: the kept row is still that entity.
        auto renamed = controller->fetch(todos.partialUpdate, {{u"id"_s, shown.at(1)}},
                                         QJsonObject {{u"title"_s, u"renamed"_s}});
        QTRY_VERIFY(renamed.isFinished());
        QCOMPARE(model->get(1).toMap().value(u"title"_s).toString(), u"renamed"_s);
        QCOMPARE(spy.changed.size(), 2); // the optimistic rename, then `pending` ends
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), 1);
        QCOMPARE(spy.changed.at(1).at(0).toModelIndex().row(), 1);
        verifyPlaceholder(*model, shown);

        // A deleted one leaves the kept rows.
        auto removed = controller->fetch(todos.remove, {{u"id"_s, shown.at(0)}});
        QTRY_VERIFY(removed.isFinished());
        verifyPlaceholder(*model, shown.mid(1));
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.reset.size(), 0);
    }
};

QTEST_MAIN(tst_CollectionModelPlaceholderEvents)
#include "tst_collectionmodel_placeholderevents.moc"
