// dataclient-todo-widgets: the todo app of examples/todo-qml, with Qt Widgets, on the same
// embedded REST server unless --url is given. Its options are the QML demo's rules (the demo's
// demooptions.cpp) under its own name, without --serve: --url, --latency, --fail-rate,
// --refuse-rate, --user, --offline, --inspector, --screenshot FILE, --timeout.
#include "demooptions.h"
#include "embeddedserver.h"
#include "todowindow.h"

#include <QtCore/QDir>
#include <QtCore/QTextStream>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtWidgets/QApplication>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

// --screenshot: waits (on the window's signal, never a sleep) until users and todos show, saves
// the window as a PNG and quits; quits with 1 and the status line if that does not happen.
void screenshotWhenShown(TodoWindow *window, const QString &file, int timeoutMs)
{
    auto save = [window, file] {
        if (!window->isDataShown() && window->controller()->isOnline())
            return; // (offline there is nothing to wait for)
        const bool saved = window->grab().save(file);
        QTextStream(saved ? stdout : stderr)
            << (saved ? u"saved "_s : u"dataclient-todo-widgets: error: cannot write "_s) << file
            << Qt::endl
            << window->statusText() << Qt::endl;
        QCoreApplication::exit(saved ? 0 : 1);
    };
    // Queued: the views lay out the new rows before the grab.
    QObject::connect(window, &TodoWindow::dataShownChanged, window, save, Qt::QueuedConnection);
    QTimer::singleShot(0, window, save);
    QTimer::singleShot(timeoutMs, window, [window] {
        QTextStream(stderr) << "dataclient-todo-widgets: error: no data shown in time: "
                            << window->statusText() << Qt::endl;
        QCoreApplication::exit(1);
    });
}

DemoProgram widgetsProgram()
{
    return {u"dataclient-todo-widgets"_s,
            u"DataClient todo example: a Qt Widgets app (QListView, QTableView, a form) on "
            "DataClient::Models."_s,
            false};
}

} // namespace

int main(int argc, char **argv)
{
    const DemoCommandLine commandLine = parseDemoOptions(argc, argv, widgetsProgram());
    if (commandLine.exitNow) {
        QTextStream(commandLine.exitCode == 0 ? stdout : stderr) << commandLine.message << Qt::endl;
        return commandLine.exitCode;
    }
    DemoOptions options = commandLine.options;
    // With no display the app still shows that it works: it renders one screenshot.
    const bool headless = prepareDisplay(options);
    QApplication app(argc, argv);
    QApplication::setApplicationName(u"dataclient-todo-widgets"_s);
    if (headless) {
        options.screenshotFile = QDir(QCoreApplication::applicationDirPath())
                                     .filePath(u"dataclient-todo-widgets.png"_s);
        QTextStream(stdout) << "No display found: rendering offscreen to " << options.screenshotFile
                            << Qt::endl;
    }

    std::unique_ptr<EmbeddedServer> server;
    QString apiUrl = options.apiUrl.toString();
    if (apiUrl.isEmpty()) {
        server = std::make_unique<EmbeddedServer>();
        server->setRefuseRate(options.refuseRate);
        if (!server->startAndReport(options.latencyMs, options.failRate,
                                    u"dataclient-todo-widgets"_s))
            return 1;
        apiUrl = server->url();
    }

    TodoWindow window(apiUrl, options.userId, !options.offline);
    if (options.inspector)
        window.inspectorAction()->setChecked(true);
    window.show();
    if (!options.screenshotFile.isEmpty())
        screenshotWhenShown(&window, options.screenshotFile, options.screenshotTimeoutMs);
    return app.exec();
}
