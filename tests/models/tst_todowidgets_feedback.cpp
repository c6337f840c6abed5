// examples/todo-widgets as a user meets it, in-process against the demo's embedded server: a
// click on a column header sorts (through a proxy, without resets); the status bar follows page
// loads and keeps a failure, naming the row, until dismissed; a refused delete brings the row back
// selected; a new todo is selected and scrolled to; rows the server has not confirmed are grey;
// Ctrl+Z and Ctrl+Shift+Z undo and redo cell edits on the server (Edit menu).
#include "todowidgetsapp.h"

#include <QtGui/QAction>
#include <QtWidgets/QApplication>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>
#include <QSignalSpy>
#include <QTest>

class tst_TodoWidgetsFeedback : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A click on the Title header sorts the table through a QSortFilterProxyModel: an edit
    // moves its row to its sorted place with the selection on it, a page loaded by scrolling
    // lands in order, and the proxy never resets (so neither selection nor scroll jump).
    void clickingAHeaderSortsWithoutResets()
    {
        TodoWidgetsApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        QTableView *table = app.window->todoTable();
        QAbstractItemModel *shown = table->model();
        QVERIFY(shown != app.window->todos()); // a proxy
        QCOMPARE(shown->index(0, TodoWindow::Title).data(),
                 app.window->todos()->index(0, TodoWindow::Title).data()); // server order first
        auto titles = [shown] {
            QStringList list;
            for (int row = 0; row < shown->rowCount(); ++row)
                list.append(shown->index(row, TodoWindow::Title).data().toString());
            return list;
        };
        auto sorted = [](QStringList list) {
            for (int i = 1; i < list.size(); ++i) {
                if (QString::compare(list.at(i - 1), list.at(i), Qt::CaseInsensitive) > 0)
                    return false;
            }
            return true;
        };
        QVERIFY(!sorted(titles()));
        QSignalSpy resets(shown, &QAbstractItemModel::modelReset);

        QHeaderView *header = table->horizontalHeader();
        QTest::mouseClick(
            header->viewport(), Qt::LeftButton, {},
            QPoint(header->sectionViewportPosition(TodoWindow::Title) + 10, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), int(TodoWindow::Title));
        QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
        QVERIFY2(sorted(titles()), qPrintable(titles().join(u", "_s)));

        // Renamed, the first row moves to the end; the selection goes with it.
        table->setCurrentIndex(shown->index(0, TodoWindow::Title));
        QVERIFY(shown->setData(shown->index(0, TodoWindow::Title), u"Zzz last of all"_s));
        QCOMPARE(titles().constLast(), u"Zzz last of all"_s);
        QCOMPARE(table->currentIndex().data().toString(), u"Zzz last of all"_s);
        QCOMPARE(app.window->formTitle()->text(), u"Zzz last of all"_s);
        QTRY_COMPARE(app.patchCount(), 1);

        // The next page, loaded as the table scrolls to the end, lands in order.
        const int rows = shown->rowCount();
        table->scrollToBottom();
        QTRY_VERIFY(shown->rowCount() > rows);
        QVERIFY2(sorted(titles()), qPrintable(titles().join(u", "_s)));
        QCOMPARE(table->currentIndex().data().toString(), u"Zzz last of all"_s);
        QCOMPARE(resets.size(), 0);
    }

    // The status bar follows the page loads (never stuck on "loading more"); a refused edit's
    // message names the row, stays (no timeout) until dismissed, and the next one replaces it.
    void theStatusBarFollowsPagesAndKeepsErrorsUntilDismissed()
    {
        TodoWidgetsApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        auto *status = app.window->findChild<QLabel *>(u"statusLabel"_s);
        auto *error = app.window->findChild<QLabel *>(u"errorLabel"_s);
        auto *dismiss = app.window->findChild<QToolButton *>(u"dismissError"_s);
        QVERIFY(status && error && dismiss);
        QVERIFY(!error->isVisible());
        CollectionModel *todos = app.window->todos();
        app.window->todoTable()->scrollToBottom(); // the next page
        QTRY_VERIFY(todos->isLoadingMore());
        QVERIFY(status->text().contains(u"loading more"_s));
        QTRY_VERIFY(!todos->isLoadingMore());
        QVERIFY2(status->text().contains(u"todos: ready, 40 rows"_s), qPrintable(status->text()));
        QVERIFY(!status->text().contains(u"loading more"_s));

        app.server.setRefuseRate(1);
        QAbstractItemModel *shown = app.window->todoTable()->model();
        const QString first = shown->index(0, TodoWindow::Title).data().toString();
        QVERIFY(shown->setData(shown->index(0, TodoWindow::Title), u"refused"_s));
        QTRY_VERIFY(error->isVisible());
        QCOMPARE(error->text(), u"Could not save '%1': the server refused it (422)."_s.arg(first));
        QVERIFY(error->toolTip().contains(u"PATCH"_s)); // the details, on demand
        QVERIFY(app.window->statusBar()->currentMessage().isEmpty()); // not a timed message
        QVERIFY(dismiss->isVisible());

        const QString second = shown->index(1, TodoWindow::Title).data().toString();
        QVERIFY(shown->setData(shown->index(1, TodoWindow::Title), u"refused too"_s));
        QTRY_COMPARE(error->text(),
                     u"Could not save '%1': the server refused it (422)."_s.arg(second));
        QTest::mouseClick(dismiss, Qt::LeftButton);
        QVERIFY(!error->isVisible());
        QVERIFY(!dismiss->isVisible());
        QVERIFY(!app.window->statusText().contains(u"Could not"_s));
    }

    // A refused delete: the row comes back, and so does the selection (and the form) on it.
    void aRefusedDeleteRestoresTheRowWithTheSelection()
    {
        TodoWidgetsApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        QTableView *table = app.window->todoTable();
        QAbstractItemModel *shown = table->model();
        table->setCurrentIndex(shown->index(2, TodoWindow::Title));
        const QString title = shown->index(2, TodoWindow::Title).data().toString();
        const QString next = shown->index(3, TodoWindow::Title).data().toString();
        const int rows = shown->rowCount();
        app.server.setRefuseRate(1);
        app.window->deleteSelectedTodo();
        QCOMPARE(shown->rowCount(), rows - 1); // gone at once
        QCOMPARE(table->currentIndex().data().toString(), next);

        // Refused: back in its place (the table may have loaded another page meanwhile).
        QTRY_COMPARE(shown->index(2, TodoWindow::Title).data().toString(), title);
        QVERIFY(shown->rowCount() >= rows);
        QTRY_COMPARE(table->currentIndex().row(), 2);
        QCOMPARE(table->currentIndex().data().toString(), title);
        QCOMPARE(app.window->formTitle()->text(), title);
        QVERIFY(app.window->statusText().contains(
            u"Could not delete '%1': the server refused it (422)."_s.arg(title)));
    }

    // Scrolled down, the user adds a todo: it is selected and scrolled to, greyed while the
    // server has not confirmed it, like an edit on its way; both turn normal once answered.
    void newRowsAreScrolledToAndPendingRowsGreyed()
    {
        TodoWidgetsApp app(300);
        QVERIFY(app.started);
        QTRY_VERIFY_WITH_TIMEOUT(app.window->isDataShown(), 10000);
        QTableView *table = app.window->todoTable();
        QAbstractItemModel *shown = table->model();
        QTRY_VERIFY(!app.window->todos()->isLoading());
        table->scrollToBottom();
        QTRY_VERIFY_WITH_TIMEOUT(!app.window->todos()->isLoadingMore(), 10000);
        table->scrollToBottom();
        QVERIFY(table->rowAt(0) > 0); // the first rows are out of sight

        app.window->addTodo(u"Buy milk"_s);
        const QModelIndex added = table->currentIndex();
        QCOMPARE(added.data().toString(), u"Buy milk"_s);
        QCOMPARE(added.row(), 0); // on top (no sort)
        QVERIFY(table->viewport()->rect().contains(table->visualRect(added))); // in sight
        QVERIFY(added.data(Qt::ForegroundRole).isValid()); // greyed
        const QModelIndex other = shown->index(3, TodoWindow::Title);
        QVERIFY(!other.data(Qt::ForegroundRole).isValid());
        QVERIFY(shown->setData(other, u"renamed"_s));
        QVERIFY(other.data(Qt::ForegroundRole).isValid()); // an edit on its way

        QTRY_VERIFY_WITH_TIMEOUT(!added.data(Qt::ForegroundRole).isValid(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!other.data(Qt::ForegroundRole).isValid(), 10000);
        QVERIFY(app.window->todos()->get(0).toMap().value(u"id"_s).toInt() > 0);
        QCOMPARE(table->currentIndex().data().toString(), u"Buy milk"_s);
    }

    // Edit → Undo / Redo with the keyboard: a title edited in the table (F2, typing, Return)
    // and a ticked box; Ctrl+Z puts the server's data back, Ctrl+Shift+Z sends it again, the
    // Edit menu names the change, and each step is one dataChanged of the row listing the
    // edited cell's own roles (the text and the editor's value; a box's check state).
    void ctrlZAndCtrlShiftZUndoAndRedoCellEditsOnTheServer()
    {
        TodoWidgetsApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        QTableView *table = app.window->todoTable();
        app.window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(app.window.get()));
        QAction *undo = app.window->undo()->undoAction();
        QAction *redo = app.window->undo()->redoAction();
        QVERIFY(!undo->isEnabled());
        const QModelIndex title = table->model()->index(0, TodoWindow::Title);
        const QString before = title.data().toString();
        auto rolesOfLastChange = [](const QSignalSpy &spy) {
            return spy.isEmpty() ? QList<int>() : spy.last().at(2).value<QList<int>>();
        };

        table->setFocus();
        table->setCurrentIndex(title);
        QTest::keyClick(table, Qt::Key_F2);
        auto *editor = table->viewport()->findChild<QLineEdit *>();
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, u"Buy oat milk"_s);
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(app.serverTitle(0), u"Buy oat milk"_s);
        QCOMPARE(undo->text(), u"Undo rename '%1'"_s.arg(before));
        QVERIFY(undo->isEnabled());
        QTRY_VERIFY(!app.window->todos()->isPending());

        QSignalSpy changed(app.window->todos(), &QAbstractItemModel::dataChanged);
        QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(title.data().toString(), before); // at once
        QCOMPARE(changed.size(), 1);
        QVERIFY(rolesOfLastChange(changed).contains(Qt::DisplayRole));
        QVERIFY(rolesOfLastChange(changed).contains(Qt::EditRole));
        QTRY_COMPARE(app.serverTitle(0), before);
        QCOMPARE(redo->text(), u"Redo rename '%1'"_s.arg(before));
        QCOMPARE(undo->isEnabled(), false);

        QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(title.data().toString(), u"Buy oat milk"_s);
        QTRY_COMPARE(app.serverTitle(0), u"Buy oat milk"_s);
        QCOMPARE(undo->text(), u"Undo rename '%1'"_s.arg(before));
        QTRY_VERIFY(!app.window->todos()->isPending());

        // A check box (Space on the Completed cell): its undo names it and lists CheckStateRole.
        const QModelIndex box = table->model()->index(0, TodoWindow::Completed);
        const bool wasDone = box.data(Qt::CheckStateRole).toInt() == Qt::Checked;
        table->setCurrentIndex(box);
        changed.clear();
        QTest::keyClick(table, Qt::Key_Space);
        QCOMPARE(changed.size(), 1);
        QVERIFY(rolesOfLastChange(changed).contains(Qt::CheckStateRole));
        QCOMPARE(undo->text(),
                 (wasDone ? u"Undo uncheck '%1'"_s : u"Undo check '%1'"_s).arg(u"Buy oat milk"_s));
        const QVariant id = app.window->todos()->get(0).toMap().value(u"id"_s);
        auto serverDone = [&] {
            return app.server.api()->item(u"/todos"_s, id.toInt()).value(u"completed"_s).toBool();
        };
        QTRY_COMPARE(serverDone(), !wasDone);
        QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE(serverDone(), wasDone);
        QCOMPARE(app.serverTitle(0), u"Buy oat milk"_s); // only the box was undone
    }

    // Delete (the Delete key), then Ctrl+Z: the todo is created again on the server, under a
    // new id, and shows again on top at once; Ctrl+Shift+Z deletes it again, by its new id.
    void ctrlZBringsBackADeletedTodo()
    {
        TodoWidgetsApp app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        QTableView *table = app.window->todoTable();
        app.window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(app.window.get()));
        CollectionModel *todos = app.window->todos();
        const QString title = todos->index(0, TodoWindow::Title).data().toString();
        const int id = todos->get(0).toMap().value(u"id"_s).toInt();
        auto firstId = [todos] { return todos->get(0).toMap().value(u"id"_s); };
        table->setFocus();
        table->setCurrentIndex(table->model()->index(0, TodoWindow::Title));

        QTest::keyClick(table, Qt::Key_Delete);
        QVERIFY(firstId().toInt() != id);
        QTRY_VERIFY(app.server.api()->item(u"/todos"_s, id).isEmpty());
        QCOMPARE(app.window->undo()->undoAction()->text(), u"Undo delete '%1'"_s.arg(title));

        QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(todos->index(0, TodoWindow::Title).data().toString(), title); // at once, on top
        QTRY_VERIFY(!todos->isPending());
        const int newId = firstId().toInt();
        QVERIFY(newId != id);
        QCOMPARE(app.server.api()->item(u"/todos"_s, newId).value(u"title"_s).toString(), title);
        QCOMPARE(app.window->undo()->redoAction()->text(), u"Redo delete '%1'"_s.arg(title));

        QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(firstId().toInt() != newId);
        QTRY_VERIFY(app.server.api()->item(u"/todos"_s, newId).isEmpty());
    }
};

QTEST_MAIN(tst_TodoWidgetsFeedback)
#include "tst_todowidgets_feedback.moc"
