// A user's Qt Test against the installed DataClient::Testing: a fixture answered without a
// socket, awaited, and an initial state.
#include <DataClient/DataClient.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/initialstate.h>
#include <DataClient/testing/mocknetwork.h>

#include <QtCore/QJsonObject>
#include <QTest>

using namespace DataClient;

class tst_App : public QObject
{
    Q_OBJECT

    const Resource todos
        = createResource({.path = QStringLiteral("/todos/:id"),
                          .schema = Schema::entity(EntitySchema(QStringLiteral("Todo"))),
                          .urlPrefix = QStringLiteral("http://api.test")});

private Q_SLOTS:
    void fetchesFromAFixture()
    {
        Testing::MockNetwork network({{.endpoint = todos.get,
                                       .params = {{QStringLiteral("id"), 1}},
                                       .response = QJsonObject {{QStringLiteral("id"), 1}}}});
        Controller controller(&network);
        const auto todo = Testing::await(controller.fetch(todos.get, {{QStringLiteral("id"), 1}}));
        QVERIFY(todo);
        QCOMPARE(todo->toMap().value(QStringLiteral("id")).toInt(), 1);
        QCOMPARE(network.requests().size(), 1);
    }

    void startsFromAnInitialState()
    {
        Testing::MockNetwork network;
        Controller controller(&network);
        QVERIFY(Testing::mockInitialState(&controller,
                                          {{.endpoint = todos.get,
                                            .params = {{QStringLiteral("id"), 2}},
                                            .response = QJsonObject {{QStringLiteral("id"), 2}}}}));
        QVERIFY(controller.getResponse(todos.get, {{QStringLiteral("id"), 2}}).found);
        QVERIFY(network.requests().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_App)
#include "tst_app.moc"
