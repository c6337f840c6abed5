// examples/todo-widgets, offscreen: the program's --screenshot shows users and todos; in-process
// against the demo's embedded server, a cell edit and a form edit reach the server (one PATCH
// each) and a refused edit is rolled back in the table and the form and reported; while another
// user's todos stand in for the selected user's, they are greyed and cannot be edited.
#include "embeddedserver.h"
#include "docimages.h"
#include "imagerows.h"
#include "processrun.h"
#include "todowindow.h"

#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QAbstractItemModelTester>
#include <QtGui/QAction>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListView>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

class tst_TodoWidgets : public QObject
{
    Q_OBJECT

    struct App
    {
        explicit App(int latencyMs = 0)
        {
            QString error;
            started = server.start(latencyMs, 0, &error);
            window = std::make_unique<TodoWindow>(server.url());
            tester = std::make_unique<QAbstractItemModelTester>(
                window->todos(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            window->show();
        }
        int patchCount() const
        {
            int count = 0;
            const auto requests = server.server()->requests();
            for (const auto &request : requests)
                count += request.method == "PATCH" ? 1 : 0;
            return count;
        }
        QString serverTitle(int row) const
        {
            const QVariant id = window->todos()->get(row).toMap().value(u"id"_s);
            return server.api()->item(u"/todos"_s, id.toInt()).value(u"title"_s).toString();
        }

        EmbeddedServer server;
        bool started = false;
        std::unique_ptr<TodoWindow> window;
        std::unique_ptr<QAbstractItemModelTester> tester;
    };

private Q_SLOTS:
    void screenshotShowsUsersAndTodos()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(u"widgets.png"_s);
        const ProcessRun run
            = runProcess(QStringLiteral(TODO_WIDGETS_EXECUTABLE), {u"--screenshot"_s, file});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"saved "_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"users: ready, 10 rows; todos: ready, 20 rows"_s),
                 qPrintable(run.out));
        const QImage image(file);
        QVERIFY2(!image.isNull(), "the PNG does not load");
        const int w = image.width();
        const int h = image.height();
        // Left: the users (10 names); right: the todo table (more rows than fit).
        QVERIFY(ImageRows::textLines(image, QRect(0, h / 10, w / 5, h * 8 / 10)) >= 8);
        QVERIFY(ImageRows::textLines(image, QRect(w * 3 / 10, h / 10, w * 4 / 10, h * 7 / 10))
                >= 10);
        QVERIFY(DocImages::publish(image, u"todo-widgets.png"_s)); // docs/widgets.md's picture
    }

    // Its own command line: --help says what it is and offers what it supports (no --serve),
    // --version and errors name it.
    void optionsAreTheWidgetsApps()
    {
        const QString program = QStringLiteral(TODO_WIDGETS_EXECUTABLE);
        const ProcessRun help = runProcess(program, {u"--help"_s});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains(u"a Qt Widgets app"_s), qPrintable(help.out));
        QVERIFY(!help.out.contains(u"Qt Quick"_s));
        for (const QString &option :
             {u"--url"_s, u"--latency"_s, u"--fail-rate"_s, u"--refuse-rate"_s, u"--user"_s,
              u"--offline"_s, u"--screenshot"_s, u"--timeout"_s})
            QVERIFY2(help.out.contains(option), qPrintable(option));
        QVERIFY(!help.out.contains(u"--serve"_s));

        const ProcessRun version = runProcess(program, {u"--version"_s});
        QCOMPARE(version.exitCode, 0);
        QVERIFY2(version.out.startsWith(u"dataclient-todo-widgets (DataClient "_s),
                 qPrintable(version.out));

        const ProcessRun serve = runProcess(program, {u"--serve"_s});
        QCOMPARE(serve.exitCode, 2);
        QVERIFY2(serve.err.contains(u"dataclient-todo-widgets: error: Unknown option 'serve'"_s),
                 qPrintable(serve.err));
        QVERIFY(serve.err.contains(u"Run 'dataclient-todo-widgets --help'"_s));
        QVERIFY(!serve.err.contains(u"dataclient-demo"_s));
    }

    // --offline: nothing is read until the toolbar's Online switch is on; then the data shows.
    void offlineSendsNothingUntilTheOnlineSwitch()
    {
        EmbeddedServer server;
        QString error;
        QVERIFY2(server.start(0, 0, &error), qPrintable(error));
        TodoWindow window(server.url(), 1, false);
        window.show();
        QVERIFY(!window.onlineAction()->isChecked());
        QTest::qWait(200); // (nothing to await: the point is that nothing happens)
        QCOMPARE(server.server()->requestCount(), 0);
        QVERIFY(!window.isDataShown());
        QVERIFY2(window.statusText().startsWith(u"offline; users: loading, 0 rows, paused"_s),
                 qPrintable(window.statusText()));

        window.onlineAction()->trigger(); // a click on the switch
        QVERIFY(window.controller()->isOnline());
        QTRY_VERIFY(window.isDataShown());
        QVERIFY(server.server()->requestCount() >= 2);
        QVERIFY(!window.statusText().contains(u"offline"_s));
    }

    // A click on the Title header sorts the table through a QSortFilterProxyModel: an edit
    // moves its row to its sorted place with the selection on it, a page loaded by scrolling
    // lands in order, and the proxy never resets (so neither selection nor scroll jump).
    void clickingAHeaderSortsWithoutResets()
    {
        App app;
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
        App app;
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
        App app;
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
        App app(300);
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

    void cellAndFormEditsReachTheServer()
    {
        App app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        CollectionModel *todos = app.window->todos();
        const QModelIndex title = app.window->todoTable()->model()->index(1, TodoWindow::Title);
        QVERIFY(app.window->todoTable()->model()->setData(title, u"edited in the table"_s));
        QCOMPARE(title.data().toString(), u"edited in the table"_s); // optimistic
        QTRY_COMPARE(app.serverTitle(1), u"edited in the table"_s);
        QCOMPARE(app.patchCount(), 1);

        // The form follows the table's current row and edits through the same model.
        app.window->todoTable()->setCurrentIndex(
            app.window->todoTable()->model()->index(2, TodoWindow::Title));
        QCOMPARE(app.window->formTitle()->text(), todos->index(2, 0).data().toString());
        app.window->formTitle()->setText(u"edited in the form"_s);
        QTest::keyClick(app.window->formTitle(), Qt::Key_Return);
        QTRY_COMPARE(app.serverTitle(2), u"edited in the form"_s);
        QCOMPARE(app.patchCount(), 2);
        QCOMPARE(todos->index(2, 0).data().toString(), u"edited in the form"_s);
    }

    void newAndDeleteReachTheServer()
    {
        App app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        CollectionModel *todos = app.window->todos();
        auto serverTitles = [&app] {
            QStringList titles;
            const QJsonArray items = app.server.api()->collection(u"/todos"_s);
            for (const QJsonValue &item : items)
                titles.append(item[u"title"_s].toString());
            return titles;
        };
        app.window->addTodo(u"added by the test"_s);
        QTRY_VERIFY(serverTitles().contains(u"added by the test"_s));

        app.window->todoTable()->setCurrentIndex(
            app.window->todoTable()->model()->index(0, TodoWindow::Title));
        const int id = todos->get(0).toMap().value(u"id"_s).toInt();
        app.window->deleteSelectedTodo();
        QVERIFY(todos->get(0).toMap().value(u"id"_s).toInt() != id); // gone at once
        QTRY_VERIFY(app.server.api()->item(u"/todos"_s, id).isEmpty());
    }

    // Switched to another user, the previous user's rows stay while the new ones load: disabled
    // (the table greys them), not editable in the table or the form, and Delete does nothing.
    void placeholderRowsAreGreyedAndNotEditable()
    {
        App app(400);
        QVERIFY(app.started);
        QTRY_VERIFY_WITH_TIMEOUT(app.window->isDataShown(), 10000);
        CollectionModel *todos = app.window->todos();
        QTRY_VERIFY(!todos->isLoading());
        const QModelIndex title = todos->index(0, TodoWindow::Title);
        QVERIFY(todos->flags(title) & Qt::ItemIsEnabled);
        QVERIFY(todos->flags(title) & Qt::ItemIsEditable);
        QVERIFY(app.window->formTitle()->isEnabled());
        const int firstId = todos->get(0).toMap().value(u"id"_s).toInt();

        const int otherUser = app.window->users()->get(2).toMap().value(u"id"_s).toInt();
        QVERIFY(otherUser > 1);
        app.window->userList()->setCurrentIndex(app.window->users()->index(2));
        QVERIFY(todos->isPlaceholder());
        QVERIFY(todos->rowCount() > 0);
        for (int row = 0; row < todos->rowCount(); ++row) {
            QCOMPARE(todos->get(row).toMap().value(u"userId"_s).toInt(), 1);
            for (int column : {TodoWindow::Title, TodoWindow::Completed}) {
                const Qt::ItemFlags flags = todos->flags(todos->index(row, column));
                QVERIFY(!(flags & Qt::ItemIsEnabled)); // drawn greyed
                QVERIFY(!(flags & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable)));
            }
        }
        QVERIFY(!app.window->formTitle()->isEnabled());
        QVERIFY(!app.window->formCompleted()->isEnabled());
        QAbstractItemModel *shown = app.window->todoTable()->model();
        QVERIFY(!shown->setData(shown->index(0, TodoWindow::Title), u"not mine"_s));
        app.window->todoTable()->setCurrentIndex(shown->index(0, TodoWindow::Title));
        app.window->deleteSelectedTodo();
        QCOMPARE(todos->get(0).toMap().value(u"id"_s).toInt(), firstId);

        QTRY_VERIFY_WITH_TIMEOUT(!todos->isPlaceholder() && todos->rowCount() > 0, 5000);
        QCOMPARE(todos->get(0).toMap().value(u"userId"_s).toInt(), otherUser);
        QVERIFY(todos->flags(todos->index(0, TodoWindow::Title)) & Qt::ItemIsEnabled);
        QVERIFY(todos->flags(todos->index(0, TodoWindow::Title)) & Qt::ItemIsEditable);
        QVERIFY(app.window->formTitle()->isEnabled());
        QVERIFY(app.window->formCompleted()->isEnabled());
        QCOMPARE(app.patchCount(), 0);
        QVERIFY(!app.server.api()->item(u"/todos"_s, firstId).isEmpty()); // not deleted
    }

    void refusedEditIsRolledBackAndReported()
    {
        App app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        CollectionModel *todos = app.window->todos();
        app.window->todoTable()->setCurrentIndex(
            app.window->todoTable()->model()->index(0, TodoWindow::Title));
        const QModelIndex done = todos->index(0, TodoWindow::Completed);
        const bool before = done.data(Qt::EditRole).toBool();
        QCOMPARE(app.window->formCompleted()->isChecked(), before);
        QSignalSpy failed(todos, &CollectionModel::writeFailed);
        app.server.setFailureRate(1); // every write fails
        QVERIFY(todos->setData(done, before ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(done.data(Qt::EditRole).toBool(), !before);
        QCOMPARE(app.window->formCompleted()->isChecked(), !before);
        QVERIFY(failed.wait());
        QCOMPARE(done.data(Qt::EditRole).toBool(), before);
        QCOMPARE(app.window->formCompleted()->isChecked(), before);
        const QString title = todos->index(0, TodoWindow::Title).data().toString();
        QVERIFY2(app.window->statusText().contains(
                     u"Could not save '%1': the server refused it (500)."_s.arg(title)),
                 qPrintable(app.window->statusText()));
        QCOMPARE(app.patchCount(), 3); // the example's resources retry twice (as the QML demo's)
    }
};

QTEST_MAIN(tst_TodoWidgets)
#include "tst_todowidgets.moc"
