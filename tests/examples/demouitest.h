// The fixture of the demo's UI tests (tst_demoui*.cpp): examples/todo-qml/Main.qml loaded
// in-process against a fresh embedded server per test, and what a user does, as helpers.
#pragma once

#include "embeddedserver.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/placeholderkey.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/testing/virtualclock.h>
#include <DataClient/testing/fakerestapi.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QSet>
#include <QtQml/QJSValue>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;
using DataClient::CollectionModel;

class DemoUiTest : public QObject
{
    Q_OBJECT

protected:
    std::unique_ptr<EmbeddedServer> server;
    std::unique_ptr<QQmlApplicationEngine> engine;
    QObject *window = nullptr;

    QObject *child(const QString &name) const { return window->findChild<QObject *>(name); }
    CollectionModel *todoModel() const
    {
        return qobject_cast<CollectionModel *>(
            child(u"todoList"_s)->property("query").value<QObject *>());
    }
    QVariantMap row(int index) const { return todoModel()->get(index).toMap(); }
    QJsonObject stored(const QVariant &id) const
    {
        return server->api()->item(u"/todos"_s, QJsonValue::fromVariant(id));
    }

    // Starts a fresh embedded server (answering after \a latencyMs) and window.
    bool start(double failRate = 0, int latencyMs = 0)
    {
        server = std::make_unique<EmbeddedServer>();
        QString error;
        if (!server->start(latencyMs, failRate, &error))
            return false;
        engine = std::make_unique<QQmlApplicationEngine>();
        engine->addImportPath(QStringLiteral(DATACLIENT_QML_DIR));
        engine->setInitialProperties(
            {{u"apiUrl"_s, server->url()}, {u"embeddedServer"_s, true}, {u"initialUserId"_s, 1}});
        engine->load(QUrl::fromLocalFile(QStringLiteral(DEMO_QML_DIR "/Main.qml")));
        if (engine->rootObjects().size() != 1)
            return false;
        window = engine->rootObjects().constFirst();
        return true;
    }
    //! How many requests of \a method to \a path (without the query) the server received.
    int requests(const QByteArray &method, const QString &path) const
    {
        int count = 0;
        for (const auto &request : server->server()->requests())
            count += request.method == method && request.path == path;
        return count;
    }
    bool pending(int index) const
    {
        return todoModel()->index(index).data(CollectionModel::PendingRole).toBool();
    }
    //! The texts of the delegates named \a name under \a item, top to bottom.
    static QStringList delegateTexts(QQuickItem *item, const QString &name)
    {
        QList<QQuickItem *> found;
        QList<QQuickItem *> queue {item};
        while (!queue.isEmpty()) {
            QQuickItem *next = queue.takeFirst();
            if (next->objectName() == name && next->isVisible())
                found.append(next);
            queue += next->childItems();
        }
        std::sort(found.begin(), found.end(),
                  [](QQuickItem *a, QQuickItem *b) { return a->y() < b->y(); });
        QStringList texts;
        for (QQuickItem *delegate : std::as_const(found))
            texts.append(delegate->property("text").toString());
        return texts;
    }
    //! The visible delegates named \a name under \a item.
    static QList<QQuickItem *> visibleItems(QQuickItem *item, const QString &name)
    {
        QList<QQuickItem *> found;
        QList<QQuickItem *> queue {item};
        while (!queue.isEmpty()) {
            QQuickItem *next = queue.takeFirst();
            if (!next->isVisible())
                continue;
            if (next->objectName() == name)
                found.append(next);
            queue += next->childItems();
        }
        return found;
    }
    //! The todo rows the list view shows.
    QList<QQuickItem *> shownTodoRows() const
    {
        return visibleItems(qobject_cast<QQuickItem *>(child(u"todoView"_s)), u"todoRow"_s);
    }
    QQuickItem *todoView() const { return qobject_cast<QQuickItem *>(child(u"todoView"_s)); }
    //! The todo row delegates inside the list view's visible area, top to bottom.
    QList<QQuickItem *> rowsInView() const
    {
        QQuickItem *view = todoView();
        QList<QQuickItem *> rows;
        for (QQuickItem *shown : shownTodoRows()) {
            const qreal y = shown->mapToItem(view, QPointF(0, 0)).y();
            if (y + shown->height() > 0 && y < view->height())
                rows.append(shown);
        }
        std::sort(rows.begin(), rows.end(), [view](QQuickItem *a, QQuickItem *b) {
            return a->mapToItem(view, QPointF()).y() < b->mapToItem(view, QPointF()).y();
        });
        return rows;
    }
    //! The titles of the todos the user sees in the list, top to bottom.
    QStringList titlesInView() const
    {
        QStringList titles;
        for (QQuickItem *shown : rowsInView())
            titles.append(row(shown->property("index").toInt()).value(u"title"_s).toString());
        return titles;
    }
    //! Starts with every todo list load failing, backoff on \a clock, and checks that the
    //! header's line says "retrying (attempt 2)…"; returns that line (null on failure).
    QObject *startWithFailingLoads(DataClient::Testing::VirtualClock &clock)
    {
        clock.install(DataClient::Controller::instance());
        if (!start(1) || !QTest::qWaitFor([this] { return todoModel()->isRetrying(); }, 15000))
            return nullptr;
        QObject *line = child(u"retryingLabel"_s);
        const bool shown = line->property("visible").toBool()
            && line->property("text").toString() == u"retrying (attempt 2)…"_s;
        return shown ? line : nullptr;
    }
    //! What a click on a user in the list does.
    void selectUser(int id)
    {
        const QString name = server->api()->item(u"/users"_s, id)[u"name"_s].toString();
        QVERIFY(QMetaObject::invokeMethod(child(u"userList"_s), "userSelected", Q_ARG(int, id),
                                          Q_ARG(QString, name)));
        QCOMPARE(window->property("userId").toInt(), id);
    }
    //! What a click on the header's Online switch does.
    void flipOnlineSwitch()
    {
        QObject *onlineSwitch = child(u"onlineSwitch"_s);
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggle"));
        QVERIFY(QMetaObject::invokeMethod(onlineSwitch, "toggled"));
    }
    //! Every row shown is a todo of user \a id.
    bool showsOnlyTodosOf(int id) const
    {
        for (int i = 0; i < todoModel()->count(); ++i) {
            if (row(i).value(u"userId"_s).toInt() != id)
                return false;
        }
        return true;
    }
    //! Scrolls to the end of the list until \a rows are loaded (or everything).
    void scrollUntil(int rows)
    {
        auto *view = qobject_cast<QQuickItem *>(child(u"todoView"_s));
        for (int attempt = 0; attempt < 10 && todoModel()->hasMore() && todoModel()->count() < rows;
             ++attempt) {
            QVERIFY(QMetaObject::invokeMethod(view, "positionViewAtEnd"));
            QTRY_VERIFY(!todoModel()->isLoadingMore());
        }
    }
    //! The ids of the todos shown, top to bottom.
    QList<int> shownIds() const
    {
        QList<int> ids;
        for (int i = 0; i < todoModel()->count(); ++i)
            ids.append(row(i).value(u"id"_s).toInt());
        return ids;
    }
    QString pageStatus() const { return child(u"pageStatusLabel"_s)->property("text").toString(); }
    // A template: Q_ARG() is a QGenericArgument in Qt 6.4 and a QMetaMethodArgument since 6.5.
    template<typename... Args> void invoke(const char *object, const char *signal, Args... args)
    {
        QVERIFY(QMetaObject::invokeMethod(child(QString::fromLatin1(object)), signal, args...));
    }

private Q_SLOTS:
    void init() { DataClient::Controller::instance()->resetEntireStore(); }
    void cleanup()
    {
        engine.reset();
        window = nullptr;
        server.reset();
        // A test that failed offline must not leave the next one offline.
        if (DataClient::Connectivity *connectivity
            = DataClient::Controller::instance()->connectivity())
            connectivity->setOnline(true);
    }
};
