// CollectionModel::setLive() (the C++ side of QML's `Live`): a live model subscribes its key to
// polling while it is active, shows what the server changed meanwhile, and gives the
// subscription back when it stops being live, is re-targeted, disabled or destroyed.
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtTest/QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {
constexpr int pollMs = 40;
}

class tst_CollectionModelLive : public QObject
{
    Q_OBJECT

private:
    TestServer server;
    std::unique_ptr<FakeRestApi> api;
    std::unique_ptr<Controller> controller;
    Resource todos; // polls every pollMs
    Resource once; // no pollFrequency (at /once)

    Resource makeResource(const QString &path, int pollFrequency) const
    {
        const EntitySchema todo = EntitySchema(u"Todo"_s).withDefaults(
            {{u"userId"_s, 0}, {u"title"_s, QString()}, {u"completed"_s, false}});
        return createResource({.path = path,
                               .schema = Schema::entity(todo),
                               .urlPrefix = server.baseUrl().toString(),
                               .searchParams = {u"userId"_s},
                               .pollFrequency = pollFrequency});
    }
    std::unique_ptr<CollectionModel> makeModel(const Params &params, Controller *owner = nullptr)
    {
        auto model = std::make_unique<CollectionModel>(owner ? owner : controller.get(),
                                                       todos.getList, params);
        new QAbstractItemModelTester(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, model.get());
        return model;
    }
    qsizetype listRequests() const { return server.requests("GET", u"/todos"_s).size(); }
    qsizetype requestsWithQuery(const QString &query) const
    {
        qsizetype count = 0;
        for (const RecordedRequest &request : server.requests("GET", u"/todos"_s))
            count += request.query.toString() == query;
        return count;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        todos = makeResource(u"/todos/:id"_s, pollMs);
        // its own path: a poll of /todos still in flight when a test ends cannot be counted
        once = makeResource(u"/once/:id"_s, 0);
        QVERIFY2(todos.isValid(), qPrintable(todos.errorString()));
        QVERIFY(once.isValid());
    }
    void init()
    {
        server.clearRoutes();
        server.clearRequests();
        api = std::make_unique<FakeRestApi>(&server);
        QVERIFY(api->addCollection(u"/todos"_s, SampleData::todos(12, 3)));
        QVERIFY(api->mount(u"/once"_s, u"/todos"_s));
        controller = std::make_unique<Controller>();
    }
    void cleanup()
    {
        controller.reset();
        api.reset();
    }

    void liveModelShowsWhatTheServerChanged()
    {
        const Params user1 {{u"userId"_s, 1}};
        auto model = makeModel(user1);
        QTRY_COMPARE(model->status(), CollectionModel::Ready);
        QCOMPARE(controller->pollInterval(todos.getList, user1), 0); // not live: no polling
        QSignalSpy liveChanged(model.get(), &CollectionModel::liveChanged);

        model->setLive(true);
        QVERIFY(model->isLive());
        QCOMPARE(liveChanged.size(), 1);
        model->setLive(true); // no change, no signal
        QCOMPARE(liveChanged.size(), 1);
        QCOMPARE(controller->pollInterval(todos.getList, user1), pollMs);

        // The server changes a todo of the list behind the client's back: polling brings it in,
        // as one dataChanged for its row.
        const int row = 1;
        QVariantMap changed = model->get(row).toMap();
        QJsonObject onServer = api->item(u"/todos"_s, changed.value(u"id"_s).toInt());
        onServer.insert(u"title"_s, u"changed on the server"_s);
        QVERIFY(api->setItem(u"/todos"_s, onServer));
        QSignalSpy dataChanged(model.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy reset(model.get(), &QAbstractItemModel::modelReset);
        QTRY_COMPARE(model->get(row).toMap().value(u"title"_s).toString(),
                     u"changed on the server"_s);
        QCOMPARE(dataChanged.size(), 1);
        QCOMPARE(dataChanged.at(0).at(0).toModelIndex().row(), row);
        QCOMPARE(reset.size(), 0);
        QVERIFY(listRequests() >= 2);
        QCOMPARE(server.lastRequest().query.toString(), u"userId=1"_s);

        model->setLive(false);
        QCOMPARE(liveChanged.size(), 2);
        QCOMPARE(controller->pollInterval(todos.getList, user1), 0);
    }

    void aModelThatStopsBeingLiveLeavesOtherSubscribers()
    {
        auto a = makeModel({});
        auto b = makeModel({});
        a->setLive(true);
        b->setLive(true);
        QCOMPARE(controller->pollInterval(todos.getList, {}), pollMs);
        a->setLive(false);
        QCOMPARE(controller->pollInterval(todos.getList, {}), pollMs); // b still polls
        // and b keeps receiving answers
        const qsizetype before = listRequests();
        QTRY_VERIFY(listRequests() >= before + 2);
        b->setLive(false);
        QCOMPARE(controller->pollInterval(todos.getList, {}), 0);
    }

    void theSubscriptionFollowsTheModel_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("re-targeted to other params") << u"params"_s;
        QTest::newRow("re-targeted to another controller") << u"controller"_s;
        QTest::newRow("disabled, then enabled") << u"enabled"_s;
        QTest::newRow("destroyed") << u"destroyed"_s;
    }
    void theSubscriptionFollowsTheModel()
    {
        QFETCH(QString, change);
        const Params user1 {{u"userId"_s, 1}};
        const Params user2 {{u"userId"_s, 2}};
        Controller other;
        auto model = makeModel(user1);
        model->setLive(true);
        QCOMPARE(controller->pollInterval(todos.getList, user1), pollMs);

        if (change == u"params"_s) {
            model->setParams(user2);
            QCOMPARE(controller->pollInterval(todos.getList, user1), 0);
            QCOMPARE(controller->pollInterval(todos.getList, user2), pollMs);
            QTRY_COMPARE(model->status(), CollectionModel::Ready);
            // the first read of user 2, then its polls
            QTRY_VERIFY(requestsWithQuery(u"userId=2"_s) >= 2);
        } else if (change == u"controller"_s) {
            model->setController(&other);
            QCOMPARE(controller->pollInterval(todos.getList, user1), 0);
            QCOMPARE(other.pollInterval(todos.getList, user1), pollMs);
        } else if (change == u"enabled"_s) {
            model->setEnabled(false);
            QCOMPARE(model->status(), CollectionModel::Idle);
            QCOMPARE(controller->pollInterval(todos.getList, user1), 0);
            QVERIFY(model->isLive()); // still wanted: polls again once enabled
            model->setEnabled(true);
            QCOMPARE(controller->pollInterval(todos.getList, user1), pollMs);
        } else if (change == u"destroyed"_s) {
            model.reset();
            QCOMPARE(controller->pollInterval(todos.getList, user1), 0);
        }
    }

    void liveBeforeTheModelHasATarget()
    {
        // Set up in any order (as QML does): live first, the target afterwards.
        CollectionModel model;
        model.setLive(true);
        QCOMPARE(model.status(), CollectionModel::Idle);
        model.setController(controller.get());
        model.setEndpoint(todos.getList);
        QCOMPARE(controller->pollInterval(todos.getList, {}), pollMs);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QCOMPARE(model.rowCount(), 12);
    }

    void liveWithoutPollFrequencyWarnsAndReadsOnce()
    {
        CollectionModel model(controller.get(), once.getList, {});
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"Live query of getList: the endpoint has no "
                                                u"pollFrequency, so it is read once"_s));
        model.setLive(true);
        QVERIFY(model.isLive());
        QCOMPARE(controller->pollInterval(once.getList, {}), 0);
        QCOMPARE(server.requests("GET", u"/once"_s).size(), 1);
    }
};

QTEST_MAIN(tst_CollectionModelLive)
#include "tst_collectionmodel_live.moc"
