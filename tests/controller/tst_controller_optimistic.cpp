// Optimistic updates (docs/optimistic-updates.md): a layer over the committed store, shown at
// once; replaced by the server's data on success, removed alone on failure; overlapping
// mutations resolve in request order whatever order their answers arrive in.
#include "controllerfixture.h"

#include <DataClient/placeholderkey.h>

#include <QTest>

#include <algorithm>
#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ControllerOptimistic : public BackendTest
{
    Q_OBJECT

public:
    tst_ControllerOptimistic() : BackendTest(/*optimistic*/ true) { }

private:
    QVariantMap entity(int id) const
    {
        return controller->get(todoSchema(), {{u"id"_s, id}}).data.toMap();
    }
    QList<int> list(const Params &args = {}) const
    {
        return ids(controller->getResponse(todos.getList, args).data);
    }

protected:
    void setUp() override
    {
        QVERIFY(await(controller->fetch(todos.getList, {})).value);
        QVERIFY(await(controller->fetch(todos.getList, {{u"userId"_s, 2}})).value);
    }

private Q_SLOTS:
    void partialUpdateShowsAtOnceThenTheServerValues()
    {
        ChangeRecorder changes(controller.get());
        QFuture<QVariant> update = controller->fetch(todos.partialUpdate, {{u"id"_s, 4}},
                                                     QJsonObject {{u"title"_s, u"changed"_s}});
        // Visible before any answer, in every view.
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.at(0).entities.contains(todoRef(4)));
        QCOMPARE(entity(4).value(u"title"_s).toString(), u"changed"_s);
        QCOMPARE(controller->getResponse(todos.getList, {{u"userId"_s, 2}})
                     .data.toList()
                     .at(0)
                     .toMap()
                     .value(u"title"_s)
                     .toString(),
                 u"changed"_s);
        QCOMPARE(controller->getResponse(todos.get, {{u"id"_s, 4}}).data.toMap().value(u"title"_s),
                 QVariant(u"changed"_s));

        // The server adds its own field: the confirmation shows the server's record, and the
        // layer's removal plus the commit are one change set.
        backend->api.setItem(u"/todos"_s, [] {
            QJsonObject server = todo(4, 2, u"four"_s);
            server.insert(u"revision"_s, 2);
            return server;
        }());
        const Outcome outcome = await(update);
        QVERIFY(outcome.value);
        QCOMPARE(changes.sets.size(), 2);
        QVERIFY(changes.sets.at(1).entities.contains(todoRef(4)));
        QCOMPARE(entity(4).value(u"title"_s).toString(), u"changed"_s);
        QCOMPARE(entity(4).value(u"revision"_s).toInt(), 2);
        QVERIFY(controller->store().optimisticLayers().isEmpty());
    }

    void failureRollsBackExactlyAndKeepsOtherConfirmedChanges()
    {
        // The state before it, plus what was confirmed meanwhile.
        DeferredReplies replies;
        replies.install(backend->server, "PATCH", u"/todos/1"_s);
        const QVariantMap before = entity(1);
        const QList<int> listBefore = list();

        QFuture<QVariant> doomed
            = controller->fetch(todos.partialUpdate, {{u"id"_s, 1}},
                                QJsonObject {{u"title"_s, u"doomed"_s}, {u"completed"_s, true}});
        QCOMPARE(entity(1).value(u"title"_s).toString(), u"doomed"_s);
        QVERIFY(replies.waitFor(1));

        // Meanwhile another change is confirmed (by the FakeRestApi), on another entity.
        const Resource plain = backend->resource(false);
        QVERIFY(await(controller->fetch(plain.partialUpdate, {{u"id"_s, 2}},
                                        QJsonObject {{u"title"_s, u"confirmed"_s}}))
                    .value);

        ChangeRecorder changes(controller.get());
        replies.pending.at(0).responder.send(
            ServerResponse::json(QJsonObject {{u"error"_s, u"no"_s}, {u"status"_s, 500}}, 500));
        const Outcome outcome = await(doomed);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->status(), 500);
        QCOMPARE(controller->getError(todos.partialUpdate, {{u"id"_s, 1}})->status(), 500);

        QCOMPARE(entity(1), before);
        QCOMPARE(entity(2).value(u"title"_s).toString(), u"confirmed"_s);
        QCOMPARE(list(), listBefore);
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.at(0).entities.contains(todoRef(1)));
        QVERIFY(!changes.sets.at(0).entities.contains(todoRef(2)));
        QVERIFY(controller->store().optimisticLayers().isEmpty());
    }

    void threeRapidTogglesEndOnTheLastValue_data()
    {
        QTest::addColumn<QList<int>>("answerOrder");
        QList<int> order {1, 2, 3};
        do {
            QTest::addRow("answers %d,%d,%d", order[0], order[1], order[2]) << order;
        } while (std::next_permutation(order.begin(), order.end()));
    }
    void threeRapidTogglesEndOnTheLastValue()
    {
        // true -> false -> true; late answers never flip a newer value back.
        QFETCH(QList<int>, answerOrder);
        DeferredReplies replies;
        replies.install(backend->server, "PATCH", u"/todos/2"_s);
        const bool values[] = {true, false, true};
        QList<QFuture<QVariant>> toggles;
        for (int seq = 1; seq <= 3; ++seq) {
            toggles.append(controller->fetch(
                todos.partialUpdate, {{u"id"_s, 2}},
                QJsonObject {{u"completed"_s, values[seq - 1]}, {u"seq"_s, seq}}));
            QCOMPARE(entity(2).value(u"completed"_s).toBool(), values[seq - 1]);
        }
        QVERIFY(replies.waitFor(3));

        for (const int seq : answerOrder) {
            const qsizetype index = replies.indexOf(u"seq"_s, seq);
            QVERIFY(index >= 0);
            QJsonObject answer = todo(2, 1, u"two"_s, values[seq - 1]);
            answer.insert(u"seq"_s, seq);
            replies.pending.at(index).responder.send(ServerResponse::json(answer));
            QVERIFY(await(toggles.at(seq - 1)).value);
            // At every step every view shows the last toggle.
            QCOMPARE(entity(2).value(u"completed"_s).toBool(), true);
            QCOMPARE(entity(2).value(u"seq"_s).toInt(), 3);
        }
        QVERIFY(controller->store().optimisticLayers().isEmpty());
        const QVariantList all = controller->getResponse(todos.getList, {}).data.toList();
        QCOMPARE(all.at(1).toMap().value(u"completed"_s).toBool(), true);
    }

    void partialUpdateOfAnEntityNotInTheStoreChangesNothingAtOnce()
    {
        controller->resetEntireStore();
        ChangeRecorder changes(controller.get());
        QFuture<QVariant> update = controller->fetch(todos.partialUpdate, {{u"id"_s, 3}},
                                                     QJsonObject {{u"title"_s, u"later"_s}});
        QVERIFY(changes.sets.isEmpty());
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 3}}).found);
        QVERIFY(await(update).value);
        QCOMPARE(changes.sets.size(), 1);
        QCOMPARE(entity(3).value(u"title"_s).toString(), u"later"_s);
        QCOMPARE(entity(3).value(u"completed"_s).toBool(), true); // the server's full record
    }

    void deleteHidesTheEntityFromEveryListAtOnce()
    {
        // Both stored lists hold 5.
        QCOMPARE(list(), (QList<int> {1, 2, 3, 4, 5}));
        QCOMPARE(list({{u"userId"_s, 2}}), (QList<int> {4, 5}));
        ChangeRecorder changes(controller.get());
        QFuture<QVariant> removal = controller->fetch(todos.remove, {{u"id"_s, 5}});
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.at(0).entities.contains(todoRef(5)));
        QCOMPARE(list(), (QList<int> {1, 2, 3, 4}));
        QCOMPARE(list({{u"userId"_s, 2}}), (QList<int> {4}));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 5}}).found);

        QVERIFY(await(removal).value);
        QCOMPARE(list(), (QList<int> {1, 2, 3, 4}));
        QCOMPARE(list({{u"userId"_s, 2}}), (QList<int> {4}));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 5}}).found);
        QVERIFY(controller->store().optimisticLayers().isEmpty());
    }

    void failedDeleteRemovesNothing()
    {
        backend->api.failNext(1, 500);
        QFuture<QVariant> removal = controller->fetch(todos.remove, {{u"id"_s, 4}});
        QCOMPARE(list({{u"userId"_s, 2}}), (QList<int> {5}));
        ChangeRecorder changes(controller.get());
        QVERIFY(await(removal).error);
        QCOMPARE(list(), (QList<int> {1, 2, 3, 4, 5}));
        QCOMPARE(list({{u"userId"_s, 2}}), (QList<int> {4, 5}));
        QVERIFY(controller->get(todoSchema(), {{u"id"_s, 4}}).found);
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(changes.sets.at(0).entities.contains(todoRef(4)));
    }

    void optimisticPushShowsAtOnceAndIsReplacedByTheCreatedEntity()
    {
        // The body carries a temporary id; the server assigns the real one (6).
        const Params user2 {{u"userId"_s, 2}};
        QFuture<QVariant> push = controller->fetch(
            todos.getList.push, user2,
            QJsonObject {{u"id"_s, 900}, {u"userId"_s, 2}, {u"title"_s, u"new"_s}});
        QCOMPARE(list(user2), (QList<int> {4, 5, 900}));
        const Outcome outcome = await(push);
        QVERIFY(outcome.value);
        QCOMPARE(field(*outcome.value).value(u"id"_s).toInt(), 6);
        QCOMPARE(list(user2), (QList<int> {4, 5, 6}));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 900}}).found);
    }

    void aPushWithoutAnIdShowsAPlaceholderRowAtOnce()
    {
        // The server assigns ids: the row shows at once under a placeholder key (no warning),
        // and its answer replaces it (tst_placeholders has the details).
        QTest::failOnWarning(QRegularExpression(u"optimistic"_s));
        ChangeRecorder changes(controller.get());
        QFuture<QVariant> push = controller->fetch(todos.getList.push, {{u"userId"_s, 1}},
                                                   QJsonObject {{u"title"_s, u"no id"_s}});
        const auto lastId = [this] {
            const QVariantList rows = controller->getResponse(todos.getList, {}).data.toList();
            return rows.size() == 6 ? rows.last().toMap().value(u"id"_s).toString() : QString();
        };
        QCOMPARE(changes.sets.size(), 1);
        QVERIFY(isPlaceholderKey(lastId()));
        QVERIFY(await(push).value);
        QCOMPARE(lastId(), u"6"_s);
    }

    void aCustomGuessThatDoesNotFitTheSchemaIsSkippedWithAWarning()
    {
        // A getOptimisticResponse of the application's that answers something the schema cannot
        // take is a bug of that function: it is said, and the store is left alone.
        const EndpointPtr guessing = todos.getList.push->extend(
            {.getOptimisticResponse
             = [](const Params &, const QJsonValue &, const Store *) -> std::optional<QJsonValue> {
                return QJsonValue(u"not a todo"_s);
            }});
        QTest::ignoreMessage(
            QtWarningMsg,
            QRegularExpression(u"optimistic response of getList.push does not fit its schema"_s));
        ChangeRecorder changes(controller.get());
        QFuture<QVariant> push
            = controller->fetch(guessing, {{u"userId"_s, 1}}, QJsonObject {{u"title"_s, u"new"_s}});
        QVERIFY(changes.sets.isEmpty());
        QCOMPARE(list({}).size(), 5);
        QVERIFY(await(push).value);
        QCOMPARE(list({}).size(), 6);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerOptimistic)
#include "tst_controller_optimistic.moc"
