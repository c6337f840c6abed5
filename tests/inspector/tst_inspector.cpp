// The store inspector (docs/inspector.md) over the Widgets todo app and the demo's embedded
// server: nothing is registered or recorded before it attaches; every model passes
// QAbstractItemModelTester while the app loads, pages, edits (confirmed and refused), deletes,
// queues an edit offline and replays it, gets a 304 and retries; each action is checked against
// the store and the server's log; bad input (a Controller destroyed first, two inspectors, a
// record of 60k fields and an answer of 50 MB) is shown without a crash or a stall.
#include "controllerfixture.h"
#include "inspectorapp.h"

#include "docimages.h"

#include <DataClient/inspectordock.h>
#include <DataClient/manager.h>
#include <DataClient/store.h>

#include <QtGui/QAction>
#include <QtCore/QDateTime>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeView>
#include <QSignalSpy>
#include <QTest>

using ControllerFixture::await;

class tst_Inspector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nothingIsRecordedBeforeAttaching()
    {
        TodoWidgetsApp app;
        QVERIFY(app.started);
        StoreInspector inspector; // made, never attached
        QTRY_VERIFY(app.window->isDataShown());
        QVERIFY(app.window->controller()->managers().isEmpty());
        QCOMPARE(inspector.requests()->rowCount(), 0);
        QCOMPARE(inspector.entities()->rowCount(), 0);
        QCOMPARE(inspector.results()->rowCount(), 0);
        QCOMPARE(inspector.timeline()->rowCount(), 0);
        // Every column has its header (the Bytes column had none: its header read past the names).
        QCOMPARE(inspector.results()->headerData(InspectorResultsModel::Bytes, Qt::Horizontal),
                 QVariant(u"Bytes"_s));
        QCOMPARE(inspector.results()->headerData(InspectorResultsModel::Preview, Qt::Horizontal),
                 QVariant(u"Answer"_s));
        QCOMPARE(inspector.statusText(), u"no controller"_s);
        QVERIFY(!app.window->controller()
                     ->set(Schema::entity(EntitySchema(u"Todo"_s)),
                           QJsonObject {{u"id"_s, 991}, {u"title"_s, u"before"_s}})
                     .error);
        QCOMPARE(inspector.timeline()->rowCount(), 0);

        inspector.setController(app.window->controller());
        QCOMPARE(app.window->controller()->managers().size(), 1);
        QVERIFY(inspector.entities()->rowCount() >= 2); // Todo, User: what is stored already
        app.window->todos()->refetch();
        QTRY_COMPARE(inspector.requests()->rowCount(), 1);

        QVERIFY(!app.window->controller()
                     ->set(Schema::entity(EntitySchema(u"Todo"_s)),
                           QJsonObject {{u"id"_s, 991}, {u"title"_s, u"while open"_s}})
                     .error);
        QCOMPARE(inspector.timeline()->rowCount(), 1);

        inspector.setController(nullptr);
        QVERIFY(app.window->controller()->managers().isEmpty());
        QCOMPARE(inspector.requests()->rowCount(), 0);
        QCOMPARE(inspector.timeline()->rowCount(), 0);
        app.window->todos()->refetch();
        QTRY_VERIFY(!app.window->todos()->isLoading());
        QVERIFY(!app.window->controller()
                     ->set(Schema::entity(EntitySchema(u"Todo"_s)),
                           QJsonObject {{u"id"_s, 991}, {u"title"_s, u"after"_s}})
                     .error);
        QCOMPARE(inspector.requests()->rowCount(), 0);
        QCOMPARE(inspector.timeline()->rowCount(), 0);
    }

    // The timeline: each change with what made it. A confirmed edit shows its guess and its
    // answer, a refused one its guess and its rollback, each under its PATCH and with the row it
    // changed; a set() has no request; the history is bounded.
    void theTimelineSaysWhichRequestChangedWhichRows()
    {
        InspectorApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        CollectionModel *todos = app.window->todos();
        const auto *timeline = app.inspector.timeline();

        // The load: an answer of the GET of the todos, 20 todos and their authors (names cut).
        const auto loadRow = [timeline] {
            for (int row = 0; row < timeline->rowCount(); ++row) {
                if (timeline->index(row, 0)
                        .data(InspectorTimelineModel::UrlRole)
                        .toString()
                        .contains(u"/todos"_s))
                    return row;
            }
            return -1;
        };
        QTRY_VERIFY(loadRow() >= 0);
        const QModelIndex load = timeline->index(loadRow(), 0);
        QCOMPARE(load.data(InspectorTimelineModel::OriginRole).toString(), u"answer"_s);
        QCOMPARE(load.data(InspectorTimelineModel::MethodRole).toString(), u"GET"_s);
        QVERIFY(load.data(InspectorTimelineModel::EntityCountRole).toInt() >= 20);
        const QStringList loaded = load.data(InspectorTimelineModel::EntitiesRole).toStringList();
        QVERIFY(loaded.size() <= InspectorTimelineModel::MaxNames + 1);
        QVERIFY2(loaded.first().startsWith(u"Todo:"_s), qPrintable(loaded.join(u',')));
        QVERIFY(
            load.data(InspectorTimelineModel::ResultsRole).toStringList().contains(app.todosKey()));

        // Confirmed: its guess, then its answer, both the PATCH's, both changing the todo.
        QVERIFY(todos->setData(todos->index(1, 0), u"edited"_s));
        const QString edited = u"Todo:"_s + todos->get(1).toMap().value(u"id"_s).toString();
        QTRY_COMPARE(app.timelineRows(u"answer"_s, edited, u"PATCH"_s).size(), 1);
        QCOMPARE(app.timelineRows(u"optimistic guess"_s, edited, u"PATCH"_s).size(), 1);
        const int guess = app.timelineRows(u"optimistic guess"_s, edited, u"PATCH"_s).first();
        const int answer = app.timelineRows(u"answer"_s, edited, u"PATCH"_s).first();
        QVERIFY(guess < answer);
        for (const int row : {guess, answer}) {
            QCOMPARE(app.change(row, InspectorTimelineModel::MethodRole).toString(), u"PATCH"_s);
            QVERIFY(app.change(row, InspectorTimelineModel::UrlRole)
                        .toString()
                        .endsWith(u"/todos/"_s + edited.mid(5)));
        }
        QVERIFY(app.change(guess, InspectorTimelineModel::RequestIdRole).toULongLong() != 0);
        QCOMPARE(app.change(answer, InspectorTimelineModel::RequestIdRole),
                 app.change(guess, InspectorTimelineModel::RequestIdRole));

        // Refused (422): its guess, then its rollback, the same request.
        app.server.setRefuseRate(1);
        QVERIFY(todos->setData(todos->index(2, 0), u"refused"_s));
        const QString refused = u"Todo:"_s + todos->get(2).toMap().value(u"id"_s).toString();
        QTRY_COMPARE(app.timelineRows(u"rollback"_s, refused, u"PATCH"_s).size(), 1);
        app.server.setRefuseRate(0);
        const int refusedGuess
            = app.timelineRows(u"optimistic guess"_s, refused, u"PATCH"_s).first();
        const int rollback = app.timelineRows(u"rollback"_s, refused, u"PATCH"_s).first();
        QVERIFY(refusedGuess < rollback);
        QCOMPARE(app.change(rollback, InspectorTimelineModel::MethodRole).toString(), u"PATCH"_s);
        QCOMPARE(app.change(rollback, InspectorTimelineModel::RequestIdRole),
                 app.change(refusedGuess, InspectorTimelineModel::RequestIdRole));
        QVERIFY(app.change(rollback, InspectorTimelineModel::RequestIdRole)
                != app.change(guess, InspectorTimelineModel::RequestIdRole));
        QVERIFY(app.timelineRows(u"answer"_s, refused, u"PATCH"_s).isEmpty());
        QVERIFY(app.change(rollback, InspectorTimelineModel::SummaryRole)
                    .toString()
                    .contains(u"rollback PATCH "_s));

        // set(): a write with no request.
        QVERIFY(!app.controller()
                     ->set(Schema::entity(EntitySchema(u"Todo"_s)),
                           QJsonObject {{u"id"_s, 992}, {u"title"_s, u"set"_s}})
                     .error);
        QTRY_COMPARE(app.timelineRows(u"write"_s, u"Todo:992"_s).size(), 1);
        const int write = app.timelineRows(u"write"_s, u"Todo:992"_s).first();
        QCOMPARE(app.change(write, InspectorTimelineModel::RequestIdRole).toULongLong(), 0u);
        QVERIFY(app.change(write, InspectorTimelineModel::MethodRole).toString().isEmpty());

        // Bounded: the oldest go first.
        const int count = timeline->rowCount();
        QVERIFY(count >= 6);
        app.inspector.setHistoryLimit(2);
        QCOMPARE(timeline->rowCount(), 2);
        QCOMPARE(app.change(1, InspectorTimelineModel::EntitiesRole).toStringList(),
                 QStringList {u"Todo:992"_s});
    }

    // Garbage collection in the status: the last pass, and what it dropped (named, cut).
    void theStatusSaysWhatTheLastCollectionDropped()
    {
        Controller controller;
        qint64 now = QDateTime::currentMSecsSinceEpoch();
        controller.setClock([&now] { return now; });
        StoreInspector inspector;
        inspector.setController(&controller);
        QAbstractItemModelTester tester(inspector.status(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const InspectorStatusModel *status = inspector.statusModel();
        QCOMPARE(status->value(InspectorStatusModel::GcLastPassRow), u"none yet"_s);
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                               .urlPrefix = u"http://127.0.0.1:9"_s});
        QJsonArray list;
        for (int id = 1; id <= 30; ++id)
            list.append(QJsonObject {{u"id"_s, id}, {u"title"_s, u"t%1"_s.arg(id)}});
        QVERIFY(!controller.setResponse(todos.getList, {}, list).error);
        controller.setGcGracePeriodMs(0);
        QTRY_COMPARE(status->value(InspectorStatusModel::GcRow), u"on, grace 0 s"_s);
        QSignalSpy changed(status, &QAbstractItemModel::dataChanged);
        now += 1000;
        const int collected = controller.collectGarbage();
        QVERIFY2(collected >= 31, qPrintable(QString::number(collected)));
        QTRY_VERIFY2(status->value(InspectorStatusModel::GcLastPassRow)
                         .contains(u": 1 results, 30 entities, "_s),
                     qPrintable(status->value(InspectorStatusModel::GcLastPassRow)));
        const QString dropped = status->value(InspectorStatusModel::GcDroppedRow);
        QVERIFY2(dropped.startsWith(todos.getList->key({}) + u", Todo:"_s), qPrintable(dropped));
        QVERIFY2(dropped.endsWith(u", and 10 more entities"_s), qPrintable(dropped));
        QCOMPARE(dropped.count(u"Todo:"_s), 20);
        // Only the rows that changed were said changed (the memory row aside, read lazily).
        for (const QList<QVariant> &signal : std::as_const(changed)) {
            const int row = signal.at(0).value<QModelIndex>().row();
            QVERIFY2(row != InspectorStatusModel::GcRow && row != InspectorStatusModel::OnlineRow,
                     qPrintable(QString::number(row)));
        }
        // The timeline says what made it.
        const QAbstractItemModel *timeline = inspector.timeline();
        QCOMPARE(timeline->index(timeline->rowCount() - 1, 0)
                     .data(InspectorTimelineModel::OriginRole)
                     .toString(),
                 u"garbage collection"_s);
    }

    void modelsFollowLoadPageEditsAndDelete()
    {
        InspectorApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        CollectionModel *todos = app.window->todos();
        auto *entities = app.inspector.entitiesModel();
        const Store &store = app.controller()->store();

        // Load: the types, their entities, the keys, the requests.
        QTRY_VERIFY(entities->typeRow(u"Todo"_s) >= 0);
        QVERIFY(entities->typeRow(u"User"_s) >= 0);
        const QModelIndex todoType = entities->index(entities->typeRow(u"Todo"_s), 0);
        QTRY_COMPARE(entities->rowCount(todoType), int(store.entityPks(u"Todo"_s).size()));
        QCOMPARE(entities->rowCount(todoType), 20);
        const QString firstPk = todos->get(0).toMap().value(u"id"_s).toString();
        const QModelIndex first = entities->entityIndex(u"Todo"_s, firstPk);
        QVERIFY(first.isValid());
        QVERIFY(first.siblingAtColumn(InspectorEntitiesModel::Fields)
                    .data()
                    .toString()
                    .contains(u"\"title\""_s));
        // References both ways: a todo refers to its author; the author is referred to by it.
        const QStringList refs = first.data(InspectorEntitiesModel::ReferencesRole).toStringList();
        QVERIFY2(refs.size() == 1 && refs.first().startsWith(u"User:"_s),
                 qPrintable(refs.join(u',')));
        const QString author = refs.first().mid(5);
        QVERIFY(entities->referencedBy(u"User"_s, author).contains(u"Todo:"_s + firstPk));
        QVERIFY(entities->shownIn(u"Todo"_s, firstPk).contains(app.todosKey()));
        QCOMPARE(app.resultStatus(app.todosKey()), u"valid"_s);
        const int todosRow = app.inspector.resultsModel()->rowOf(app.todosKey());
        QTRY_VERIFY(app.inspector.results()
                        ->index(todosRow, 0)
                        .data(InspectorResultsModel::BytesRole)
                        .toLongLong()
                    > 0);
        QCOMPARE(app.inspector.results()
                     ->index(todosRow, 0)
                     .data(InspectorResultsModel::EntitiesRole)
                     .toInt(),
                 20);
        QTRY_VERIFY(!app.requestRows(InspectorRequestsModel::StateRole, u"done"_s).isEmpty());
        const int load = app.requestRows(InspectorRequestsModel::KeyRole, app.todosKey()).first();
        QCOMPARE(app.request(load, InspectorRequestsModel::HttpStatusRole).toInt(), 200);
        QVERIFY(app.request(load, InspectorRequestsModel::BytesRole).toLongLong() > 0);
        QVERIFY(app.request(load, InspectorRequestsModel::KeysWrittenRole)
                    .toStringList()
                    .contains(app.todosKey()));

        // Page: 20 more todos, inserted under Todo in one signal (the smallest: no reset, no
        // removal).
        QSignalSpy inserted(entities, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(entities, &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(entities, &QAbstractItemModel::modelReset);
        todos->fetchMore({});
        QTRY_COMPARE(entities->rowCount(todoType), 40);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted.at(0).at(0).value<QModelIndex>(), todoType);
        QCOMPARE(inserted.at(0).at(1).toInt(), 20);
        QCOMPARE(inserted.at(0).at(2).toInt(), 39);
        QCOMPARE(removed.size(), 0);
        QCOMPARE(reset.size(), 0);

        // Optimistic edit, confirmed: the row is optimistic, then not, and the PATCH is done;
        // the only entity row said changed is the edited one.
        QSignalSpy changed(entities, &QAbstractItemModel::dataChanged);
        QVERIFY(todos->setData(todos->index(1, 0), u"edited"_s));
        const QString editedPk = todos->get(1).toMap().value(u"id"_s).toString();
        const int editedRow = entities->entityIndex(u"Todo"_s, editedPk).row();
        QTRY_VERIFY(entities->entityIndex(u"Todo"_s, editedPk)
                        .data(InspectorEntitiesModel::OptimisticRole)
                        .toBool());
        QTRY_COMPARE(app.requestRows(InspectorRequestsModel::MethodRole, u"PATCH"_s).size(), 1);
        const int patch = app.requestRows(InspectorRequestsModel::MethodRole, u"PATCH"_s).first();
        QTRY_COMPARE(app.request(patch, InspectorRequestsModel::StateRole).toString(), u"done"_s);
        QTRY_VERIFY(!entities->entityIndex(u"Todo"_s, editedPk)
                         .data(InspectorEntitiesModel::OptimisticRole)
                         .toBool());
        QVERIFY(!changed.isEmpty());
        for (const QList<QVariant> &signal : std::as_const(changed)) {
            const QModelIndex first = signal.at(0).value<QModelIndex>();
            const QModelIndex last = signal.at(1).value<QModelIndex>();
            if (first.parent() == todoType) {
                QCOMPARE(first.row(), editedRow);
                QCOMPARE(last.row(), editedRow);
            }
        }
        QCOMPARE(removed.size(), 0);
        QCOMPARE(reset.size(), 0);
        QVERIFY(entities->entityIndex(u"Todo"_s, editedPk)
                    .siblingAtColumn(InspectorEntitiesModel::Fields)
                    .data()
                    .toString()
                    .contains(u"\"edited\""_s));

        // Refused: the second PATCH fails with 422, the row shows the old title again.
        app.server.setRefuseRate(1);
        QVERIFY(todos->setData(todos->index(2, 0), u"refused"_s));
        QTRY_COMPARE(app.requestRows(InspectorRequestsModel::StateRole, u"failed"_s).size(), 1);
        const int refused = app.requestRows(InspectorRequestsModel::StateRole, u"failed"_s).first();
        QCOMPARE(app.request(refused, InspectorRequestsModel::HttpStatusRole).toInt(), 422);
        QVERIFY(!app.request(refused, InspectorRequestsModel::ErrorRole).toString().isEmpty());
        app.server.setRefuseRate(0);

        // Delete: the row goes from the entities.
        const QString deletedPk = todos->get(3).toMap().value(u"id"_s).toString();
        app.window->todoTable()->setCurrentIndex(
            app.window->todoTable()->model()->index(3, TodoWindow::Title));
        const QString shownTitle = app.window->todoTable()->currentIndex().data().toString();
        QCOMPARE(shownTitle, todos->index(3, 0).data().toString());
        app.window->deleteSelectedTodo();
        QTRY_VERIFY(!entities->entityIndex(u"Todo"_s, deletedPk).isValid());
        QTRY_COMPARE(app.serverRequests("DELETE", u"/todos/"_s + deletedPk), 1);
        QTRY_COMPARE(entities->rowCount(todoType), int(store.entityPks(u"Todo"_s).size()));
    }

    void modelsFollowTheOutboxA304AndARetry()
    {
        InspectorApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        Controller *controller = app.controller();
        const QString pk = app.window->todos()->get(0).toMap().value(u"id"_s).toString();

        // Offline: the edit waits in the outbox (its model is the inspector's outbox tab).
        app.window->onlineAction()->trigger();
        QVERIFY(!controller->isOnline());
        controller->fetch(app.queued.partialUpdate, {{u"id"_s, pk}},
                          QJsonObject {{u"title"_s, u"made offline"_s}});
        QTRY_COMPARE(app.inspector.outbox()->rowCount(), 1);
        QVERIFY(app.inspector.outbox()->index(0, 0).data().toString().startsWith(u"PATCH"_s));
        QTRY_COMPARE(app.inspector.statusModel()->value(InspectorStatusModel::OutboxRow), u"1"_s);
        QVERIFY(app.inspector.statusModel()
                    ->value(InspectorStatusModel::OnlineRow)
                    .startsWith(u"offline"_s));
        QCOMPARE(app.serverRequests("PATCH", u"/todos/"_s + pk), 0);
        const InspectorStatusModel *status = app.inspector.statusModel();
        QVERIFY(status->value(InspectorStatusModel::OnlineRow).contains(u"manual switch"_s));
        const QString memory = status->value(InspectorStatusModel::MemoryRow);
        QVERIFY2(memory.front().isDigit() && memory.endsWith(u"B"_s) && memory != u"0 bytes"_s,
                 qPrintable(memory));
        QVERIFY(status->value(InspectorStatusModel::GcRow).startsWith(u"on"_s));
        QCOMPARE(status->value(InspectorStatusModel::OptimisticLayersRow), u"1"_s);
        // Online: replayed, the outbox empties, the server has it.
        app.window->onlineAction()->trigger();
        QTRY_COMPARE(app.inspector.outbox()->rowCount(), 0);
        QTRY_COMPARE(app.serverRequests("PATCH", u"/todos/"_s + pk), 1);
        QTRY_COMPARE(app.inspector.statusModel()->value(InspectorStatusModel::OutboxRow), u"0"_s);

        // A 304: the second read of /versioned sends the ETag and is answered "not modified".
        QVERIFY(await(controller->fetch(app.versioned.getList, {})).value);
        QVERIFY(await(controller->fetch(app.versioned.getList, {})).value);
        QTRY_COMPARE(app.requestRows(InspectorRequestsModel::NotModifiedRole, true).size(), 1);
        const int notModified
            = app.requestRows(InspectorRequestsModel::NotModifiedRole, true).first();
        QCOMPARE(app.request(notModified, InspectorRequestsModel::HttpStatusRole).toInt(), 304);
        QCOMPARE(app.request(notModified, InspectorRequestsModel::StateRole).toString(),
                 u"not modified"_s);

        // A retry: the first attempt of a refetch fails (500), a later one is answered.
        app.server.setFailureRate(1);
        const int before = app.inspector.requests()->rowCount();
        app.window->todos()->refetch();
        QTRY_COMPARE(app.inspector.requests()->rowCount(), before + 1);
        QTRY_VERIFY(!app.request(before, InspectorRequestsModel::ErrorRole).toString().isEmpty());
        QCOMPARE(app.request(before, InspectorRequestsModel::StateRole).toString(), u"in flight"_s);
        app.server.setFailureRate(0);
        QTRY_COMPARE_WITH_TIMEOUT(app.request(before, InspectorRequestsModel::StateRole).toString(),
                                  u"done"_s, 10000);
        QVERIFY(app.request(before, InspectorRequestsModel::AttemptsRole).toInt() >= 2);
        QCOMPARE(app.request(before, InspectorRequestsModel::HttpStatusRole).toInt(), 200);
    }

    void actionsActOnTheStoreAndTheServer()
    {
        InspectorApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        Controller *controller = app.controller();
        StoreInspector &inspector = app.inspector;
        const QString key = app.todosKey();
        const QString pk = app.window->todos()->get(0).toMap().value(u"id"_s).toString();
        const QString path = u"/todos"_s;
        const qsizetype gets = app.serverRequests("GET", path);

        // Copy as JSON: the entity and the answer (denormalized: the author is nested).
        QVERIFY(inspector.entityJson(u"Todo"_s, pk).contains(u"\"id\""_s));
        QVERIFY(inspector.answerJson(key).contains(u"\"author\": {"_s));
        QVERIFY(inspector.entityJson(u"Todo"_s, u"no such pk"_s).isEmpty());

        // Expire: stale, the data stays (the view refetches it: one more GET).
        QVERIFY(inspector.expire(key));
        QVERIFY(controller->store().hasResult(key));
        QTRY_VERIFY(app.serverRequests("GET", path) > gets);
        QTRY_COMPARE(app.resultStatus(key), u"valid"_s);
        QTRY_COMPARE(inspector.requestsModel()->inFlight(), 0);

        // Refetch: one more GET of the same URL.
        const qsizetype afterExpire = app.serverRequests("GET", path);
        QVERIFY(inspector.refetch(key));
        QTRY_VERIFY(app.serverRequests("GET", path) > afterExpire);
        QTRY_COMPARE(inspector.requestsModel()->inFlight(), 0);
        const qsizetype afterRefetch = app.serverRequests("GET", path);

        // Invalidate: the result is forgotten (the view shows it loading and fetches again).
        QVERIFY(inspector.invalidate(key));
        QVERIFY(
            !controller->store().hasResult(key)
            || controller->getResponse(app.window->todos()->endpoint(), {{u"userId"_s, 1}}).status
                != ExpiryStatus::Valid);
        QTRY_VERIFY(app.serverRequests("GET", path) > afterRefetch);
        QTRY_COMPARE(app.resultStatus(key), u"valid"_s);

        // Drop one entity: gone from the store and the model; the server was not told.
        QVERIFY(inspector.dropEntity(u"Todo"_s, pk));
        QVERIFY(!controller->store().shownEntity({u"Todo"_s, pk}));
        QTRY_VERIFY(!inspector.entitiesModel()->entityIndex(u"Todo"_s, pk).isValid());
        QCOMPARE(app.serverRequests("DELETE", u"/todos/"_s + pk), 0);
        QVERIFY(!inspector.dropEntity(u"Todo"_s, pk)); // twice: nothing more (a warning)

        // Offline switch: nothing is sent while off (once what the drop made views fetch is in).
        QTRY_COMPARE(inspector.requestsModel()->inFlight(), 0);
        const qsizetype sent = app.server.server()->requestCount();
        inspector.setOnline(false);
        QVERIFY(!controller->isOnline());
        QVERIFY(!inspector.isOnline());
        QVERIFY(inspector.refetch(key));
        QTest::qWait(100); // (nothing to await: nothing may happen)
        QCOMPARE(app.server.server()->requestCount(), sent);
        inspector.setOnline(true);
        QVERIFY(controller->isOnline());
        QTRY_VERIFY(app.server.server()->requestCount() > sent);

        // Reset: everything goes; the models empty, the views fetch again.
        QVERIFY(inspector.resetStore());
        QTRY_VERIFY(controller->store().entityCount() == 0
                    || app.serverRequests("GET", path) > afterRefetch + 1);
        QTRY_COMPARE(inspector.entitiesModel()->rowCount(inspector.entities()->index(
                         inspector.entitiesModel()->typeRow(u"Todo"_s), 0)),
                     int(controller->store().entityPks(u"Todo"_s).size()));

        // Unknown targets are refused, not guessed.
        QVERIFY(!inspector.invalidate(u"GET http://nowhere/"_s));
        QVERIFY(!inspector.refetch(u"GET http://nowhere/"_s));
    }

    void aControllerDestroyedFirstShowsNoController()
    {
        StoreInspector inspector;
        QSignalSpy changed(&inspector, &StoreInspector::controllerChanged);
        {
            InspectorApp app; // its own inspector too
            QVERIFY(app.started);
            inspector.setController(app.controller());
            QTRY_VERIFY(app.window->isDataShown());
            QTRY_VERIFY(inspector.entities()->rowCount() > 0);
            QCOMPARE(app.controller()->managers().size(), 2); // two inspectors, two recorders
            QTRY_VERIFY(inspector.requests()->rowCount() >= 2);
            QCOMPARE(inspector.requests()->rowCount(), app.inspector.requests()->rowCount());
            QTRY_VERIFY(inspector.timeline()->rowCount() >= 2);
            inspector.setHistoryLimit(1);
            QCOMPARE(inspector.requests()->rowCount(), 1);
            QCOMPARE(inspector.timeline()->rowCount(), 1);
            QVERIFY(app.inspector.requests()->rowCount() >= 2); // the other keeps its own
            QVERIFY(app.inspector.timeline()->rowCount() >= 2);
        }
        QVERIFY(!inspector.controller());
        QCOMPARE(changed.size(), 2);
        QCOMPARE(inspector.statusText(), u"no controller"_s);
        QCOMPARE(inspector.statusModel()->value(InspectorStatusModel::ControllerRow),
                 u"no controller"_s);
        QCOMPARE(inspector.entities()->rowCount(), 0);
        QCOMPARE(inspector.results()->rowCount(), 0);
        QCOMPARE(inspector.timeline()->rowCount(), 0);
        QCOMPARE(inspector.statusModel()->value(InspectorStatusModel::MemoryRow), QString());
        QCOMPARE(inspector.statusModel()->value(InspectorStatusModel::GcLastPassRow), QString());
        QVERIFY(!inspector.outbox());
        QVERIFY(!inspector.resetStore());
        QVERIFY(!inspector.refetch(u"x"_s));
        inspector.setOnline(false); // warns, does nothing
        QVERIFY(!inspector.isOnline());
    }

    void aHugeRecordAndAHugeAnswerShowCut()
    {
        Controller controller;
        StoreInspector inspector;
        inspector.setController(&controller);
        QAbstractItemModelTester tester(inspector.entities(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const EntitySchema wide(u"Wide"_s);
        // 100k fields: the store holds at most 65536 in one object (docs/schemas.md, "Limits"),
        // so two nested objects of 50k.
        QJsonObject half;
        for (int field = 0; field < 50000; ++field)
            half.insert(u"f%1"_s.arg(field, 5, 10, QChar(u'0')), field); // in key order: appended
        const QJsonObject record {{u"id"_s, 1}, {u"a"_s, half}, {u"b"_s, half}};
        QVERIFY(!controller.set(Schema::entity(wide), record).error);
        // An answer of 50 MB: one string field.
        const Resource big = createResource({.path = u"/big/:id"_s,
                                             .schema = Schema::entity(EntitySchema(u"Big"_s)),
                                             .urlPrefix = u"http://127.0.0.1:9"_s});
        const QString blob(50 * 1024 * 1024, u'x');
        QVERIFY(!controller
                     .setResponse(big.get, {{u"id"_s, 7}},
                                  QJsonObject {{u"id"_s, 7}, {u"blob"_s, blob}})
                     .error);
        QTRY_COMPARE(inspector.entities()->rowCount(), 2);

        auto *entities = inspector.entitiesModel();
        for (const QString &type : {u"Wide"_s, u"Big"_s}) {
            const QModelIndex typeIndex = entities->index(entities->typeRow(type), 0);
            QCOMPARE(entities->rowCount(typeIndex), 1);
            const QModelIndex fields
                = entities->index(0, InspectorEntitiesModel::Fields, typeIndex);
            // Cut: its start only (the time it takes is the bench's i.preview.huge).
            const QString shown = fields.data().toString();
            QVERIFY(shown.size() <= InspectorEntitiesModel::PreviewChars + 64);
            QVERIFY(shown.endsWith(QChar(0x2026)));
        }
        // The timeline names the rows these writes changed, and nothing of their content.
        const QAbstractItemModel *timeline = inspector.timeline();
        QCOMPARE(timeline->rowCount(), 2);
        QCOMPARE(timeline->index(0, InspectorTimelineModel::Entities).data().toString(),
                 u"Wide:1"_s);
        QVERIFY(timeline->index(1, 0).data(InspectorTimelineModel::SummaryRole).toString().size()
                < 200);
        QTRY_VERIFY(inspector.resultsModel()->rowOf(big.get->key({{u"id"_s, 7}})) >= 0);
        const QString preview
            = inspector.results()
                  ->index(inspector.resultsModel()->rowOf(big.get->key({{u"id"_s, 7}})),
                          InspectorResultsModel::Preview)
                  .data()
                  .toString();
        QVERIFY(preview.size() <= InspectorResultsModel::PreviewChars + 64);
        QVERIFY(preview.endsWith(QChar(0x2026)) || preview.size() < 64); // a pk, or cut
    }

    // The Widgets example's Debug > Store inspector: the dock in the QMainWindow, a row in every
    // tab, the search filtering, an action from its buttons; closed, it is detached.
    void theDockShowsEveryModelInTheMainWindow()
    {
        TodoWidgetsApp app;
        QVERIFY(app.started);
        app.window->resize(1100, 800);
        QTRY_VERIFY(app.window->isDataShown());
        Controller *controller = app.window->controller();
        QVERIFY(!app.window->inspectorDock());
        QVERIFY(controller->managers().isEmpty());

        app.window->inspectorAction()->trigger();
        InspectorDock *dock = app.window->inspectorDock();
        QVERIFY(dock);
        QTRY_VERIFY(dock->isVisible());
        QCOMPARE(dock->inspector()->controller(), controller);
        QCOMPARE(controller->managers().size(), 1);
        // Something in every tab: a request made while it is open, a change waiting offline.
        app.window->todos()->refetch();
        app.window->onlineAction()->trigger();
        QVERIFY(app.window->todos()->setData(app.window->todos()->index(0, 0), u"offline"_s));
        Resource queued = InspectorApp::queuedResource(app.server.url());
        controller->fetch(queued.partialUpdate,
                          {{u"id"_s, app.window->todos()->get(1).toMap().value(u"id"_s)}},
                          QJsonObject {{u"title"_s, u"waits"_s}});
        for (auto tab :
             {InspectorDock::EntitiesTab, InspectorDock::ResultsTab, InspectorDock::RequestsTab,
              InspectorDock::OutboxTab, InspectorDock::StatusTab, InspectorDock::TimelineTab}) {
            dock->tabs()->setCurrentIndex(tab);
            QTRY_VERIFY2(dock->view(tab)->model()->rowCount() > 0,
                         qPrintable(dock->tabs()->tabText(tab)));
        }
        // The search filters by key, pk or URL (an entity type stays while one of its rows does).
        dock->tabs()->setCurrentIndex(InspectorDock::ResultsTab);
        dock->searchField()->setText(u"users"_s);
        QTRY_COMPARE(dock->view(InspectorDock::ResultsTab)->model()->rowCount(), 1);
        dock->searchField()->clear();

        // Copy JSON of the selected entity.
        dock->tabs()->setCurrentIndex(InspectorDock::EntitiesTab);
        QTreeView *tree = dock->view(InspectorDock::EntitiesTab);
        const QModelIndex type = tree->model()->index(0, 0);
        QTRY_VERIFY(tree->model()->rowCount(type) > 0);
        tree->setCurrentIndex(tree->model()->index(0, 0, type));
        dock->copySelection();
        QVERIFY2(dock->lastCopied().contains(u"\"id\""_s), qPrintable(dock->lastCopied()));
        app.window->onlineAction()->trigger();

        const QImage image = app.window->grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY(DocImages::publish(image, u"inspector-widgets.png"_s));

        app.window->inspectorAction()->trigger(); // closed: detached
        QTRY_VERIFY(!dock->isVisible());
        QVERIFY(!dock->inspector()->controller());
        // (The window's undo recorder is a manager too while its edit above is in flight.)
        QTRY_VERIFY(controller->managers().isEmpty());
    }
};

QTEST_MAIN(tst_Inspector)
#include "tst_inspector.moc"
