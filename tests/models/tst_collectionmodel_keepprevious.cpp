// Kept data while params change (docs/networking.md): a CollectionModel
// re-targeted to a key with nothing stored keeps the rows it showed, with isPlaceholder() and
// isLoading() true, while the new key's read is under way (never while it is paused offline or
// waits to retry); the new rows then arrive as precise row signals,
// never a modelReset. What shows in each case; what happens while the placeholder shows is in
// tst_collectionmodel_placeholderevents.cpp.
#include "keptrowstest.h"

#include <DataClient/connectivity.h>

using namespace KeptRows;

class tst_CollectionModelKeepPrevious : public KeptRowsTest
{
    Q_OBJECT

private Q_SLOTS:
    void keepsTheRowsUntilTheNewKeyAnswers()
    {
        auto model = loadedList(user1);
        const QList<int> shown = rowIds(*model);
        QVERIFY(!model->isPlaceholder());
        holdAnswers(u"/todos"_s);
        QuerySignals spy(model.get());

        model->setParams(everyone); // user 1's todos and the others
        verifyPlaceholder(*model, shown);
        QCOMPARE(model->key(), u"GET %1/todos"_s.arg(backend->server.url()));
        QTRY_VERIFY(isHeld(QString()));
        QCOMPARE(backend->server.lastRequest().query.toString(), QString());
        verifyPlaceholder(*model, shown);
        QCOMPARE(spy.total(), 0); // no reset, no removal: the view keeps its rows
        QCOMPARE(spy.placeholder.size(), 1);

        answer(QString());
        QTRY_VERIFY(!model->isPlaceholder());
        QVERIFY(!model->isLoading());
        QCOMPARE(rowIds(*model), idsOf(0));
        QCOMPARE(spy.placeholder.size(), 2);
        // User 1's rows stay where they are (same entities: no dataChanged); the others are
        // inserted around them.
        QCOMPARE(spy.reset.size(), 0);
        QCOMPARE(spy.removed.size(), 0);
        QCOMPARE(spy.moved.size(), 0);
        QCOMPARE(spy.changed.size(), 0);
        int insertedRows = 0;
        for (const auto &signal : std::as_const(spy.inserted))
            insertedRows += signal.at(2).toInt() - signal.at(1).toInt() + 1;
        QCOMPARE(insertedRows, idsOf(0).size() - shown.size());
    }

    void otherEntitiesReplaceTheKeptRowsInOneStep()
    {
        auto model = loadedList(user1);
        const qsizetype before = model->rowCount();
        switchToUser2(*model);
        QuerySignals spy(model.get());

        answer(u"userId=2"_s);
        QTRY_VERIFY(!model->isPlaceholder());
        QCOMPARE(rowIds(*model), idsOf(2));
        // One removal and one insertion in the same update: the view never paints an empty list.
        QCOMPARE(spy.reset.size(), 0);
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.removed.at(0).at(1).toInt(), 0);
        QCOMPARE(spy.removed.at(0).at(2).toInt(), before - 1);
        QCOMPARE(spy.inserted.size(), 1);
        QCOMPARE(spy.inserted.at(0).at(2).toInt(), model->rowCount() - 1);
    }

    void keepPreviousOffShowsAnEmptyModelAtOnce()
    {
        auto model = loadedList(user1);
        QSignalSpy keepChanged(model.get(), &CollectionModel::keepPreviousChanged);
        QVERIFY(model->keepsPrevious()); // the default
        model->setKeepPrevious(false);
        QCOMPARE(keepChanged.size(), 1);
        holdAnswers(u"/todos"_s);
        QuerySignals spy(model.get());

        model->setParams(user2); // today's behaviour: a reset to nothing, status Loading
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(spy.reset.size(), 1);
        QCOMPARE(spy.placeholder.size(), 0);
        QTRY_VERIFY(isHeld(u"userId=2"_s));
        answer(u"userId=2"_s);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), idsOf(2));
    }

    void turningKeepPreviousOffEndsThePlaceholder()
    {
        auto model = loadedList(user1);
        switchToUser2(*model);
        QuerySignals spy(model.get());
        model->setKeepPrevious(false);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QVERIFY(model->isLoading());
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.reset.size(), 0);
    }

    void aStoredKeyShowsAtOnceWithoutPlaceholder()
    {
        auto model = loadedList(user1);
        auto other = loadedList(user2); // user 2's list is stored now
        QuerySignals spy(model.get());
        model->setParams(user2);
        QCOMPARE(rowIds(*model), idsOf(2));
        QCOMPARE(model->status(), CollectionModel::Ready);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(spy.placeholder.size(), 0);
        QCOMPARE(spy.reset.size(), 1); // as before kept data: another stored key is a reset
        QCOMPARE(listRequests(), 2);
    }

    void aFailureEndsThePlaceholderAndShowsTheError()
    {
        auto model = loadedList(user1);
        switchToUser2(*model);
        QuerySignals spy(model.get());

        answer(u"userId=2"_s,
               ServerResponse::json(QJsonObject {{u"message"_s, u"no such user"_s}}, 404));
        QTRY_COMPARE(model->status(), CollectionModel::Error);
        QVERIFY(!model->isPlaceholder());
        QVERIFY(!model->isLoading());
        QCOMPARE(model->networkError()->status(), 404);
        // The kept rows are not the failed key's: they go (as one removal, not a reset).
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->value(), QVariant());
        QCOMPARE(spy.reset.size(), 0);
        QCOMPARE(spy.removed.size(), 1);
    }

    void theFirstLoadIsEmptyAndLoading()
    {
        holdAnswers(u"/todos"_s);
        auto model = makeModel(todos.getList, user1);
        QTRY_VERIFY(isHeld(u"userId=1"_s));
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QVERIFY(model->isLoading());
        QVERIFY(!model->isPlaceholder());
        answer(u"userId=1"_s);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), idsOf(1));
        QVERIFY(!model->isPlaceholder());
    }

    void noPlaceholderWhereTheRowsCannotStay_data()
    {
        QTest::addColumn<bool>("otherController");
        QTest::newRow("another controller (another store)") << true;
        QTest::newRow("an endpoint whose rows have other roles") << false;
    }
    void noPlaceholderWhereTheRowsCannotStay()
    {
        QFETCH(bool, otherController);
        Controller other;
        QVERIFY(backend->api.mount(u"/tasks"_s, u"/todos"_s));
        const Resource tasks
            = createResource({.path = u"/tasks/:id"_s,
                              .schema = Schema::entity(
                                  EntitySchema(u"Task"_s).withDefaults({{u"title"_s, QString()}})),
                              .urlPrefix = backend->server.url(),
                              .searchParams = {u"userId"_s}});
        auto model = loadedList(user1);
        QuerySignals spy(model.get());
        if (otherController)
            model->setController(&other);
        else
            model->setEndpoint(tasks.getList);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
        QCOMPARE(spy.reset.size(), 1);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(rowIds(*model), idsOf(1));
    }

    // Offline the new key's read does not go out and may wait for ever: the previous key's rows
    // never stand in meanwhile. The model shows what is stored for the new key (nothing, paused;
    // or the stored list of a key loaded before); online again the read goes out and the rows
    // come.
    void aPausedReadShowsNoOtherKeysRows()
    {
        Connectivity connectivity;
        controller->setConnectivity(&connectivity);
        auto model = loadedList(user1);
        loadedList(user2); // stored, fresh
        connectivity.setOnline(false);
        QuerySignals spy(model.get());

        model->setParams(everyone);
        QVERIFY(model->isPaused());
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->value(), QVariant());
        QCOMPARE(model->status(), CollectionModel::Loading);
        QCOMPARE(spy.placeholder.size(), 0);

        model->setParams(user2); // stored: its own rows, not kept ones
        QCOMPARE(model->status(), CollectionModel::Ready);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(rowIds(*model), idsOf(2));

        model->setParams(everyone);
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(listRequests(), 2); // nothing was sent offline

        connectivity.setOnline(true);
        QTRY_COMPARE(rowIds(*model), idsOf(0));
        QVERIFY(!model->isPlaceholder());
        QVERIFY(!model->isPaused());
        QCOMPARE(spy.placeholder.size(), 0);
        controller->setConnectivity(nullptr);
    }

    // A read that failed and waits out its backoff is not under way either: the placeholder
    // ends, and the model says it is retrying with nothing to show.
    void aRetryingReadEndsThePlaceholder()
    {
        // The longest backoff of the jitter: the retry cannot go out (and the model stop saying
        // it is retrying) before the check below looks, however slow the build (asan).
        controller->setRandomSource([] { return 1.0; });
        auto model = loadedList(user1);
        switchToUser2(*model);
        answer(u"userId=2"_s, ServerResponse::json(QJsonObject {{u"message"_s, u"busy"_s}}, 503));
        QTRY_VERIFY(model->isRetrying());
        QVERIFY(!model->isPlaceholder());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->status(), CollectionModel::Loading);
    }

    // Rows that stand in for another key's are not this key's: not editable, disabled (views
    // grey them), and setData() sends nothing. The new key's own rows are editable again.
    void placeholderRowsAreDisabledAndNotEditable()
    {
        auto model = loadedList(user1);
        model->setColumns({u"title"_s});
        model->setEditable(todos, {u"title"_s});
        QVERIFY(model->flags(model->index(0)) & Qt::ItemIsEnabled);
        QVERIFY(model->flags(model->index(0)) & Qt::ItemIsEditable);
        switchToUser2(*model);
        for (int row = 0; row < model->rowCount(); ++row) {
            const Qt::ItemFlags flags = model->flags(model->index(row));
            QVERIFY(!(flags & Qt::ItemIsEnabled));
            QVERIFY(!(flags & Qt::ItemIsEditable));
        }
        QVERIFY(!model->setData(model->index(0), u"renamed"_s));

        answer(u"userId=2"_s);
        QTRY_VERIFY(!model->isPlaceholder());
        QCOMPARE(rowIds(*model), idsOf(2));
        QVERIFY(model->flags(model->index(0)) & Qt::ItemIsEnabled);
        QVERIFY(model->flags(model->index(0)) & Qt::ItemIsEditable);
        for (const RecordedRequest &request : backend->server.requests())
            QVERIFY2(request.method != "PATCH", request.rawTarget.constData());
        QCOMPARE(backend->api.item(u"/todos"_s, 1).value(u"title"_s).toString(),
                 seedTodos().at(0)[u"title"_s].toString());
    }

    void aSingleEntityKeepsItsValue()
    {
        auto model = makeModel(todos.get, {{u"id"_s, 1}});
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        holdAnswers(u"/todos/:id"_s);
        QSignalSpy valueChanged(model.get(), &CollectionModel::valueChanged);

        model->setParams({{u"id"_s, 2}});
        QVERIFY(model->isPlaceholder());
        QVERIFY(model->isLoading());
        QCOMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(model->value().toMap().value(u"id"_s).toInt(), 1);
        QCOMPARE(valueChanged.size(), 0);
        QTRY_COMPARE(held.pending.size(), 1);
        QCOMPARE(held.pending.at(0).request.path, u"/todos/2"_s);

        answer(QString());
        QTRY_VERIFY(!model->isPlaceholder());
        QCOMPARE(model->value().toMap().value(u"id"_s).toInt(), 2);
        QCOMPARE(valueChanged.size(), 1);
        QCOMPARE(model->rowCount(), 0); // one entity: no rows, as before
    }
};

QTEST_MAIN(tst_CollectionModelKeepPrevious)
#include "tst_collectionmodel_keepprevious.moc"
