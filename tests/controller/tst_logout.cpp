// Controller::logout() against the in-process server and on disk: the store, the optimistic
// guesses, the outbox, the persisted store file and the outbox file, the polls and the requests
// on the wire are gone, and nothing of the user shows afterwards. The token is never written to
// the store file, the outbox file or the log.
#include "authfixture.h"
#include "logcapture.h"

#include <DataClient/entityschema.h>
#include <DataClient/private/controlleroutbox_p.h>

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

const QString secret = u"secret-token-4f7a9c"_s;

Schema itemSchema()
{
    return Schema::entity(EntitySchema(u"Item"_s));
}

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_Logout : public AuthTest
{
    Q_OBJECT

    QTemporaryDir directory;
    QString storePath() const { return directory.filePath(u"store.dcstore"_s); }
    QString outboxPath() const { return directory.filePath(u"outbox.json"_s); }

    EndpointPtr item(int pollFrequency = 0) const
    {
        EndpointOptions options;
        options.schema = itemSchema();
        options.pollFrequency = pollFrequency;
        return privateEndpoint("GET", options);
    }
    //! An optimistic creation kept in the outbox until the server answers it.
    EndpointPtr create() const
    {
        EndpointOptions options;
        options.schema = itemSchema();
        options.queueWhenOffline = true;
        options.optimistic = true;
        options.getOptimisticResponse = [](const Params &, const QJsonValue &, const Store *) {
            return std::optional<QJsonValue>(
                QJsonObject {{u"id"_s, u"55"_s}, {u"title"_s, u"guess"_s}});
        };
        return privateEndpoint("POST", options);
    }
    //! The user's state: a stored item, a polled key, a change waiting offline in the outbox
    //! (shown as a guess), both files written.
    void signIn()
    {
        QVERIFY(directory.isValid());
        source->current = secret;
        accepted = secret;
        controller->setPersistIntervalMs(10);
        controller->setPersistence(storePath());
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        QVERIFY(await(controller->fetch(item(), {{u"id"_s, 1}})).value);
        QVERIFY(controller->subscribe(item(1000), {{u"id"_s, 1}}));
        connectivity->setOnline(false);
        controller->fetch(create(), {}, QJsonObject {{u"title"_s, u"mine"_s}});
        QCOMPARE(controller->outbox()->count(), 1);
        QVERIFY(controller->get(itemSchema(), {{u"id"_s, u"55"_s}}).found);
        clock->advance(100);
        QTRY_VERIFY(QFile::exists(storePath()));
        QTRY_VERIFY(contents(storePath()).contains("Item"));
        QVERIFY(contents(outboxPath()).contains("mine"));
    }

private Q_SLOTS:
    void logoutForgetsEverythingOnDisk()
    {
        signIn();
        // A mutation on the wire that the server never answers (not an outbox change: it is
        // sent while offline).
        int held = 0;
        server->routeDeferred(
            "PUT", u"/slow"_s,
            [&held](const RecordedRequest &, const TestServer::Responder &) { ++held; });
        const EndpointPtr slow = RestEndpoint::create(
            {.method = "PUT", .path = u"/slow"_s, .urlPrefix = server->url()});
        QFuture<QVariant> onTheWire = controller->fetch(slow, {}, QJsonObject {});
        QTRY_COMPARE(held, 1);

        controller->logout();

        QVERIFY(await(onTheWire).canceled());
        QVERIFY(!QFile::exists(storePath()));
        QVERIFY(!QFile::exists(outboxPath()));
        QCOMPARE(controller->outbox()->count(), 0);
        QVERIFY(!controller->get(itemSchema(), {{u"id"_s, u"1"_s}}).found);
        QVERIFY(!controller->get(itemSchema(), {{u"id"_s, u"55"_s}}).found);
        QVERIFY(controller->getResponse(item(), {{u"id"_s, 1}}).data.isNull());
        QCOMPARE(controller->pollInterval(item(1000), {{u"id"_s, 1}}), 0);
        QCOMPARE(source->forgetCalls, 1);
        // Nothing of the user is asked again: no poll, no outbox replay.
        const qsizetype before = server->requests("GET", u"/private/1"_s).size();
        const qsizetype posts = server->requests("POST", u"/private"_s).size();
        clock->advance(5000);
        QTest::qWait(50);
        QCOMPARE(server->requests("GET", u"/private/1"_s).size(), before);
        QCOMPARE(server->requests("POST", u"/private"_s).size(), posts);
        // Files stay gone: the Controller's destruction writes nothing back.
        controller.reset();
        QVERIFY(!QFile::exists(storePath()));
        QVERIFY(!QFile::exists(outboxPath()));
    }

    void theTokenSourcesLogoutDoesTheSame()
    {
        signIn();
        Q_EMIT source->loggedOut();
        QVERIFY(!QFile::exists(storePath()));
        QVERIFY(!QFile::exists(outboxPath()));
        QCOMPARE(controller->outbox()->count(), 0);
        QVERIFY(!controller->get(itemSchema(), {{u"id"_s, u"1"_s}}).found);
    }

    void theTokenIsNeverWritten()
    {
        LogCapture log;
        signIn();
        // The outbox's change is sent (with the token) once back online, then kept while the
        // store is written again.
        connectivity->setOnline(true);
        QTRY_COMPARE(controller->outbox()->count(), 0);
        clock->advance(100);
        controller.reset(); // the last writes
        QVERIFY(!contents(storePath()).isEmpty());
        QVERIFY(!contents(storePath()).contains(secret.toUtf8()));
        QVERIFY(!contents(outboxPath()).contains(secret.toUtf8()));
        QVERIFY(log.contains(u"fetch"_s)); // the debug log was captured
        QCOMPARE(log.count(secret), 0);
        QCOMPARE(tokensSentTo(u"/private/1"_s), QStringList {u"Bearer "_s + secret});
    }
};

QTEST_GUILESS_MAIN(tst_Logout)
#include "tst_logout.moc"
