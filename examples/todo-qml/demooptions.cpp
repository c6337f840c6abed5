#include "demooptions.h"

#include <DataClient/version.h>

#include <QtCore/QCommandLineParser>

using namespace Qt::StringLiterals;

namespace {

DemoCommandLine usageError(const DemoProgram &program, const QString &what)
{
    DemoCommandLine result;
    result.exitNow = true;
    result.exitCode = 2;
    result.message = u"%1: error: %2\nRun '%1 --help' for the options."_s.arg(program.name, what);
    return result;
}

// Parses an integer option in [min, max]; on failure sets *error to a sentence naming the option.
int intOption(const QCommandLineParser &parser, const QString &name, int min, int max, int fallback,
              QString *error)
{
    if (!parser.isSet(name))
        return fallback;
    const QString text = parser.value(name);
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < min || value > max)
        *error = u"--%1 expects a whole number from %2 to %3, got '%4'"_s.arg(name)
                     .arg(min)
                     .arg(max)
                     .arg(text);
    return value;
}

// Parses a probability option (0 to 1, 0 when absent); on failure sets *error.
double probabilityOption(const QCommandLineParser &parser, const QString &name, QString *error)
{
    if (!parser.isSet(name))
        return 0;
    const QString text = parser.value(name);
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !(value >= 0 && value <= 1)) {
        *error = u"--%1 expects a probability from 0 to 1 (e.g. 0.3), got '%2'"_s.arg(name, text);
        return 0;
    }
    return value;
}

} // namespace

DemoProgram qmlDemoProgram()
{
    return {u"dataclient-demo"_s,
            u"DataClient todo demo: a Qt Quick app on a normalized REST data layer."_s, true};
}

DemoCommandLine parseDemoOptions(const QStringList &arguments, const DemoProgram &program)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        program.description
        + u"\nBy default it starts an embedded REST server (users and todos) on 127.0.0.1."_s);
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    parser.addOptions({
        {u"url"_s,
         u"Use the REST API at <url> (same shape as the embedded one: /users, /todos) instead of "
         "starting the embedded server."_s,
         u"url"_s},
        {u"push-url"_s,
         u"With --url: the WebSocket the server pushes its changes on (the embedded server prints "
         "it as 'Changes pushed'), so that this window sees other clients' changes at once."_s,
         u"url"_s},
        {u"latency"_s, u"Delay every answer of the embedded server by <ms> (0-60000)."_s, u"ms"_s},
        {u"fail-rate"_s,
         u"Make that fraction (0-1) of the embedded server's writes and list loads fail with "
         "500, to watch retries: the client retries them, so changes mostly get through late."_s,
         u"p"_s},
        {u"refuse-rate"_s,
         u"Make that fraction (0-1) of the embedded server's writes answer 422, which is not "
         "retried: watch optimistic changes roll back with an error banner."_s,
         u"p"_s},
        {u"user"_s, u"Show the todos of user <id> first (default 1)."_s, u"id"_s},
        {u"offline"_s,
         u"Start offline: nothing is sent until the window's Online switch is turned on "
         "(the app's own connectivity source, not the machine's network)."_s},
        {u"inspector"_s,
         u"Open the store inspector (entities, results, requests, outbox, status) with the "
         "window; Ctrl+Shift+D toggles it."_s},
        {u"screenshot"_s,
         u"Render offscreen, wait until data is shown, save a PNG to <file> and exit."_s,
         u"file"_s},
        {u"timeout"_s,
         u"With --screenshot: fail if no data (with --offline: the offline banner) is shown "
         "within <ms> (default 20000)."_s,
         u"ms"_s},
    });
    if (program.canServe)
        parser.addOption({u"serve"_s,
                          u"Only run the embedded server (no window): print its URL and serve "
                          "until stopped, e.g. for the getting-started apps."_s});

    if (!parser.parse(arguments))
        return usageError(program, parser.errorText());
    if (parser.isSet(helpOption) || parser.isSet(versionOption)) {
        DemoCommandLine result;
        result.exitNow = true;
        result.message = parser.isSet(helpOption)
            ? parser.helpText()
            : u"%1 (DataClient %2)"_s.arg(program.name, DataClient::version());
        return result;
    }
    if (!parser.positionalArguments().isEmpty())
        return usageError(program,
                          u"unexpected argument '%1' (options start with --)"_s.arg(
                              parser.positionalArguments().constFirst()));

    DemoCommandLine result;
    DemoOptions &options = result.options;
    QString error;
    if (parser.isSet(u"url"_s)) {
        const QString text = parser.value(u"url"_s);
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)
            || url.host().isEmpty() || url.hasQuery() || url.hasFragment())
            return usageError(program,
                              u"--url expects an http(s) base URL such as http://127.0.0.1:8080 or "
                              "https://example.com/api, got '%1'"_s.arg(text));
        options.apiUrl = url.adjusted(QUrl::StripTrailingSlash);
        for (const QString &embeddedOnly : {u"latency"_s, u"fail-rate"_s, u"refuse-rate"_s}) {
            if (parser.isSet(embeddedOnly))
                return usageError(program,
                                  u"--%1 only applies to the embedded server; it cannot be "
                                  "combined with --url"_s.arg(embeddedOnly));
        }
    }
    if (parser.isSet(u"push-url"_s)) {
        const QUrl push(parser.value(u"push-url"_s), QUrl::StrictMode);
        if (!push.isValid() || (push.scheme() != "ws"_L1 && push.scheme() != "wss"_L1)
            || options.apiUrl.isEmpty())
            return usageError(program,
                              u"--push-url expects a ws(s) URL such as ws://127.0.0.1:8081/live, "
                              "with --url (the embedded server has its own), got '%1'"_s.arg(
                                  parser.value(u"push-url"_s)));
        options.pushUrl = push;
    }
    options.latencyMs = intOption(parser, u"latency"_s, 0, 60000, 0, &error);
    options.userId = intOption(parser, u"user"_s, 1, 1000000, 1, &error);
    options.screenshotTimeoutMs = intOption(parser, u"timeout"_s, 100, 600000, 20000, &error);
    if (!error.isEmpty())
        return usageError(program, error);
    options.failRate = probabilityOption(parser, u"fail-rate"_s, &error);
    options.refuseRate = probabilityOption(parser, u"refuse-rate"_s, &error);
    if (!error.isEmpty())
        return usageError(program, error);
    if (parser.isSet(u"screenshot"_s)) {
        options.screenshotFile = parser.value(u"screenshot"_s);
        if (!options.screenshotFile.endsWith(u".png"_s, Qt::CaseInsensitive))
            return usageError(program,
                              u"--screenshot expects a file name ending in .png, got '%1'"_s.arg(
                                  options.screenshotFile));
    } else if (parser.isSet(u"timeout"_s)) {
        return usageError(program, u"--timeout only applies with --screenshot"_s);
    }
    options.serveOnly = program.canServe && parser.isSet(u"serve"_s);
    options.offline = parser.isSet(u"offline"_s);
    options.inspector = parser.isSet(u"inspector"_s);
    if (options.serveOnly && options.offline)
        return usageError(program,
                          u"--serve runs no window, so there is nothing to take offline; "
                          "--offline needs the app"_s);
    if (options.serveOnly && (parser.isSet(u"url"_s) || parser.isSet(u"screenshot"_s)))
        return usageError(program,
                          u"--serve runs the embedded server alone; it cannot be combined with "
                          "--url or --screenshot"_s);
    return result;
}

bool prepareDisplay(const DemoOptions &options)
{
    const bool hasDisplay = !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    const bool headless = options.screenshotFile.isEmpty() && !hasDisplay;
    if ((headless || !options.screenshotFile.isEmpty())
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    return headless;
}

DemoCommandLine parseDemoOptions(int argc, char **argv, const DemoProgram &program)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    return parseDemoOptions(arguments, program);
}
