// examples/todo-widgets, offscreen: the program's --screenshot shows users and todos; in-process
// against the demo's embedded server, a cell edit and a form edit reach the server (one PATCH
// each) and a refused edit is rolled back in the table and the form and reported; while another
// user's todos stand in for the selected user's, they are greyed and cannot be edited.
#include "embeddedserver.h"
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
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QTableView>
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
    }

    void cellAndFormEditsReachTheServer()
    {
        App app;
        QVERIFY(app.started);
        QTRY_VERIFY(app.window->isDataShown());
        CollectionModel *todos = app.window->todos();
        const QModelIndex title = todos->index(1, TodoWindow::Title);
        QVERIFY(app.window->todoTable()->model()->setData(title, u"edited in the table"_s));
        QCOMPARE(title.data().toString(), u"edited in the table"_s); // optimistic
        QTRY_COMPARE(app.serverTitle(1), u"edited in the table"_s);
        QCOMPARE(app.patchCount(), 1);

        // The form follows the table's current row and edits through the same model.
        app.window->todoTable()->setCurrentIndex(todos->index(2, TodoWindow::Title));
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

        app.window->todoTable()->setCurrentIndex(todos->index(0, TodoWindow::Title));
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
        QVERIFY(!app.window->todoTable()->model()->setData(title, u"not mine"_s));
        app.window->todoTable()->setCurrentIndex(title);
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
        app.window->todoTable()->setCurrentIndex(todos->index(0, TodoWindow::Title));
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
        QVERIFY2(app.window->statusText().contains(u"Could not save the change"_s),
                 qPrintable(app.window->statusText()));
        QCOMPARE(app.patchCount(), 3); // the example's resources retry twice (as the QML demo's)
    }
};

QTEST_MAIN(tst_TodoWidgets)
#include "tst_todowidgets.moc"
