// The demo's embedded server pushes its changes: two clients (two Controllers, as two demo
// windows) show a list of user 1's todos; what one changes reaches the other's model over the
// WebSocket, and the server log shows that no list was read again to get it there.
#include "embeddedserver.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/livefeed.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/websocketsource.h>

#include <QtTest/QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

//! One demo window: its Controller, the todos resource, a push feed and a list of user 1.
struct Window
{
    explicit Window(const EmbeddedServer &server)
    {
        const EntitySchema todo(u"Todo"_s);
        todos = createResource({.path = u"/todos/:id"_s,
                                .schema = Schema::entity(todo),
                                .urlPrefix = server.url(),
                                .searchParams = {u"userId"_s}});
        LiveMapping mapping;
        mapping.addEntity(u"Todo"_s, Schema::entity(todo));
        mapping.addCollection(u"todos"_s, todos.getList->schema());
        source.setUrl(QUrl(server.pushUrl()));
        feed = std::make_unique<LiveFeed>(&controller, &source, mapping);
        list = std::make_unique<CollectionModel>(&controller, todos.getList,
                                                 Params {{u"userId"_s, 1}});
        new QAbstractItemModelTester(
            list.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, list.get());
    }
    QString title(int row) const { return list->get(row).toMap().value(u"title"_s).toString(); }

    Controller controller;
    Resource todos;
    WebSocketSource source;
    std::unique_ptr<LiveFeed> feed;
    std::unique_ptr<CollectionModel> list;
};

} // namespace

class tst_DemoPush : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aChangeInOneWindowReachesTheOtherWithoutAPoll()
    {
        EmbeddedServer server;
        QString error;
        QVERIFY2(server.start(0, 0, &error), qPrintable(error));
        Window a(server);
        Window b(server);
        QTRY_COMPARE(a.list->status(), CollectionModel::Ready);
        QTRY_COMPARE(b.list->status(), CollectionModel::Ready);
        QTRY_COMPARE(b.source.state(), LiveSource::State::Open);
        QTRY_COMPARE(a.source.state(), LiveSource::State::Open);
        const qsizetype listReads = server.server()->requests("GET", u"/todos"_s).size();
        const QVariant id = b.list->get(0).toMap().value(u"id"_s);

        // Window A renames the first todo (PATCH); window B shows it, one dataChanged.
        QSignalSpy changed(b.list.get(), &QAbstractItemModel::dataChanged);
        QFuture<QVariant> patch = a.controller.fetch(a.todos.partialUpdate, {{u"id"_s, id}},
                                                     QJsonObject {{u"title"_s, u"from A"_s}});
        QTRY_COMPARE(b.title(0), u"from A"_s);
        QCOMPARE(changed.size(), 1);

        // Window A deletes it; it leaves window B's list.
        const int rows = b.list->rowCount();
        QFuture<QVariant> removal = a.controller.fetch(a.todos.remove, {{u"id"_s, id}});
        QTRY_COMPARE(b.list->rowCount(), rows - 1);

        // No list was read again: the changes came over the WebSocket.
        QCOMPARE(server.server()->requests("GET", u"/todos"_s).size(), listReads);
        QCOMPARE(b.feed->malformedCount(), 0);
        QVERIFY(b.feed->appliedCount() >= 2);
    }
};

QTEST_MAIN(tst_DemoPush)
#include "tst_demopush.moc"
