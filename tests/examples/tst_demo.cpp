// dataclient-demo (examples/todo-qml) as a user or CI runs it: --screenshot renders offscreen and
// the PNG shows rows of users and todos; bad options fail with a clear message; --url works
// against another server of the same shape; no data within --timeout is a failure.
#include "docimages.h"
#include "imagerows.h"
#include "processrun.h"

#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QProcess>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_Demo : public QObject
{
    Q_OBJECT

private:
    static ProcessRun runDemo(const QStringList &arguments)
    {
        return runProcess(QStringLiteral(DEMO_EXECUTABLE), arguments);
    }
    // The demo persists its store (docs/offline.md) under XDG_DATA_HOME: every test function
    // starts with its own, empty one, so no run sees what an earlier one kept.
    void freshDataFolder(const QString &name)
    {
        const QString folder = dir.filePath(u"data-"_s + name);
        QVERIFY(QDir().mkpath(folder));
        qputenv("XDG_DATA_HOME", QFile::encodeName(folder));
    }

    QTemporaryDir dir;

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir.isValid()); }
    void init() { freshDataFolder(QString::fromLatin1(QTest::currentTestFunction())); }

    void screenshotShowsUserAndTodoRows()
    {
        const QString file = dir.filePath(u"demo.png"_s);
        const ProcessRun run = runDemo({u"--screenshot"_s, file});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"saved "_s), qPrintable(run.out));

        QImage image(file);
        QVERIFY2(!image.isNull(), "the PNG does not load");
        QVERIFY(image.width() >= 800 && image.height() >= 500);
        const int w = image.width();
        const int h = image.height();
        // Left column: users; middle: todos (one page is 20 rows, more than fit).
        const int userLines = ImageRows::textLines(image, QRect(0, h / 10, w / 5, h * 8 / 10));
        const int todoLines
            = ImageRows::textLines(image, QRect(w / 4, h / 5, w * 2 / 5, h * 7 / 10));
        qInfo("text lines seen: %d in the user column, %d in the todo column", userLines,
              todoLines);
        QVERIFY2(userLines >= 6, qPrintable(u"user rows seen: %1"_s.arg(userLines)));
        QVERIFY2(todoLines >= 10, qPrintable(u"todo rows seen: %1"_s.arg(todoLines)));
        QVERIFY(DocImages::publish(image, u"dataclient-demo.png"_s)); // the README's picture
    }

    // --offline: the window shows the offline banner over queries that wait (paused), and
    // nothing is loaded; the screenshot is taken once the banner shows.
    void offlineScreenshotShowsTheBannerAndPausedQueries()
    {
        const QString file = dir.filePath(u"offline.png"_s);
        const ProcessRun run = runDemo({u"--offline"_s, u"--screenshot"_s, file});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        // The status line: every query (users, todos, the live panel) waits for the network.
        QVERIFY2(run.out.contains(u": offline; users: loading, 0 rows, paused; "_s),
                 qPrintable(run.out));
        QCOMPARE(run.out.count(u", paused"_s), 3);

        QImage image(file);
        QVERIFY2(!image.isNull(), "the PNG does not load");
        // The banner: a strip of its colour (#fff4ce) across the window under the tool bar.
        int bannerPixels = 0;
        for (int y = 0; y < image.height() / 5; ++y) {
            for (int x = 0; x < image.width(); x += 4)
                bannerPixels += image.pixel(x, y) == qRgb(0xff, 0xf4, 0xce);
        }
        QVERIFY2(bannerPixels > image.width() / 4 * 10,
                 qPrintable(u"banner pixels seen: %1"_s.arg(bannerPixels)));
        // The user column shows no rows: nothing was loaded.
        const int users = ImageRows::textLines(
            image, QRect(0, image.height() / 5, image.width() / 5, image.height() * 7 / 10));
        QCOMPARE(users, 0);
    }

    // A run online persists the store; the next start, offline, shows that data at
    // once (no request can be answered: nothing is sent offline) with the queries paused.
    void offlineAfterARunOnlineShowsTheLastData()
    {
        const ProcessRun online = runDemo({u"--screenshot"_s, dir.filePath(u"online.png"_s)});
        QVERIFY2(online.exitCode == 0, qPrintable(online.err));
        const ProcessRun offline
            = runDemo({u"--offline"_s, u"--screenshot"_s, dir.filePath(u"kept.png"_s)});
        QVERIFY2(offline.exitCode == 0, qPrintable(offline.err));
        static const QRegularExpression shown(
            u"offline; users: \\w+, ([0-9]+) rows, paused; todos: \\w+, ([0-9]+) rows, paused"_s);
        const QRegularExpressionMatch match = shown.match(offline.out);
        QVERIFY2(match.hasMatch(), qPrintable(offline.out));
        QVERIFY2(match.captured(1).toInt() > 0 && match.captured(2).toInt() > 0,
                 qPrintable(offline.out));
    }

    // `./dev demo` on a machine without a display: a screenshot instead of a window.
    void noDisplayRendersAScreenshotNextToTheExecutable()
    {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const QString &name : {u"DISPLAY"_s, u"WAYLAND_DISPLAY"_s, u"QT_QPA_PLATFORM"_s})
            environment.remove(name);
        process.setProcessEnvironment(environment);
        const QString file
            = QFileInfo(QStringLiteral(DEMO_EXECUTABLE)).absolutePath() + u"/dataclient-demo.png"_s;
        QFile::remove(file);
        process.start(QStringLiteral(DEMO_EXECUTABLE), {});
        QSignalSpy finished(&process, &QProcess::finished);
        QVERIFY(finished.wait(60000));
        const QString out = QString::fromLocal8Bit(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0,
                 qPrintable(out + QString::fromLocal8Bit(process.readAllStandardError())));
        QVERIFY2(out.contains(u"No display found: rendering offscreen to "_s + file),
                 qPrintable(out));
        QVERIFY(!QImage(file).isNull());
        QFile::remove(file);
    }

    void urlPointsAtAnotherServerOfTheSameShape()
    {
        TestServer server;
        QVERIFY(server.listen());
        FakeRestApi api(&server);
        QVERIFY(SampleData::install(&api, 3, 30));
        const QString file = dir.filePath(u"url.png"_s);
        const ProcessRun run
            = runDemo({u"--url"_s, server.url(), u"--user"_s, u"2"_s, u"--screenshot"_s, file});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(!run.out.contains(u"Embedded REST server"_s));
        QVERIFY(!server.requests("GET", u"/users"_s).isEmpty());
        const auto todoRequests = server.requests("GET", u"/todos"_s);
        QVERIFY(!todoRequests.isEmpty());
        QCOMPARE(todoRequests.constFirst().query.queryItemValue(u"userId"_s), u"2"_s);
        QVERIFY(QFileInfo::exists(file));
    }

    void noDataWithinTimeoutFails()
    {
        TestServer server;
        QVERIFY(server.listen());
        server.route("*", u"/*"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"error"_s, u"down for maintenance"_s}}, 503);
        });
        const QString file = dir.filePath(u"never.png"_s);
        const ProcessRun run = runDemo(
            {u"--url"_s, server.url(), u"--screenshot"_s, file, u"--timeout"_s, u"3000"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"no data shown within 3000 ms"_s), qPrintable(run.err));
        // Says why: reads that fail with 503 are retried (default backoff, random: the retries
        // may all have run by then) and still fail.
        QVERIFY2(run.err.contains(u"users: loading, 0 rows, retrying (attempt "_s)
                     || run.err.contains(u"users: error 503"_s),
                 qPrintable(run.err));
        QVERIFY(server.requestCount() >= 6); // users, todos and status, each tried again
        QVERIFY(!QFileInfo::exists(file));
    }

    // Starts `dataclient-demo --serve <extra>` and returns its base URL (empty on failure).
    static QString startServing(QProcess *process, const QStringList &extra = {})
    {
        process->start(QStringLiteral(DEMO_EXECUTABLE), QStringList {u"--serve"_s} + extra);
        static const QRegularExpression urlPattern(u"http://127\\.0\\.0\\.1:\\d+"_s);
        QString out;
        QSignalSpy output(process, &QProcess::readyReadStandardOutput);
        while (!urlPattern.match(out).hasMatch()) {
            if (!output.wait(20000))
                return {};
            out += QString::fromLocal8Bit(process->readAllStandardOutput());
        }
        return urlPattern.match(out).captured();
    }
    static QNetworkReply *send(QNetworkAccessManager *network, const QByteArray &method,
                               const QUrl &url, const QByteArray &body = {})
    {
        QNetworkRequest request(url);
        if (!body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
        QNetworkReply *reply = network->sendCustomRequest(request, method, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(10000);
        return reply;
    }

    void serveRunsTheApiWithoutAWindow()
    {
        QProcess process;
        const QString base = startServing(&process);
        QVERIFY(!base.isEmpty());
        const QUrl url(base + u"/todos?userId=3&page=2"_s);

        QNetworkAccessManager network;
        std::unique_ptr<QNetworkReply> reply(network.get(QNetworkRequest(url)));
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        const QJsonArray page = QJsonDocument::fromJson(reply->readAll()).array();
        QCOMPARE(page.size(), 20); // a full second page of user 3's todos
        for (const QJsonValue &todo : page) {
            QCOMPARE(todo[u"userId"_s].toInt(), 3);
            QCOMPARE(todo[u"author"_s][u"id"_s].toInt(), 3);
        }
        QCOMPARE(process.state(), QProcess::Running);
        process.kill();
        QVERIFY(process.waitForFinished(10000));
    }

    // --fail-rate 1: every write and every todo list load fails with 500; other reads work.
    void failRateMakesTheEmbeddedServerFlaky()
    {
        QProcess process;
        const QString base = startServing(&process, {u"--fail-rate"_s, u"1"_s});
        QVERIFY(!base.isEmpty());
        QNetworkAccessManager network;
        auto status = [](QNetworkReply *reply) {
            std::unique_ptr<QNetworkReply> owner(reply);
            return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        };
        QCOMPARE(status(send(&network, "GET", QUrl(base + u"/users"_s))), 200);
        QCOMPARE(status(send(&network, "GET", QUrl(base + u"/todos?userId=1"_s))), 500);
        QCOMPARE(status(send(&network, "PATCH", QUrl(base + u"/todos/1"_s), R"({"title":"x"})")),
                 500);
        QCOMPARE(status(send(&network, "POST", QUrl(base + u"/todos"_s), R"({"title":"x"})")), 500);
        QCOMPARE(status(send(&network, "GET", QUrl(base + u"/todos/1"_s))), 200);
        // The live panel's route reports the settings and what was served.
        std::unique_ptr<QNetworkReply> reply(
            send(&network, "GET", QUrl(base + u"/status/server"_s)));
        const QJsonObject serverStatus = QJsonDocument::fromJson(reply->readAll()).object();
        QCOMPARE(serverStatus[u"failRate"_s].toDouble(), 1.0);
        QCOMPARE(serverStatus[u"requestCount"_s].toInt(), 5);
        QCOMPARE(serverStatus[u"recent"_s][0][u"path"_s].toString(), u"/todos/1"_s);
        QCOMPARE(serverStatus[u"recent"_s][1][u"status"_s].toInt(), 500);
        process.kill();
        QVERIFY(process.waitForFinished(10000));
    }

    void badOptionsExplainThemselves_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("fail-rate above 1") << QStringList {u"--fail-rate"_s, u"2"_s}
                                           << u"--fail-rate expects a probability from 0 to 1"_s;
        QTest::newRow("fail-rate not a number")
            << QStringList {u"--fail-rate"_s, u"often"_s} << u"got 'often'"_s;
        QTest::newRow("refuse-rate above 1")
            << QStringList {u"--refuse-rate"_s, u"1.5"_s}
            << u"--refuse-rate expects a probability from 0 to 1 (e.g. 0.3), got '1.5'"_s;
        QTest::newRow("refuse-rate with url")
            << QStringList {u"--url"_s, u"http://127.0.0.1:9"_s, u"--refuse-rate"_s, u"0.5"_s}
            << u"--refuse-rate only applies to the embedded server"_s;
        QTest::newRow("negative latency") << QStringList {u"--latency"_s, u"-5"_s}
                                          << u"--latency expects a whole number from 0 to 60000"_s;
        QTest::newRow("url without scheme")
            << QStringList {u"--url"_s, u"example.com"_s} << u"--url expects an http(s) base URL"_s;
        QTest::newRow("latency with url")
            << QStringList {u"--url"_s, u"http://127.0.0.1:9"_s, u"--latency"_s, u"10"_s}
            << u"only applies to the embedded server"_s;
        QTest::newRow("screenshot not png")
            << QStringList {u"--screenshot"_s, u"shot.jpg"_s} << u"ending in .png"_s;
        QTest::newRow("unknown option")
            << QStringList {u"--colour"_s} << u"Unknown option 'colour'"_s;
        QTest::newRow("serve with screenshot")
            << QStringList {u"--serve"_s, u"--screenshot"_s, u"a.png"_s}
            << u"--serve runs the embedded server alone"_s;
        QTest::newRow("serve with offline")
            << QStringList {u"--serve"_s, u"--offline"_s} << u"--offline needs the app"_s;
        QTest::newRow("stray argument") << QStringList {u"now"_s} << u"unexpected argument 'now'"_s;
    }
    void badOptionsExplainThemselves()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const ProcessRun run = runDemo(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.err.contains(u"--help"_s));
    }

    void helpListsEveryOption()
    {
        const ProcessRun run = runDemo({u"--help"_s});
        QCOMPARE(run.exitCode, 0);
        for (const QString &option :
             {u"--url"_s, u"--latency"_s, u"--fail-rate"_s, u"--refuse-rate"_s, u"--screenshot"_s,
              u"--timeout"_s, u"--user"_s, u"--serve"_s, u"--offline"_s})
            QVERIFY2(run.out.contains(option), qPrintable(option));
    }
};

QTEST_GUILESS_MAIN(tst_Demo)
#include "tst_demo.moc"
