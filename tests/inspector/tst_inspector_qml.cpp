// The store inspector's QML overlay (import DataClient.Inspector) over the QML demo, offscreen:
// closed it is detached; Ctrl+Shift+D opens it; every tab shows rows (the outbox's while an edit
// waits offline, the timeline's changes); the search filters; an action from a row acts on the store. The docs' picture
// (docs/images/inspector-qml.png) is taken here.
#include "demouitest.h"
#include "docimages.h"

#include <DataClient/createresource.h>
#include <DataClient/entityschema.h>
#include <DataClient/inspectorentitiesmodel.h>
#include <DataClient/qmlcontroller.h>

#include <QtQuick/QQuickItem>

class tst_InspectorQml : public DemoUiTest
{
    Q_OBJECT

    QQuickItem *item(const QString &name) const { return qobject_cast<QQuickItem *>(child(name)); }
    int shownRows(const QString &list, const QString &row) const
    {
        return int(visibleItems(item(list), row).size());
    }

private Q_SLOTS:
    void everyTabShowsRows()
    {
        QVERIFY(start());
        QTRY_VERIFY(window->property("dataShown").toBool());
        auto *quickWindow = qobject_cast<QQuickWindow *>(window);
        QObject *overlay = child(u"inspectorOverlay"_s);
        QVERIFY(overlay);
        DataClient::Controller *controller = DataClient::qmlController(engine.get());
        QVERIFY(controller->managers().isEmpty()); // closed: not attached

        QTest::keyClick(quickWindow, Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(overlay->property("shown").toBool());
        QCOMPARE(controller->managers().size(), 1);
        QVERIFY(item(u"inspectorPanel"_s)->isVisible());

        // An edit waiting offline, for the outbox tab; a refetch for the requests tab.
        const DataClient::Resource queued = DataClient::createResource(
            {.path = u"/todos/:id"_s,
             .schema = DataClient::Schema::entity(DataClient::EntitySchema(u"Todo"_s)),
             .urlPrefix = server->url(),
             .optimistic = true,
             .queueWhenOffline = true});
        todoModel()->refetch();
        QTRY_VERIFY(!todoModel()->isLoading());
        controller->connectivity()->setOnline(false);
        controller->fetch(queued.partialUpdate, {{u"id"_s, row(0).value(u"id"_s)}},
                          QJsonObject {{u"title"_s, u"waits offline"_s}});

        const QList<std::pair<QString, QString>> tabs {
            {u"entityList"_s, u"entityRow"_s},   {u"resultList"_s, u"resultRow"_s},
            {u"requestList"_s, u"requestRow"_s}, {u"outboxList"_s, u"outboxRow"_s},
            {u"statusList"_s, u"statusRow"_s},   {u"timelineList"_s, u"timelineRow"_s}};
        // The Entities tab shows the todos (the docs' picture).
        auto *entities = qobject_cast<DataClient::InspectorEntitiesModel *>(
            child(u"storeInspector"_s)->property("entities").value<QAbstractItemModel *>());
        QVERIFY(entities);
        QTRY_VERIFY(entities->typeRow(u"Todo"_s) >= 0);
        overlay->setProperty("typeRow", entities->typeRow(u"Todo"_s));
        for (int tab = 0; tab < tabs.size(); ++tab) {
            overlay->setProperty("currentTab", tab);
            QTRY_VERIFY2(shownRows(tabs[tab].first, tabs[tab].second) > 0,
                         qPrintable(tabs[tab].first));
            if (tab == 0 || tab == 2 || tab == 5) {
                QVERIFY(DocImages::publish(quickWindow->grabWindow(),
                                           tab == 0       ? u"inspector-qml.png"_s
                                               : tab == 2 ? u"inspector-qml-requests.png"_s
                                                          : u"inspector-qml-timeline.png"_s));
            }
        }
        QVERIFY(child(u"typeList"_s)->property("count").toInt() >= 2); // Todo, User

        // Search: only the results whose key has "users".
        overlay->setProperty("currentTab", 1);
        const int allResults = shownRows(u"resultList"_s, u"resultRow"_s);
        overlay->setProperty("search", u"/users"_s);
        QTRY_VERIFY(shownRows(u"resultList"_s, u"resultRow"_s) < allResults);
        QTRY_COMPARE(shownRows(u"resultList"_s, u"resultRow"_s), 1);
        overlay->setProperty("search", QString());

        // The timeline too: only the guess of the edit waiting offline.
        overlay->setProperty("currentTab", 5);
        overlay->setProperty("search", u"rollback"_s);
        QTRY_COMPARE(shownRows(u"timelineList"_s, u"timelineRow"_s), 0);
        overlay->setProperty("search", u"optimistic guess"_s);
        QTRY_COMPARE(shownRows(u"timelineList"_s, u"timelineRow"_s), 1);
        overlay->setProperty("search", QString());

        // Closed again: detached, nothing recorded any more.
        controller->connectivity()->setOnline(true);
        QTRY_COMPARE(controller->outbox()->count(), 0);
        QTest::keyClick(quickWindow, Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(!overlay->property("shown").toBool());
        QVERIFY(controller->managers().isEmpty());
    }
};

QTEST_MAIN(tst_InspectorQml)
#include "tst_inspector_qml.moc"
