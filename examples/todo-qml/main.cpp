// dataclient-demo: the todo app of examples/todo-qml (what `./dev demo` runs).
// It parses the command line, starts the embedded REST server unless --url is given, loads
// Main.qml and, with --screenshot (or when there is no display), renders one PNG and exits.
#include "demooptions.h"
#include "embeddedserver.h"
#include "screenshot.h"

#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/livefeed.h>
#include <DataClient/websocketsource.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>
#include <QtCore/QTextStream>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickWindow>
#include <QtQuickControls2/QQuickStyle>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

bool startServer(EmbeddedServer *server, const DemoOptions &options)
{
    server->setRefuseRate(options.refuseRate);
    return server->startAndReport(options.latencyMs, options.failRate, u"dataclient-demo"_s);
}

quint16 readPort(const QString &file)
{
    QFile in(file);
    return in.open(QIODevice::ReadOnly) ? in.readAll().trimmed().toUShort() : 0;
}

void writePort(const QString &file, quint16 port)
{
    QDir().mkpath(QFileInfo(file).absolutePath());
    QFile out(file);
    if (out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        out.write(QByteArray::number(port));
}

// --serve: the REST API without a window, for trying other clients against it.
int serveOnly(int argc, char **argv, const DemoOptions &options)
{
    QCoreApplication app(argc, argv);
    EmbeddedServer server;
    if (!startServer(&server, options))
        return 1;
    QTextStream(stdout) << "Try: curl " << server.url() << "/todos?userId=1" << Qt::endl
                        << "Windows that show each other's changes: dataclient-demo --url "
                        << server.url() << " --push-url " << server.pushUrl() << Qt::endl
                        << "Serving until stopped (Ctrl+C)." << Qt::endl;
    return app.exec();
}

} // namespace

int main(int argc, char **argv)
{
    const DemoCommandLine commandLine = parseDemoOptions(argc, argv);
    if (commandLine.exitNow) {
        QTextStream(commandLine.exitCode == 0 ? stdout : stderr) << commandLine.message << Qt::endl;
        return commandLine.exitCode;
    }
    DemoOptions options = commandLine.options;
    if (options.serveOnly)
        return serveOnly(argc, argv, options);

    // With no display the app can still show that it works: it renders one screenshot.
    const bool headless = prepareDisplay(options);

    QGuiApplication app(argc, argv);
    if (headless) {
        // Next to the executable (the build tree), not in the current directory (the sources).
        options.screenshotFile
            = QDir(QCoreApplication::applicationDirPath()).filePath(u"dataclient-demo.png"_s);
        QTextStream(stdout) << "No display found: rendering offscreen to " << options.screenshotFile
                            << " (choose the file with --screenshot FILE)." << Qt::endl;
    }
    QGuiApplication::setApplicationName(u"dataclient-demo"_s);
    QGuiApplication::setOrganizationName(u"DataClient"_s);
    if (qEnvironmentVariableIsEmpty("QT_QUICK_CONTROLS_STYLE"))
        QQuickStyle::setStyle(u"Fusion"_s);

    // The store and the outbox persist under the app's data folder (docs/offline.md): started
    // with --offline after a run online, the demo shows the last data at once and keeps the
    // edits made offline until the Online switch is on. What is kept is keyed by URL, so the
    // embedded server asks for the port of the last run first.
    DataClient::Controller *controller = DataClient::Controller::instance();
    controller->setPersistence(u"default"_s);
    const QString portFile = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
        + u"/embedded-server-port"_s;

    std::unique_ptr<EmbeddedServer> server;
    QString apiUrl = options.apiUrl.toString();
    QString pushUrl = options.pushUrl.toString();
    if (apiUrl.isEmpty()) {
        server = std::make_unique<EmbeddedServer>();
        server->setPreferredPort(readPort(portFile));
        if (!startServer(server.get(), options))
            return 1;
        apiUrl = server->url();
        pushUrl = server->pushUrl();
        writePort(portFile, quint16(QUrl(apiUrl).port()));
    }

    // The header's Online switch drives the app's own connectivity source (Controller.online in
    // QML), not the machine's network, so --offline and the switch work the same everywhere.
    auto *connectivity = new DataClient::Connectivity(controller);
    connectivity->setOnline(!options.offline);
    controller->setConnectivity(connectivity);

    // The server's WebSocket of changes: what other windows change shows here at once, without
    // polling (docs/realtime.md). Updates and removals of todos are written to the store, where
    // every view of them sees them.
    if (!pushUrl.isEmpty()) {
        DataClient::LiveMapping mapping;
        mapping.addEntity(u"Todo"_s,
                          DataClient::Schema::entity(DataClient::EntitySchema(u"Todo"_s)));
        auto *source = new DataClient::WebSocketSource(QUrl(pushUrl), controller);
        new DataClient::LiveFeed(controller, source, mapping, controller);
    }

    QQmlApplicationEngine engine;
    // The DataClient QML module: <build>/qml next to <build>/bin in the build tree; the demo's
    // own module is compiled in under qrc:/qt/qml, which Qt 6.4 does not import from by default.
    engine.addImportPath(QDir(QCoreApplication::applicationDirPath()).filePath(u"../qml"_s));
    engine.addImportPath(u"qrc:/qt/qml"_s);
    engine.setInitialProperties({
        {u"apiUrl"_s, apiUrl},
        {u"embeddedServer"_s, bool(server)},
        {u"initialUserId"_s, options.userId},
        {u"inspectorOpen"_s, options.inspector},
    });
    QObject::connect(
        &engine, &QQmlApplicationEngine::objectCreationFailed, &app,
        [] { QCoreApplication::exit(1); }, Qt::QueuedConnection);
    engine.load(QUrl(u"qrc:/qt/qml/TodoDemo/Main.qml"_s));
    if (engine.rootObjects().isEmpty())
        return 1;

    if (!options.screenshotFile.isEmpty()) {
        auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
        if (!window) {
            QTextStream(stderr) << "dataclient-demo: error: Main.qml's root is not a window"
                                << Qt::endl;
            return 1;
        }
        new Screenshot(window, options.screenshotFile, options.screenshotTimeoutMs,
                       "readyForScreenshot");
    }
    return app.exec();
}
