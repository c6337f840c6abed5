// The race rule: an answer to a request that started earlier never
// overwrites what an answer to a later request wrote; it only fills missing fields. Replies are
// ordered deterministically with deferred routes.
#include "controllerfixture.h"

#include <DataClient/restendpoint.h>

#include <QTest>

#include <memory>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ControllerRace : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> server;
    std::unique_ptr<Controller> controller;
    DeferredReplies replies;

    EndpointPtr endpoint(const QString &path, const Schema &schema) const
    {
        return RestEndpoint::create(
            {.name = path, .path = path, .urlPrefix = server->url(), .schema = schema});
    }

private Q_SLOTS:
    void init()
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        replies = {};
        controller = std::make_unique<Controller>();
    }
    void cleanup()
    {
        controller.reset();
        server.reset();
    }

    void olderAnswerArrivingLastDoesNotOverwriteNewerFields()
    {
        replies.install(*server, "GET", u"/race/:id"_s);
        const EndpointPtr get = endpoint(u"/race/:id"_s, todoSchema());
        // Two different requests (different URLs) for the same entity.
        QFuture<QVariant> older = controller->fetch(get, {{u"id"_s, 1}, {u"v"_s, u"old"_s}});
        QVERIFY(replies.waitFor(1));
        QFuture<QVariant> newer = controller->fetch(get, {{u"id"_s, 1}, {u"v"_s, u"new"_s}});
        QVERIFY(replies.waitFor(2));
        const auto index = [&](const QString &version) {
            for (qsizetype i = 0; i < replies.pending.size(); ++i) {
                if (replies.pending.at(i).request.query.queryItemValue(u"v"_s) == version)
                    return i;
            }
            return qsizetype(-1);
        };

        replies.pending.at(index(u"new"_s))
            .responder.send(ServerResponse::json(
                QJsonObject {{u"id"_s, 1}, {u"title"_s, u"newer"_s}, {u"completed"_s, true}}));
        QVERIFY(await(newer).value);
        ChangeRecorder changes(controller.get());
        replies.pending.at(index(u"old"_s))
            .responder.send(ServerResponse::json(QJsonObject {{u"id"_s, 1},
                                                              {u"title"_s, u"older"_s},
                                                              {u"completed"_s, false},
                                                              {u"note"_s, u"only old"_s}}));
        QVERIFY(await(older).value);

        const QVariantMap stored = controller->get(todoSchema(), {{u"id"_s, 1}}).data.toMap();
        QCOMPARE(stored.value(u"title"_s).toString(), u"newer"_s);
        QCOMPARE(stored.value(u"completed"_s).toBool(), true);
        QCOMPARE(stored.value(u"note"_s).toString(), u"only old"_s); // missing fields are filled
        // The older answer changed the entity only by the filled field.
        QVERIFY(changes.all().entities.contains(todoRef(1)));
    }

    void olderListAnswerDoesNotReplaceANewerList()
    {
        replies.install(*server, "GET", u"/lists"_s);
        const Schema list = Schema::collection(Schema::array(todoSchema()));
        const EndpointPtr getList = endpoint(u"/lists"_s, list);
        QFuture<QVariant> older = controller->fetch(getList, {});
        QVERIFY(replies.waitFor(1));
        // Something newer is stored for the same key meanwhile (setResponse = an answer now).
        QVERIFY(controller->setResponse(getList, {}, QJsonArray {todo(2, 1, u"two"_s)}).ok());

        replies.pending.at(0).responder.send(
            ServerResponse::json(QJsonArray {todo(1, 1, u"one"_s), todo(2, 1, u"two (old)"_s)}));
        const Outcome outcome = await(older);
        QVERIFY(outcome.value);
        // The caller gets what is stored: the newer list.
        QCOMPARE(ids(*outcome.value), (QList<int> {2}));
        const ResponseState state = controller->getResponse(getList, {});
        QCOMPARE(ids(state.data), (QList<int> {2}));
        QCOMPARE(state.data.toList().at(0).toMap().value(u"title"_s).toString(), u"two"_s);
    }

    void answersInRequestOrderSimplyApply()
    {
        // The control case: when the newer request answers last, it wins.
        replies.install(*server, "GET", u"/race/:id"_s);
        const EndpointPtr get = endpoint(u"/race/:id"_s, todoSchema());
        QFuture<QVariant> first = controller->fetch(get, {{u"id"_s, 1}, {u"v"_s, u"1"_s}});
        QVERIFY(replies.waitFor(1));
        QFuture<QVariant> second = controller->fetch(get, {{u"id"_s, 1}, {u"v"_s, u"2"_s}});
        QVERIFY(replies.waitFor(2));
        for (const auto &pending : std::as_const(replies.pending)) {
            if (pending.request.query.queryItemValue(u"v"_s) == u"1"_s)
                pending.responder.send(
                    ServerResponse::json(QJsonObject {{u"id"_s, 1}, {u"title"_s, u"first"_s}}));
        }
        QVERIFY(await(first).value);
        for (const auto &pending : std::as_const(replies.pending)) {
            if (pending.request.query.queryItemValue(u"v"_s) == u"2"_s)
                pending.responder.send(
                    ServerResponse::json(QJsonObject {{u"id"_s, 1}, {u"title"_s, u"second"_s}}));
        }
        QVERIFY(await(second).value);
        QCOMPARE(controller->get(todoSchema(), {{u"id"_s, 1}}).data.toMap().value(u"title"_s),
                 QVariant(u"second"_s));
    }
};

QTEST_GUILESS_MAIN(tst_ControllerRace)
#include "tst_controller_race.moc"
