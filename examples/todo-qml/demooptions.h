// The demo's command line, parsed with QCommandLineParser into a plain struct so main() stays
// short and the rules (ranges, which options need the embedded server) live in one place.
#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

struct DemoOptions
{
    QUrl apiUrl; //!< empty: start the embedded server and use it
    QUrl pushUrl; //!< with apiUrl: the server's WebSocket of changes (empty: none)
    int latencyMs = 0; //!< delay of every answer of the embedded server
    double failRate = 0; //!< fraction of mutations and list loads the embedded server fails (500)
    double refuseRate = 0; //!< fraction of mutations the embedded server refuses (422)
    int userId = 1; //!< the user whose todos are shown first
    bool serveOnly = false; //!< run only the embedded server (no window) until killed
    bool offline = false; //!< start with the Online switch off: nothing is sent until it is on
    bool inspector = false; //!< open the store inspector with the window (docs/inspector.md)
    QString screenshotFile; //!< non-empty: render offscreen, save a PNG, exit
    int screenshotTimeoutMs = 20000; //!< give up (exit 1) if no data is shown by then
};

//! What parseDemoOptions() found: options to run with, or text to print and an exit code.
struct DemoCommandLine
{
    DemoOptions options;
    bool exitNow = false; //!< true for --help, --version and errors
    int exitCode = 0; //!< 0 after --help/--version, 2 after a usage error
    QString message; //!< help text, version, or "<program>: error: ..." (stderr, exit code 2)
};

//! The program that parses: its name (in --version and in errors), what --help says it is, and
//! whether it has the window-less --serve mode. Both apps on the embedded server share the rules.
struct DemoProgram
{
    QString name;
    QString description;
    bool canServe = false;
};
//! dataclient-demo, the Qt Quick app.
DemoProgram qmlDemoProgram();

//! Parses \a arguments (argv, with the program name first) for \a program. Needs no
//! QCoreApplication, so the platform (offscreen for screenshots) can be chosen before the
//! application object exists.
DemoCommandLine parseDemoOptions(const QStringList &arguments,
                                 const DemoProgram &program = qmlDemoProgram());
//! The same, from main()'s arguments (read before the application object exists).
DemoCommandLine parseDemoOptions(int argc, char **argv,
                                 const DemoProgram &program = qmlDemoProgram());

//! Before the application object exists: with --screenshot, or with no display at all (no
//! DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM), selects the offscreen platform. Returns true in
//! the second case: the program then renders a screenshot instead of opening a window.
bool prepareDisplay(const DemoOptions &options);
