// The three application managers of docs/managers.md (examples/managers: a request logger, request
// metrics, a bearer token from a token store), run against the in-process server.
// docSnippetsAreHere() checks that every C++ block of the page appears in those sources or in this
// file, so the page shows the code that is compiled and tested.
#include "appmanagersfixture.h"
#include "docsnippets.h"
#include "requestlogger.h"
#include "requestmetrics.h"
#include "testtokensource.h"
#include "tokenauth.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_ManagersDocs : public AppManagerTest
{
    Q_OBJECT

private Q_SLOTS:
    void registering()
    {
        DataClient::Controller &controller = *this->controller;
        //! [register]
        // Owned by the Controller (deleted with it); called on its thread, last of all managers.
        auto *logger = new RequestLogger(&controller);
        auto *metrics = new RequestMetrics(&controller);
        controller.addManager(logger);
        controller.addManager(metrics);
        //! [register]
        QCOMPARE(controller.managers(), (QList<Manager *> {logger, metrics}));
    }

    void theLoggerLogsEveryAnswerWithItsTime()
    {
        QVERIFY(controller->addManager(new RequestLogger(controller.get())));
        const QString items = QRegularExpression::escape(server->url(u"/items"_s));
        QTest::ignoreMessage(QtInfoMsg,
                             QRegularExpression(u"^GET %1 \\d+ in \\d+ ms$"_s.arg(items)));
        QVERIFY(await(controller->fetch(endpoint())).value);

        script = {ServerResponse::json({}, 500)};
        QTest::ignoreMessage(QtInfoMsg,
                             QRegularExpression(u"^GET %1 \\d+ in \\d+ ms$"_s.arg(items)));
        QTest::ignoreMessage(QtInfoMsg,
                             QRegularExpression(u"^GET %1 failed: .*500.*$"_s.arg(items)));
        QVERIFY(await(controller->fetch(once())).error);
    }

    void theLoggerRedactsCredentials()
    {
        auto *logger = new RequestLogger(controller.get());
        logger->logHeaders = true;
        QVERIFY(controller->addManager(logger));
        TestTokenSource tokens;
        tokens.current = u"secret-token-81"_s;
        tokens.setOrigins({QUrl(server->url())});
        controller->setTokenSource(&tokens);
        const QString items = QRegularExpression::escape(server->url(u"/items"_s));
        // The token went to the server; the log shows only that there was one.
        QTest::ignoreMessage(QtInfoMsg,
                             QRegularExpression(u"^GET %1 headers: Authorization: "
                                                "\\[redacted\\]$"_s.arg(items)));
        QTest::ignoreMessage(QtInfoMsg,
                             QRegularExpression(u"^GET %1 \\d+ in \\d+ ms$"_s.arg(items)));
        QVERIFY(await(controller->fetch(endpoint())).value);
        QCOMPARE(server->lastRequest().header("authorization"),
                 QByteArray("Bearer secret-token-81"));
        controller->setTokenSource(nullptr);
    }

    void theMetricsCountPerEndpoint()
    {
        auto *metrics = new RequestMetrics(controller.get());
        QVERIFY(controller->addManager(metrics));
        QSignalSpy changed(metrics, &RequestMetrics::countsChanged);
        QVERIFY(await(controller->fetch(todos.getList)).value);
        QVERIFY(await(controller->fetch(todos.get, {{u"id"_s, 1}})).value);
        api->failNext(1, 404);
        QVERIFY(await(controller->fetch(todos.get, {{u"id"_s, 99}})).error);
        QCOMPARE(metrics->requests(), 3);
        QCOMPARE(metrics->failures(), 1);
        QCOMPARE(metrics->property("requests").toInt(), 3);
        const QVariantMap counts = metrics->countsByEndpoint();
        const QString get = todos.get->name().isEmpty() ? todos.get->path() : todos.get->name();
        QCOMPARE(counts.value(get).toMap().value(u"requests"_s).toInt(), 2);
        QCOMPARE(counts.value(get).toMap().value(u"failures"_s).toInt(), 1);
        QCOMPARE(counts.size(), 2);
        QVERIFY(changed.size() >= 4);
    }

    void theMetricsCountBytes()
    {
        auto *metrics = new RequestMetrics(controller.get());
        QVERIFY(controller->addManager(metrics));
        QVERIFY(await(controller->fetch(endpoint())).value);
        QCOMPARE(metrics->bytes(), qint64(QByteArray("[1,2]").size()));
    }

    void theTokenIsSentAndRequestsWaitForIt()
    {
        //! [bearer-usage]
        auto *tokens = new TokenStore(controller.get()); // the app's own (a login sets it)
        controller->addManager(new BearerAuth(tokens, controller.get()));
        QFuture<QVariant> todoList = controller->fetch(todos.getList); // waits: no token yet
        tokens->setToken(u"s3cret"_s); // the login answered: the waiting requests go
        //! [bearer-usage]
        QVERIFY(await(todoList).value);
        QCOMPARE(server->requests().size(), 1);
        QCOMPARE(server->lastRequest().header("authorization"), QByteArray("Bearer s3cret"));

        // With a token, requests go at once, with it.
        tokens->setToken(u"renewed"_s);
        QVERIFY(await(controller->fetch(todos.get, {{u"id"_s, 2}})).value);
        QCOMPARE(server->lastRequest().header("authorization"), QByteArray("Bearer renewed"));
    }

    void withoutATokenTheDeadlineEndsTheWait()
    {
        auto *tokens = new TokenStore(controller.get());
        QVERIFY(controller->addManager(new BearerAuth(tokens, controller.get())));
        QFuture<QVariant> future = controller->fetch(once(1000));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"held by BearerAuth for 1000 ms"_s));
        clock->advance(1000);
        const Outcome outcome = await(future);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QCOMPARE(server->requestCount(), 0);
    }

    void docSnippetsAreHere()
    {
        QString code;
        QStringList sources {QStringLiteral(DATACLIENT_MANAGERS_DOCS_TEST)};
        const QDir examples(QStringLiteral(DATACLIENT_MANAGERS_EXAMPLE_DIR));
        for (const QString &name : examples.entryList({u"*.h"_s, u"*.cpp"_s}, QDir::Files))
            sources.append(examples.filePath(name));
        QCOMPARE(sources.size(), 7);
        for (const QString &path : std::as_const(sources)) {
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
            code += DocSnippets::normalized(QString::fromUtf8(file.readAll())) + u'\n';
        }
        QFile doc(QStringLiteral(DATACLIENT_DOCS_DIR) + u"/managers.md"_s);
        QVERIFY2(doc.open(QIODevice::ReadOnly), qPrintable(doc.fileName()));
        int blocks = 0;
        const QStringList snippets = DocSnippets::cppBlocks(QString::fromUtf8(doc.readAll()));
        for (const QString &snippet : snippets) {
            QVERIFY2(code.contains(snippet),
                     qPrintable(u"managers.md: this block is in neither examples/managers nor "
                                "tst_managers_docs.cpp:\n%1"_s.arg(snippet)));
            ++blocks;
        }
        QVERIFY(blocks >= 7);
    }
};

QTEST_GUILESS_MAIN(tst_ManagersDocs)
#include "tst_managers_docs.moc"
