// Lists that follow their data: a committed change (an answer, an optimistic guess, set()) that
// changes a field a stored list filters on moves the entity out of the lists it no longer fits
// and into those it now fits, as one rowsRemoved and one rowsInserted (one rowsMoved within an
// ordered list), never a reset, and without asking the server for any list again.
#include "../support/modelsignals.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/placeholderkey.h>
#include <DataClient/store.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtTest/QAbstractItemModelTester>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

QJsonObject todo(int id, int userId, bool completed, const QString &title = {})
{
    return {{u"id"_s, id},
            {u"userId"_s, userId},
            {u"title"_s, title.isEmpty() ? u"todo %1"_s.arg(id) : title},
            {u"completed"_s, completed}};
}

// Ordered by title: a row whose title changes moves to its place.
class ByTitle : public Collection
{
public:
    bool isOrdered(const Params &) const override { return true; }
    bool lessThan(const Params &, const QJsonObject &a, const QJsonObject &b) const override
    {
        return a.value(u"title"_s).toString() < b.value(u"title"_s).toString();
    }
    QStringList filterFields(const Params &args) const override
    {
        return Collection::filterFields(args) << u"title"_s;
    }
};

} // namespace

class tst_CollectionModelRefilter : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> server;
    std::unique_ptr<FakeRestApi> api;
    std::unique_ptr<Controller> controller;
    Resource todos;

    //! A server with todos 1..6 (user 1: 1, 2, 3; user 2: 4, 5, 6; 3 and 6 completed), after
    //! \a routes (which win over the fake API's).
    void start(const std::function<void(TestServer &)> &routes = {}, bool optimistic = false,
               std::shared_ptr<const Collection> collection = {})
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        api = std::make_unique<FakeRestApi>(server.get());
        QJsonArray seed;
        for (int id = 1; id <= 6; ++id)
            seed.append(todo(id, id <= 3 ? 1 : 2, id % 3 == 0));
        QVERIFY(api->addCollection(u"/todos"_s, seed));
        if (routes)
            routes(*server); // the last route added wins
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                .urlPrefix = server->baseUrl().toString(),
                                .searchParams = {u"userId"_s, u"completed"_s},
                                .optimistic = optimistic,
                                .collection = std::move(collection)});
        QVERIFY2(todos.isValid(), qPrintable(todos.errorString()));
        controller = std::make_unique<Controller>();
    }
    std::unique_ptr<CollectionModel> model(const Params &params)
    {
        auto model = std::make_unique<CollectionModel>(controller.get(), todos.getList, params);
        new QAbstractItemModelTester(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, model.get());
        [&] { QTRY_COMPARE(model->status(), CollectionModel::Ready); }();
        return model;
    }
    static QList<int> ids(const CollectionModel &model)
    {
        QList<int> result;
        for (int row = 0; row < model.rowCount(); ++row)
            result.append(model.get(row).toMap().value(u"id"_s).toInt());
        return result;
    }
    qsizetype listReads() const { return server->requests("GET", u"/todos"_s).size(); }
    static void verifyRemoved(const ModelSignals &s, int row)
    {
        QCOMPARE(s.removed.size(), 1);
        QCOMPARE(s.removed.at(0).at(1).toInt(), row);
        QCOMPARE(s.removed.at(0).at(2).toInt(), row);
        QCOMPARE(s.inserted.size() + s.moved.size() + s.reset.size() + s.layout.size(), 0);
    }
    static void verifyInserted(const ModelSignals &s, int row)
    {
        QCOMPARE(s.inserted.size(), 1);
        QCOMPARE(s.inserted.at(0).at(1).toInt(), row);
        QCOMPARE(s.inserted.at(0).at(2).toInt(), row);
        QCOMPARE(s.removed.size() + s.moved.size() + s.reset.size() + s.layout.size(), 0);
    }

private Q_SLOTS:
    void cleanup()
    {
        controller.reset();
        api.reset();
        server.reset();
    }

    void anAnswerMovesTheEntityBetweenFilteredLists()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6}));
        const qsizetype reads = listReads();
        ModelSignals openSignals(open.get()), doneSignals(done.get());

        QVERIFY(
            controller
                ->fetch(todos.partialUpdate, {{u"id"_s, 2}}, QJsonObject {{u"completed"_s, true}})
                .isValid());
        QTRY_COMPARE(ids(*done), QList<int>({3, 6, 2}));
        QCOMPARE(ids(*open), QList<int>({1, 4, 5}));
        verifyRemoved(openSignals, 1);
        verifyInserted(doneSignals, 2);
        // What the server received: the one PATCH, and no list read again.
        const QList<RecordedRequest> patches = server->requests("PATCH", u"/todos/2"_s);
        QCOMPARE(patches.size(), 1);
        QCOMPARE(patches.at(0).json().toObject(), QJsonObject({{u"completed"_s, true}}));
        QCOMPARE(listReads(), reads);
    }

    void setMovesTheEntityWithoutARequest()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        const qsizetype requests = server->requestCount();
        ModelSignals openSignals(open.get()), doneSignals(done.get());

        const StoreWrite write
            = controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                              QJsonObject {{u"id"_s, 6}, {u"completed"_s, false}});
        QVERIFY(!write.error);
        QCOMPARE(ids(*done), QList<int>({3}));
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5, 6}));
        verifyRemoved(doneSignals, 1);
        verifyInserted(openSignals, 4);
        QCOMPARE(server->requestCount(), requests);
    }

    void aChangeOfAnotherFieldMovesNothing()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        ModelSignals signalsOfOpen(open.get());
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 2}, {u"title"_s, u"renamed"_s}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(signalsOfOpen.changed.size(), 1);
        QCOMPARE(signalsOfOpen.total(), 1);
    }

    void aRecordWithoutTheFilterFieldStays()
    {
        // The server answers the PATCH without the field the list filters on: the stored record
        // keeps its value (a shallow merge), and the row stays where it is.
        start([](TestServer &s) {
            s.route("PATCH", u"/todos/:id"_s, [](const RecordedRequest &) {
                return ServerResponse::json(QJsonObject {{u"id"_s, 2}, {u"title"_s, u"t"_s}});
            });
        });
        auto user1 = model({{u"userId"_s, 1}});
        ModelSignals s(user1.get());
        QVERIFY(controller
                    ->fetch(todos.partialUpdate, {{u"id"_s, 2}}, QJsonObject {{u"title"_s, u"t"_s}})
                    .isValid());
        QTRY_COMPARE(user1->get(1).toMap().value(u"title"_s).toString(), u"t"_s);
        QCOMPARE(ids(*user1), QList<int>({1, 2, 3}));
        QCOMPARE(s.removed.size() + s.inserted.size() + s.reset.size(), 0);
    }

    void aValueNoListHasLeavesAndJoinsNone()
    {
        start();
        auto user1 = model({{u"userId"_s, 1}});
        auto user2 = model({{u"userId"_s, 2}});
        ModelSignals one(user1.get()), two(user2.get());
        QVERIFY(
            controller->fetch(todos.partialUpdate, {{u"id"_s, 1}}, QJsonObject {{u"userId"_s, 9}})
                .isValid());
        QTRY_COMPARE(ids(*user1), QList<int>({2, 3}));
        verifyRemoved(one, 0);
        QCOMPARE(ids(*user2), QList<int>({4, 5, 6}));
        QCOMPARE(two.total(), 0);
    }

    void overlappingListsKeepTheRowInBothWhileItFitsBoth()
    {
        start();
        auto open = model({{u"completed"_s, false}});
        auto user1 = model({{u"userId"_s, 1}});
        auto openOfUser1 = model({{u"userId"_s, 1}, {u"completed"_s, false}});
        ModelSignals a(open.get()), b(user1.get()), c(openOfUser1.get());
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 1}, {u"completed"_s, true}});
        verifyRemoved(a, 0);
        verifyRemoved(c, 0);
        QCOMPARE(ids(*user1), QList<int>({1, 2, 3})); // still fits: stays, its data changed
        QCOMPARE(b.changed.size(), 1);
        QCOMPARE(b.total(), 1);

        a.clear();
        c.clear();
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 1}, {u"completed"_s, false}});
        verifyInserted(a, 3);
        verifyInserted(c, 1); // appended: the list holds no order
        QCOMPARE(ids(*openOfUser1), QList<int>({2, 1}));
    }

    void anOrderedListMovesTheRowToItsPlace()
    {
        start({}, false, std::make_shared<ByTitle>());
        auto user1 = model({{u"userId"_s, 1}});
        QCOMPARE(ids(*user1), QList<int>({1, 2, 3})); // "todo 1" < "todo 2" < "todo 3"
        auto user2 = model({{u"userId"_s, 2}});
        ModelSignals s(user1.get()), other(user2.get());
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 1}, {u"title"_s, u"todo 9"_s}});
        QCOMPARE(ids(*user1), QList<int>({2, 3, 1}));
        QCOMPARE(s.moved.size(), 1);
        QCOMPARE(s.removed.size() + s.inserted.size() + s.reset.size() + s.layout.size(), 0);

        // Joining an ordered list: where the order says.
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 4}, {u"userId"_s, 1}, {u"title"_s, u"todo 2b"_s}});
        QCOMPARE(ids(*user1), QList<int>({2, 4, 3, 1}));
        QCOMPARE(s.inserted.size(), 1);
        QCOMPARE(s.inserted.at(0).at(1).toInt(), 1);
        QCOMPARE(ids(*user2), QList<int>({5, 6}));
        QCOMPARE(other.removed.size(), 1);
        QCOMPARE(other.reset.size(), 0);
    }

    void aCollectionThatKeepsAnswersDoesNotFollow()
    {
        start({}, false, std::make_shared<Collection>(Collection::KeepsAnswers));
        auto open = model({{u"completed"_s, false}});
        auto done = model({{u"completed"_s, true}});
        controller->set(Schema::entity(EntitySchema(u"Todo"_s)),
                        QJsonObject {{u"id"_s, 2}, {u"completed"_s, true}});
        QCOMPARE(ids(*open), QList<int>({1, 2, 4, 5}));
        QCOMPARE(ids(*done), QList<int>({3, 6}));
    }

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

QTEST_MAIN(tst_CollectionModelRefilter)
#include "tst_collectionmodel_refilter.moc"
