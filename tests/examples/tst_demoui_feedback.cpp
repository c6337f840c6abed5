// What the demo's user sees right after acting: a new todo where they look (on top, scrolled to,
// and still there when later pages load), failures said in words in a banner that overlays the
// list, a rename kept when the editor loses focus, Ctrl+Z / Ctrl+Shift+Z undoing and redoing it on
// the server. Same fixture as tst_demoui.cpp.
#include "demouitest.h"
#include "docimages.h"

#include <DataClient/outbox.h>

class tst_DemoUiFeedback : public DemoUiTest
{
    Q_OBJECT

private:
    //! The demo started, its window active and its list shown; the title editor of the first
    //! row in view (nullptr when something failed: the test fails on it).
    QQuickItem *firstTitleEditor()
    {
        if (!start()
            || !QTest::qWaitFor([this] { return window->property("dataShown").toBool(); }, 15000))
            return nullptr;
        auto *quickWindow = qobject_cast<QQuickWindow *>(window);
        quickWindow->requestActivate();
        if (!QTest::qWaitForWindowActive(quickWindow)
            || !QTest::qWaitFor([this] { return !rowsInView().isEmpty(); }))
            return nullptr;
        return rowsInView().constFirst()->findChild<QQuickItem *>(u"titleEditor"_s);
    }

private Q_SLOTS:
    // Scrolled down two pages, the user adds a todo: it is the first row, the list scrolls to
    // it, and it stays first (newest first, no duplicate) as the remaining pages load.
    void aNewTodoShowsOnTopAndStaysThereAsPagesLoad()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        scrollUntil(2 * EmbeddedServer::pageSize);
        QVERIFY(todoModel()->count() >= 2 * EmbeddedServer::pageSize);
        QVERIFY(todoModel()->hasMore());
        QVERIFY(QMetaObject::invokeMethod(todoView(), "positionViewAtIndex",
                                          Q_ARG(int, 2 * EmbeddedServer::pageSize - 10),
                                          Q_ARG(int, 0))); // QQuickListView::Beginning
        QTRY_VERIFY(!titlesInView().isEmpty());
        QVERIFY2(!titlesInView().contains(row(0).value(u"title"_s).toString()), // scrolled down
                 qPrintable(titlesInView().join(u", "_s)));

        invoke("newTodoBar", "addRequested", Q_ARG(QString, u"Buy milk"_s));
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy milk"_s);
        QVERIFY(pending(0));
        QTRY_COMPARE(titlesInView().value(0), u"Buy milk"_s); // where the user looks
        QTRY_VERIFY(row(0).value(u"id"_s).toInt() > 0); // the server's id, still on top
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy milk"_s);

        scrollUntil(std::numeric_limits<int>::max());
        QVERIFY(!todoModel()->hasMore());
        int total = 0;
        for (const QJsonValue &todo : server->api()->collection(u"/todos"_s))
            total += todo[u"userId"_s].toInt() == 1;
        QCOMPARE(todoModel()->count(), total); // every todo once
        const QList<int> ids = shownIds();
        QCOMPARE(QSet<int>(ids.cbegin(), ids.cend()).size(), total);
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy milk"_s);
        for (int i = 1; i < todoModel()->count(); ++i) // newest first throughout
            QVERIFY2(row(i - 1).value(u"createdAt"_s).toDateTime()
                         >= row(i).value(u"createdAt"_s).toDateTime(),
                     qPrintable(QString::number(i)));
    }

    // The same offline: the new todo shows on top at once and waits in the outbox; back online
    // it is sent once, the reconnect's refetch of every loaded page agrees with it (on top), and
    // no row is lost or doubled.
    void aTodoAddedOfflineStaysOnTopThroughTheReconnect()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        scrollUntil(2 * EmbeddedServer::pageSize);
        const int rows = todoModel()->count();
        flipOnlineSwitch();
        invoke("newTodoBar", "addRequested", Q_ARG(QString, u"Buy milk"_s));
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy milk"_s);
        QVERIFY(pending(0));
        QTRY_COMPARE(titlesInView().value(0), u"Buy milk"_s);
        QCOMPARE(requests("POST", u"/todos"_s), 0);

        flipOnlineSwitch();
        QTRY_VERIFY(row(0).value(u"id"_s).toInt() > 0);
        QTRY_VERIFY(!todoModel()->isLoading() && !todoModel()->isLoadingMore());
        QCOMPARE(requests("POST", u"/todos"_s), 1);
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy milk"_s);
        QVERIFY(!pending(0));
        QCOMPARE(todoModel()->count(), rows + 1);
        const QList<int> ids = shownIds();
        QCOMPARE(QSet<int>(ids.cbegin(), ids.cend()).size(), rows + 1);
        QCOMPARE(titlesInView().value(0), u"Buy milk"_s);
    }

    // A refused change: the banner says in words what failed, the request and the answer wait
    // behind "Details", and the rows stay where they were (the banner floats over them).
    void aRefusedChangeIsSaidInWordsOverTheList()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QTRY_VERIFY(!rowsInView().isEmpty());
        const QStringList shownBefore = titlesInView();
        const qreal firstRowY = rowsInView().constFirst()->mapToScene(QPointF()).y();
        const QVariantMap todo = row(0);
        const QString title = todo.value(u"title"_s).toString();

        server->setFailureRate(1);
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, todo),
               Q_ARG(bool, !todo.value(u"completed"_s).toBool()));
        QObject *banner = child(u"mutationBanner"_s);
        QTRY_VERIFY(banner->property("visible").toBool());
        QCOMPARE(banner->property("message").toString(),
                 u"Could not save '%1': the server refused it (500)."_s.arg(title));
        auto *text = banner->findChild<QQuickItem *>(u"bannerText"_s);
        QVERIFY(text->property("text").toString().contains(u"the server refused it (500)"_s));
        QVERIFY(!text->property("text").toString().contains(u"http"_s)); // no URL, no JSON
        auto *details = banner->findChild<QQuickItem *>(u"bannerDetails"_s);
        QVERIFY(!details->isVisible());
        QVERIFY(QMetaObject::invokeMethod(banner->findChild<QObject *>(u"bannerDetailsButton"_s),
                                          "clicked"));
        QTRY_VERIFY(details->isVisible());
        QVERIFY2(details->property("text").toString().contains(u"/todos/"_s
                                                               + todo.value(u"id"_s).toString()),
                 qPrintable(details->property("text").toString()));

        // The list did not move: the same rows at the same place.
        QCOMPARE(titlesInView(), shownBefore);
        QCOMPARE(rowsInView().constFirst()->mapToScene(QPointF()).y(), firstRowY);
        if (DocImages::updating()) // docs/examples.md's picture of the banner
            QVERIFY(DocImages::publish(qobject_cast<QQuickWindow *>(window)->grabWindow(),
                                       u"demo-error-banner.png"_s));
    }

    // The title editor, as in Qt's item views: a click elsewhere keeps the new title, Escape
    // throws it away.
    void aRenameIsKeptWhenTheEditorLosesFocusAndEscapeCancels()
    {
        auto *editor = firstTitleEditor();
        QVERIFY(editor);
        auto *quickWindow = qobject_cast<QQuickWindow *>(window);
        const QVariant id = row(0).value(u"id"_s);
        const QString before = row(0).value(u"title"_s).toString();

        QVERIFY(QMetaObject::invokeMethod(editor, "open")); // what a double-click does
        QTRY_VERIFY(editor->hasActiveFocus());
        editor->setProperty("text", u"Buy oat milk"_s);
        QTest::keyClick(quickWindow, Qt::Key_Escape);
        QTRY_VERIFY(!editor->isVisible());
        QCOMPARE(row(0).value(u"title"_s).toString(), before); // cancelled
        QCOMPARE(titlesInView().value(0), before);

        QVERIFY(QMetaObject::invokeMethod(editor, "open"));
        QTRY_VERIFY(editor->hasActiveFocus());
        editor->setProperty("text", u"Buy oat milk"_s);
        // A click in the new-todo field takes the focus away from the editor.
        auto *newTodo = qobject_cast<QQuickItem *>(child(u"newTodoBar"_s));
        newTodo->childItems().constFirst()->forceActiveFocus(Qt::MouseFocusReason);
        QTRY_VERIFY(!editor->isVisible());
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy oat milk"_s); // kept
        QCOMPARE(titlesInView().value(0), u"Buy oat milk"_s);
        QTRY_COMPARE(stored(id)[u"title"_s].toString(), u"Buy oat milk"_s);
        QCOMPARE(requests("PATCH", u"/todos/"_s + id.toString()), 1); // once, not per event
    }

    // Ctrl+Z undoes the last change on the server too and Ctrl+Shift+Z redoes it; the undo
    // stack names it after the todo ("rename 'Buy milk'", the toolbar's Undo tool tip).
    void ctrlZUndoesARenameOnTheServerAndCtrlShiftZRedoesIt()
    {
        auto *editor = firstTitleEditor();
        QVERIFY(editor);
        auto *quickWindow = qobject_cast<QQuickWindow *>(window);
        const QVariant id = row(0).value(u"id"_s);
        const QString before = row(0).value(u"title"_s).toString();
        QVERIFY(QMetaObject::invokeMethod(editor, "open"));
        QTRY_VERIFY(editor->hasActiveFocus());
        editor->setProperty("text", u"Buy oat milk"_s);
        QTest::keyClick(quickWindow, Qt::Key_Return);
        QTRY_COMPARE(stored(id)[u"title"_s].toString(), u"Buy oat milk"_s);
        QObject *undoStack = child(u"undoStack"_s);
        QVERIFY(undoStack);
        QCOMPARE(undoStack->property("undoText").toString(), u"rename '%1'"_s.arg(before));

        // Right after Return: the closed editor has given the focus back (a text field would take
        // Ctrl+Z for its own undo).
        QVERIFY(!editor->hasActiveFocus());
        QTest::keyClick(quickWindow, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(row(0).value(u"title"_s).toString(), before); // at once
        QTRY_COMPARE(stored(id)[u"title"_s].toString(), before);
        QCOMPARE(undoStack->property("redoText").toString(), u"rename '%1'"_s.arg(before));

        QTest::keyClick(quickWindow, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(row(0).value(u"title"_s).toString(), u"Buy oat milk"_s);
        QTRY_COMPARE(stored(id)[u"title"_s].toString(), u"Buy oat milk"_s);
        QCOMPARE(requests("PATCH", u"/todos/"_s + id.toString()), 3);
    }

    // --refuse-rate answers 4xx, which is not retried: the change rolls back at once and the
    // banner says so. --fail-rate answers 500, which is retried before anything rolls back.
    void aRefusedChangeRollsBackAtOnceAFailedOneAfterRetries()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QObject *banner = child(u"mutationBanner"_s);
        const QVariantMap first = row(0);
        const QString path = u"/todos/"_s + first.value(u"id"_s).toString();
        const bool before = first.value(u"completed"_s).toBool();

        server->setRefuseRate(1);
        invoke("todoList", "toggleRequested", Q_ARG(QVariant, first), Q_ARG(bool, !before));
        QTRY_VERIFY(banner->property("visible").toBool());
        QCOMPARE(banner->property("message").toString(),
                 u"Could not save '%1': the server refused it (422)."_s.arg(
                     first.value(u"title"_s).toString()));
        QCOMPARE(row(0).value(u"completed"_s).toBool(), before); // rolled back
        QCOMPARE(requests("PATCH", path), 1); // not retried
        QCOMPARE(DataClient::Controller::instance()->outbox()->count(), 0);

        server->setRefuseRate(0);
        server->setFailureRate(1);
        QVERIFY(QMetaObject::invokeMethod(banner, "runRetry"));
        QTRY_VERIFY_WITH_TIMEOUT(banner->property("visible").toBool(), 15000);
        QVERIFY(banner->property("message").toString().endsWith(u"(500)."_s));
        QCOMPARE(row(0).value(u"completed"_s).toBool(), before);
        QCOMPARE(requests("PATCH", path), 1 + 3); // the first attempt and two retries
    }

    // A load that recovers on a retry: the header's line does not vanish with the retry, it says
    // how it ended, long enough to read, then goes. Backoff waits on a virtual clock.
    void theRetryLineStaysLongEnoughToRead()
    {
        DataClient::Testing::VirtualClock clock;
        QObject *line = startWithFailingLoads(clock);
        QVERIFY(line);

        server->setFailureRate(0);
        QTRY_VERIFY((clock.advance(1000), todoModel()->count() > 0));
        QVERIFY(!todoModel()->isRetrying());
        QVERIFY(line->property("visible").toBool()); // still there to read
        QCOMPARE(line->property("text").toString(), u"loaded on attempt 2"_s);
        QTest::qWait(1000); // (real time: what the user has to read it)
        QVERIFY(line->property("visible").toBool());
        QTRY_VERIFY_WITH_TIMEOUT(!line->property("visible").toBool(), 10000);
    }

    // Offline, scrolling to the end asks for a page that cannot go out: no spinner turning for
    // ever, a line says why; the server panel says it is offline instead of showing the last
    // numbers as live ones. Back online the page loads and the panel is live again.
    void offlineTheFooterAndTheServerPanelSaySo()
    {
        QVERIFY(start());
        QTRY_VERIFY_WITH_TIMEOUT(window->property("dataShown").toBool(), 15000);
        QObject *title = child(u"panelTitle"_s);
        auto *clockLabel = qobject_cast<QQuickItem *>(child(u"panelClock"_s));
        QCOMPARE(title->property("text").toString(), u"Server (live)"_s);
        QVERIFY(clockLabel->isVisible());
        const int rows = todoModel()->count();

        flipOnlineSwitch();
        QVERIFY(QMetaObject::invokeMethod(todoView(), "positionViewAtEnd"));
        QTRY_VERIFY(todoModel()->isLoadingMore()); // the page waits for the connection
        auto *spinner = qobject_cast<QQuickItem *>(child(u"pageSpinner"_s));
        QVERIFY(!spinner->property("running").toBool());
        QVERIFY(!spinner->isVisible());
        QCOMPARE(pageStatus(), u"%1 todos loaded; offline: more load when back online"_s.arg(rows));
        QVERIFY(qobject_cast<QQuickItem *>(child(u"pageStatusLabel"_s))->isVisible());
        QCOMPARE(title->property("text").toString(), u"Server (offline)"_s);
        QVERIFY(!clockLabel->isVisible());
        QVERIFY(!qobject_cast<QQuickItem *>(child(u"panelRequests"_s))->isVisible());
        QVERIFY(child(u"panelOfflineLabel"_s)
                    ->property("text")
                    .toString()
                    .startsWith(u"Offline: not polling. Last answer at "_s));

        flipOnlineSwitch();
        QTRY_VERIFY(!todoModel()->isLoadingMore() && todoModel()->count() > rows);
        QCOMPARE(title->property("text").toString(), u"Server (live)"_s);
        QVERIFY(clockLabel->isVisible());
    }
};

QTEST_MAIN(tst_DemoUiFeedback)
#include "tst_demoui_feedback.moc"
