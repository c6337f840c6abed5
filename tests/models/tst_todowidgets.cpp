// examples/todo-widgets, offscreen: the program's --screenshot shows users and todos, its options
// are its own (--help, --version, errors; --offline waits for the Online switch); in-process
// against the demo's embedded server, a cell edit and a form edit reach the server (one PATCH
// each) and a refused edit is rolled back in the table and the form and reported; while another
// user's todos stand in for the selected user's, they are greyed and cannot be edited.
#include "docimages.h"
#include "imagerows.h"
#include "processrun.h"
#include "todowidgetsapp.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtGui/QAction>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QTableView>
#include <QSignalSpy>
#include <QTest>

class tst_TodoWidgets : public QObject
{
    Q_OBJECT

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

    void cellAndFormEditsReachTheServer()
    {
        TodoWidgetsApp app;
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
        TodoWidgetsApp app;
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
        TodoWidgetsApp app(400);
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
        TodoWidgetsApp app;
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
