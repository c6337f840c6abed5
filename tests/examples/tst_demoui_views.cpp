// The demo's UI where views meet: switching users offline and online (the previous user's rows
// never pass for the new user's; while they stand in they are dimmed and not editable) and a tick
// on a paged list past its expiry (the pages loaded stay). Same fixture as tst_demoui.cpp.
#include "demouitest.h"

class tst_DemoUiViews : public DemoUiTest
{
    Q_OBJECT

private Q_SLOTS:
    // Offline, the list of a user whose todos were never loaded cannot load: it shows none (and
    // says why), never the previous user's rows under the new name; a user loaded before shows
    // their own stored todos. Back online the new user's todos load.
    void switchingUserOfflineShowsNoOtherUsersRows()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        selectUser(2); // loaded once, so stored
        QTRY_VERIFY(todoModel()->count() > 0 && !todoModel()->isPlaceholder()
                    && showsOnlyTodosOf(2));
        selectUser(1);
        QTRY_VERIFY(todoModel()->count() > 0 && !todoModel()->isLoading() && showsOnlyTodosOf(1));

        flipOnlineSwitch();
        QVERIFY(!DataClient::Controller::instance()->isOnline());
        const int readsBefore = requests("GET", u"/todos"_s);
        selectUser(3);
        QVERIFY(todoModel()->isPaused());
        QVERIFY(!todoModel()->isPlaceholder());
        QCOMPARE(todoModel()->count(), 0);
        QTRY_COMPARE(shownTodoRows().size(), 0);
        QVERIFY(child(u"notLoadedLabel"_s)->property("visible").toBool());
        QVERIFY(window->property("statusText").toString().contains(u"todos: loading, 0 rows"_s));

        selectUser(2); // stored: that user's own rows, editable
        QVERIFY(todoModel()->count() > 0);
        QVERIFY(showsOnlyTodosOf(2));
        QVERIFY(!todoModel()->isPlaceholder());
        QTRY_VERIFY(!shownTodoRows().isEmpty());
        for (QQuickItem *shown : shownTodoRows())
            QVERIFY(shown->findChild<QQuickItem *>(u"todoCheck"_s)->isEnabled());
        QVERIFY(!child(u"notLoadedLabel"_s)->property("visible").toBool());
        QCOMPARE(requests("GET", u"/todos"_s), readsBefore); // nothing sent offline

        selectUser(3);
        QCOMPARE(todoModel()->count(), 0);
        flipOnlineSwitch();
        QTRY_VERIFY(todoModel()->count() > 0 && !todoModel()->isLoading());
        QVERIFY(showsOnlyTodosOf(3));
        QVERIFY(!child(u"notLoadedLabel"_s)->property("visible").toBool());
    }

    // Online, while the next user's todos load, the previous user's rows stand in: dimmed and
    // disabled, and a toggle of one of them sends nothing.
    void placeholderRowsAreDimmedAndNotEditable()
    {
        QVERIFY(start(0, 400));
        QTRY_VERIFY_WITH_TIMEOUT(todoModel()->count() > 0 && !todoModel()->isLoading(), 15000);
        QTRY_VERIFY(!shownTodoRows().isEmpty());
        QQuickItem *content
            = shownTodoRows().constFirst()->findChild<QQuickItem *>(u"todoRowContent"_s);
        QVERIFY(content->isEnabled());
        QCOMPARE(content->opacity(), 1.0);

        selectUser(3);
        QVERIFY(todoModel()->isPlaceholder());
        QVERIFY(showsOnlyTodosOf(1));
        const QList<QQuickItem *> kept = shownTodoRows();
        QVERIFY(!kept.isEmpty());
        for (QQuickItem *shown : kept) {
            auto *inner = shown->findChild<QQuickItem *>(u"todoRowContent"_s);
            QVERIFY(!inner->isEnabled());
            QVERIFY(inner->opacity() < 0.5);
            QVERIFY(!shown->findChild<QQuickItem *>(u"todoCheck"_s)->isEnabled());
        }
        // What the check box would ask if it could be clicked: refused, nothing sent.
        QVERIFY(QMetaObject::invokeMethod(kept.constFirst(), "toggleRequested", Q_ARG(bool, true)));

        QTRY_VERIFY_WITH_TIMEOUT(!todoModel()->isPlaceholder() && todoModel()->count() > 0, 5000);
        QVERIFY(showsOnlyTodosOf(3));
        QTRY_VERIFY(!shownTodoRows().isEmpty());
        for (QQuickItem *shown : shownTodoRows()) {
            auto *inner = shown->findChild<QQuickItem *>(u"todoRowContent"_s);
            QVERIFY(inner->isEnabled());
            QCOMPARE(inner->opacity(), 1.0);
        }
        int patches = 0;
        for (const auto &request : server->server()->requests())
            patches += request.method == "PATCH";
        QCOMPARE(patches, 0);
    }

    // A tick on a list older than its expiry refetches it: the pages loaded stay (and are read
    // again), so the row count stays and "all loaded" shows only when the server has no more.
    void tickOnAStalePagedListKeepsItsPages()
    {
        DataClient::Testing::VirtualClock clock;
        clock.install(DataClient::Controller::instance());
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(todoModel()->count() > 0 && !todoModel()->isLoading(), 15000);
        int total = 0;
        for (const QJsonValue &todo : server->api()->collection(u"/todos"_s))
            total += todo[u"userId"_s].toInt() == 1;
        QVERIFY(total > 2 * EmbeddedServer::pageSize);
        scrollUntil(2 * EmbeddedServer::pageSize);
        QCOMPARE(todoModel()->count(), 2 * EmbeddedServer::pageSize);
        QVERIFY(todoModel()->hasMore());
        const QString twoPages = u"%1 todos loaded, scroll for more"_s.arg(todoModel()->count());
        QCOMPARE(pageStatus(), twoPages);

        const QList<int> loaded = shownIds();
        clock.advance(61000); // past the list's expiry
        const int readsBefore = requests("GET", u"/todos"_s);
        const QVariantMap todo = row(1);
        const bool before = todo.value(u"completed"_s).toBool();
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo), Q_ARG(bool, !before));
        QTRY_COMPARE(stored(todo.value(u"id"_s))[u"completed"_s].toBool(), !before);
        // The first page and the second, read again.
        QTRY_COMPARE(requests("GET", u"/todos"_s), readsBefore + 2);
        QTRY_VERIFY(!todoModel()->isLoading());
        QCOMPARE(shownIds(), loaded); // the same rows, in the same order
        QVERIFY(todoModel()->hasMore());
        QCOMPARE(pageStatus(), twoPages);

        // Everything loaded, then another tick on the expired list: still everything.
        scrollUntil(std::numeric_limits<int>::max());
        QCOMPARE(todoModel()->count(), total);
        QVERIFY(!todoModel()->hasMore());
        const QList<int> all = shownIds();
        clock.advance(61000);
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, row(2)),
               Q_ARG(bool, !row(2).value(u"completed"_s).toBool()));
        QTRY_VERIFY(requests("GET", u"/todos"_s) > readsBefore + 2);
        QTRY_VERIFY(!todoModel()->isLoading());
        QCOMPARE(shownIds(), all);
        QCOMPARE(pageStatus(), u"%1 todos, all loaded"_s.arg(total));
    }

    // Offline, a tick on a row of the second page waits in the outbox; the list expires
    // meanwhile. Back online the tick is sent, then the list is read again (first page, then the
    // second): the pages stay, in order, and the row shows the tick.
    void anOfflineTickOnALaterPageKeepsThePagesWhenOnline()
    {
        DataClient::Testing::VirtualClock clock;
        clock.install(DataClient::Controller::instance());
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(todoModel()->count() > 0 && !todoModel()->isLoading(), 15000);
        scrollUntil(2 * EmbeddedServer::pageSize);
        QCOMPARE(todoModel()->count(), 2 * EmbeddedServer::pageSize);
        const QList<int> loaded = shownIds();
        flipOnlineSwitch();
        const int index = EmbeddedServer::pageSize + 3;
        const QVariantMap todo = row(index);
        const bool before = todo.value(u"completed"_s).toBool();
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo), Q_ARG(bool, !before));
        QCOMPARE(row(index).value(u"completed"_s).toBool(), !before);
        const int readsBefore = requests("GET", u"/todos"_s);
        clock.advance(61000); // past the list's expiry

        flipOnlineSwitch();
        QTRY_COMPARE(stored(todo.value(u"id"_s))[u"completed"_s].toBool(), !before);
        QTRY_COMPARE(requests("GET", u"/todos"_s), readsBefore + 2);
        QTRY_VERIFY(!todoModel()->isLoading() && !todoModel()->isPending());
        QCOMPARE(shownIds(), loaded);
        QVERIFY(todoModel()->hasMore());
        QCOMPARE(row(index).value(u"completed"_s).toBool(), !before);
    }

    // "Open only" shows the user's open todos ({ userId, completed: false }); one completed there
    // leaves the list at once, as one remove (the view fades it out), and does not come back.
    void aCompletedTodoLeavesTheOpenFilterWithOneRemove()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QObject *openOnly = child(u"openOnlyCheck"_s);
        QVERIFY(openOnly->setProperty("checked", true));
        QTRY_VERIFY(todoModel()->count() > 0 && !todoModel()->isLoading()
                    && !todoModel()->isPlaceholder());
        for (int i = 0; i < todoModel()->count(); ++i)
            QVERIFY(!row(i).value(u"completed"_s).toBool());
        const int rows = todoModel()->count();
        const QVariantMap todo = row(1);
        QSignalSpy removed(todoModel(), &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(todoModel(), &QAbstractItemModel::modelReset);

        invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo), Q_ARG(bool, true));
        QCOMPARE(todoModel()->count(), rows - 1); // optimistic: at once
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.at(0).at(1).toInt(), 1);
        QTRY_COMPARE(stored(todo.value(u"id"_s))[u"completed"_s].toBool(), true);
        QTRY_VERIFY(!todoModel()->isPending() && !todoModel()->isLoadingMore());
        // The view may ask for the next page as its end comes into sight, and a page read after
        // the server's list moved up reads the loaded pages again (docs/pagination.md): rows
        // may follow, but never a reset, and the completed todo never comes back.
        QCOMPARE(reset.size(), 0);
        for (int i = 0; i < todoModel()->count(); ++i)
            QVERIFY(row(i).value(u"id"_s) != todo.value(u"id"_s));
        for (const auto &request : server->server()->requests()) {
            if (request.method == "GET" && request.path == u"/todos"_s
                && request.query.hasQueryItem(u"completed"_s)) // only the open list was read
                QCOMPARE(request.query.queryItemValue(u"completed"_s), u"false"_s);
        }
    }
};

QTEST_MAIN(tst_DemoUiViews)
#include "tst_demoui_views.moc"
