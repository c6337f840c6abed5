// Testing::mockInitialState: the store filled from fixtures so that a screen has its
// data at once, with no request; error fixtures fill the error state; bad fixtures (not fitting
// the schema, missing params, no endpoint) are refused with where and why, the store unchanged.
#include "failurerecorder.h"

#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/store.h>
#include <DataClient/testing/initialstate.h>
#include <DataClient/testing/mocknetwork.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_InitialState : public QObject
{
    Q_OBJECT

    const Schema user = Schema::entity(EntitySchema(u"User"_s));
    const Resource todos = createResource(
        {.path = u"/todos/:id"_s,
         .schema = Schema::entity(EntitySchema(u"Todo"_s).withNested(u"author"_s, user)),
         .urlPrefix = u"http://api.test"_s,
         .searchParams = {u"userId"_s}});

    static QJsonObject todo(int id, const QString &title)
    {
        return {{u"id"_s, id},
                {u"title"_s, title},
                {u"author"_s, QJsonObject {{u"id"_s, 7}, {u"name"_s, u"Ann"_s}}}};
    }

private Q_SLOTS:
    void fillsTheStoreWithoutARequest()
    {
        MockNetwork network; // no fixtures: any request would fail this test
        Controller controller(&network);
        QVERIFY(mockInitialState(
            &controller,
            {{.endpoint = todos.getList,
              .params = {{u"userId"_s, 7}},
              .response = QJsonArray {todo(1, u"one"_s), todo(2, u"two"_s)}},
             {.endpoint = todos.get, .params = {{u"id"_s, 3}}, .response = todo(3, u"three"_s)}}));
        // Synchronously there, fresh, and normalized (the author is one entity).
        const ResponseState list = controller.getResponse(todos.getList, {{u"userId"_s, 7}});
        QVERIFY(list.found);
        QCOMPARE(list.status, ExpiryStatus::Valid);
        QCOMPARE(list.data.toList().size(), 2);
        QCOMPARE(controller.get(user, {{u"id"_s, 7}}).data.toMap().value(u"name"_s),
                 QVariant(u"Ann"_s));
        QCOMPARE(controller.getResponse(todos.get, {{u"id"_s, 3}}).data.toMap().value(u"title"_s),
                 QVariant(u"three"_s));
        // A screen's fetchIfStale() resolves from the store: nothing is sent.
        QFuture<QVariant> shown = controller.fetchIfStale(todos.getList, {{u"userId"_s, 7}});
        QVERIFY(shown.isFinished());
        QCOMPARE(shown.result().toList().size(), 2);
        QVERIFY(network.requests().isEmpty());
    }

    void errorFixturesFillTheErrorState()
    {
        MockNetwork network;
        Controller controller(&network);
        QVERIFY(mockInitialState(&controller,
                                 {{.endpoint = todos.get,
                                   .params = {{u"id"_s, 1}},
                                   .response = QJsonObject {{u"message"_s, u"gone"_s}},
                                   .status = 404},
                                  {.endpoint = todos.get,
                                   .params = {{u"id"_s, 2}},
                                   .networkError = QNetworkReply::HostNotFoundError}}));
        const std::optional<NetworkError> gone = controller.getError(todos.get, {{u"id"_s, 1}});
        QVERIFY(gone);
        QCOMPARE(gone->status(), 404);
        QVERIFY2(gone->bodyText().contains(u"gone"_s), qPrintable(gone->bodyText()));
        QCOMPARE(gone->url(), QUrl(u"http://api.test/todos/1"_s));
        const ResponseState offline = controller.getResponse(todos.get, {{u"id"_s, 2}});
        QVERIFY(offline.error);
        QCOMPARE(offline.error->kind(), NetworkError::Kind::Network);
        QVERIFY(!offline.loading);
        QVERIFY(network.requests().isEmpty());
    }

    void aFixtureNotFittingTheSchemaNamesThePath()
    {
        Controller controller;
        QString error;
        // The first fixture is stored; the second has a todo whose author has no id.
        QJsonObject broken = todo(2, u"two"_s);
        broken[u"author"_s] = QJsonObject {{u"name"_s, u"nobody"_s}};
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"setResponse.*\\[1\\]\\.author\\.id"_s));
        QVERIFY(!mockInitialState(
            &controller,
            {{.endpoint = todos.get, .params = {{u"id"_s, 1}}, .response = todo(1, u"one"_s)},
             {.endpoint = todos.getList, .response = QJsonArray {todo(3, u"three"_s), broken}}},
            &error));
        QVERIFY2(error.startsWith(u"Testing::mockInitialState: fixture 1: http://api.test/todos: "
                                  u"the response does not fit the schema at '[1].author"_s),
                 qPrintable(error));
        // Nothing of the bad fixture was written (not even its good first todo).
        QVERIFY(!controller.getResponse(todos.getList).found);
        QVERIFY(!controller.get(todos.get->schema(), {{u"id"_s, 3}}).found);
        QVERIFY(controller.getResponse(todos.get, {{u"id"_s, 1}}).found);
    }

    void aFixtureWithMissingParamsNamesTheParam()
    {
        Controller controller;
        QString error;
        QVERIFY(!mockInitialState(&controller,
                                  {{.endpoint = todos.get, .response = todo(1, u"x"_s)}}, &error));
        QVERIFY2(error.contains(u"fixture 0"_s) && error.contains(u"'id'"_s), qPrintable(error));
        QVERIFY(!mockInitialState(&controller, {{.url = u"/todos/1"_s}}, &error));
        QVERIFY2(error.contains(u"/todos/1 has no endpoint"_s), qPrintable(error));
        QCOMPARE(controller.store().entityCount(), 0);
    }

    void withoutAnErrorStringTheTestFails()
    {
        Controller controller;
        FailureRecorder recorder;
        const int line = __LINE__ + 1;
        QVERIFY(!mockInitialState(&controller, {{.endpoint = todos.get}}));
        QCOMPARE(recorder.failures.size(), 1);
        QVERIFY(recorder.last().contains(u"'id'"_s));
        QCOMPARE(recorder.failures.first().line, line);
    }
};

QTEST_GUILESS_MAIN(tst_InitialState)
#include "tst_initialstate.moc"
