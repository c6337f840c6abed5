// The token source's token against the in-process server: sent to its origins only (a redirect
// to another origin leaves it behind), in the configured header and scheme; asked once for many
// requests; a source that fails, never answers or gives an empty token; refreshed before it
// expires (lead time).
#include "authfixture.h"

#include <QtCore/QRegularExpression>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

class tst_Auth : public AuthTest
{
    Q_OBJECT

private Q_SLOTS:
    void theTokenGoesToItsOriginsOnly()
    {
        TestServer other;
        QVERIFY(other.listen());
        other.route("GET", u"/public"_s,
                    [](const RecordedRequest &) { return ServerResponse::json(QJsonObject {}); });
        const EndpointPtr elsewhere
            = RestEndpoint::create({.path = u"/public"_s, .urlPrefix = other.url()});

        QCOMPARE(await(controller->fetch(privateEndpoint(), {{u"id"_s, 1}}))
                     .value->toMap()
                     .value(u"id"_s),
                 QVariant(u"1"_s));
        QVERIFY(await(controller->fetch(elsewhere)).value);
        QCOMPARE(tokensSentTo(u"/private/1"_s), QStringList {u"Bearer t1"_s});
        QCOMPARE(other.requestCount(), 1);
        QVERIFY(!other.lastRequest().hasHeader("authorization"));
        QCOMPARE(source->tokenCalls, 1);
    }

    void aRedirectToAnotherOriginLeavesTheTokenBehind()
    {
        TestServer other;
        QVERIFY(other.listen());
        other.route("GET", u"/landing"_s,
                    [](const RecordedRequest &) { return ServerResponse::json(QJsonObject {}); });
        server->route("GET", u"/away"_s, [&other](const RecordedRequest &) {
            return ServerResponse::redirect(307, other.url(u"/landing"_s).toUtf8());
        });
        server->route("GET", u"/near"_s, [this](const RecordedRequest &) {
            return ServerResponse::redirect(307, server->url(u"/private/7"_s).toUtf8());
        });
        // 'include' is what lets a redirect go to another origin at all.
        const EndpointPtr away = RestEndpoint::create(
            {.path = u"/away"_s, .urlPrefix = server->url(), .credentials = Credentials::Include});
        const EndpointPtr near = RestEndpoint::create(
            {.path = u"/near"_s, .urlPrefix = server->url(), .credentials = Credentials::Include});

        QVERIFY(await(controller->fetch(away)).value);
        QCOMPARE(tokensSentTo(u"/away"_s), QStringList {u"Bearer t1"_s});
        QCOMPARE(other.requestCount(), 1);
        QVERIFY(!other.lastRequest().hasHeader("authorization"));
        // Within the origin, the token follows the redirect.
        QVERIFY(await(controller->fetch(near)).value);
        QCOMPARE(tokensSentTo(u"/private/7"_s), QStringList {u"Bearer t1"_s});
    }

    void theHeaderAndSchemeAreConfigurable()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"empty header name"_s));
        source->setHeaderName("  ");
        QCOMPARE(source->headerName(), QByteArray("Authorization"));
        source->setHeaderName("X-Api-Key");
        source->setScheme({});
        accepted = u"never"_s;
        refusal = 200; // the route answers without looking at the header the test checks
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 2}})).value);
        const RecordedRequest got = server->lastRequest();
        QCOMPARE(got.header("x-api-key"), QByteArray("t1"));
        QVERIFY(!got.hasHeader("authorization"));
    }

    void manyRequestsAskTheSourceOnce()
    {
        source->tokenAnswer = TestTokenSource::Answer::Later;
        QList<QFuture<QVariant>> futures;
        for (int id = 1; id <= 5; ++id)
            futures.append(controller->fetch(privateEndpoint(), {{u"id"_s, id}}));
        QTest::qWait(20); // they wait for the token: nothing reaches the server
        QCOMPARE(server->requestCount(), 0);
        QCOMPARE(source->tokenCalls, 1);
        source->finish();
        for (const QFuture<QVariant> &future : std::as_const(futures))
            QVERIFY(await(future).value);
        QCOMPARE(server->requestCount(), 5);
        QCOMPARE(tokensSentTo(u"/private/5"_s), QStringList {u"Bearer t1"_s});
        // Known now: the next request does not ask.
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 6}})).value);
        QCOMPARE(source->tokenCalls, 1);
        // A login changes it: asked again.
        source->tokenAnswer = TestTokenSource::Answer::Now;
        source->current = u"t9"_s;
        accepted = u"t9"_s;
        Q_EMIT source->tokenChanged();
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 7}})).value);
        QCOMPARE(tokensSentTo(u"/private/7"_s), QStringList {u"Bearer t9"_s});
        QCOMPARE(source->tokenCalls, 2);
    }

    void aSourceThatNeverAnswersEndsAtTheRequestsTimeout()
    {
        source->tokenAnswer = TestTokenSource::Answer::Never;
        EndpointOptions options;
        options.timeout = 3000;
        QFuture<QVariant> future
            = controller->fetch(privateEndpoint("GET", options), {{u"id"_s, 1}});
        QTest::qWait(20);
        QVERIFY(!future.isFinished());
        clock->advance(2999);
        QTest::qWait(20);
        QVERIFY(!future.isFinished());
        clock->advance(1);
        const Outcome outcome = await(future);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Timeout);
        QVERIFY2(outcome.error->message().contains(u"token source"_s),
                 qPrintable(outcome.error->message()));
        QCOMPARE(server->requestCount(), 0);
    }

    void aSourceThatFailsFailsTheRequestsAsUnauthorized()
    {
        source->tokenAnswer = TestTokenSource::Answer::Fail;
        const Outcome first = await(controller->fetch(privateEndpoint(), {{u"id"_s, 1}}));
        QVERIFY(first.error);
        QCOMPARE(first.error->kind(), NetworkError::Kind::Unauthorized);
        QVERIFY2(first.error->message().contains(u"the keychain is locked"_s),
                 qPrintable(first.error->message()));
        QCOMPARE(failures->size(), 1);
        QCOMPARE(failures->constFirst().constFirst().value<NetworkError>().kind(),
                 NetworkError::Kind::Unauthorized);
        QCOMPARE(server->requestCount(), 0);
        // It is asked again by the next request (it may have been unlocked since).
        source->tokenAnswer = TestTokenSource::Answer::Now;
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 2}})).value);
        QCOMPARE(source->tokenCalls, 2);
    }

    void anEmptyTokenSendsWithoutAndReportsThe401()
    {
        source->current.clear();
        const Outcome outcome = await(controller->fetch(privateEndpoint(), {{u"id"_s, 1}}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Unauthorized);
        QCOMPARE(outcome.error->status(), 401);
        QCOMPARE(tokensSentTo(u"/private/1"_s), QStringList {u"-"_s});
        QCOMPARE(source->refreshCalls, 0);
        QCOMPARE(failures->size(), 1);
    }

    void aTokenExpiringWithinTheLeadTimeIsRefreshedFirst()
    {
        source->setLeadTimeMs(60000);
        source->expiry = QDateTime::fromMSecsSinceEpoch(clock->now() + 30000);
        source->refreshAnswer = TestTokenSource::Answer::Now;
        accepted = u"t2"_s;
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 1}})).value);
        QCOMPARE(tokensSentTo(u"/private/1"_s), QStringList {u"Bearer t2"_s});
        QCOMPARE(source->refreshCalls, 1);
        // The same expiry again (the source gave a token that expires as soon): not refreshed
        // again and again.
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 2}})).value);
        QCOMPARE(source->refreshCalls, 1);
        // A token far from its expiry is not refreshed.
        source->expiry = QDateTime::fromMSecsSinceEpoch(clock->now() + 3600000);
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 3}})).value);
        QCOMPARE(source->refreshCalls, 1);
    }

    void aDestroyedSourceLeavesTheController()
    {
        // A request waiting for its token goes without when the source goes.
        source->tokenAnswer = TestTokenSource::Answer::Never;
        QFuture<QVariant> waiting = controller->fetch(privateEndpoint(), {{u"id"_s, 9}});
        QTest::qWait(20);
        QCOMPARE(server->requestCount(), 0);
        QSignalSpy changed(controller.get(), &Controller::tokenSourceChanged);
        source.reset();
        QCOMPARE(changed.size(), 1);
        QVERIFY(await(waiting).error); // refused without a token: reported as the server said
        QCOMPARE(tokensSentTo(u"/private/9"_s), QStringList {u"-"_s});
        QCOMPARE(controller->tokenSource(), nullptr);
        accepted = u"x"_s;
        refusal = 200;
        QVERIFY(await(controller->fetch(privateEndpoint(), {{u"id"_s, 1}})).value);
        QCOMPARE(tokensSentTo(u"/private/1"_s), QStringList {u"-"_s});
    }
};

QTEST_GUILESS_MAIN(tst_Auth)
#include "tst_auth.moc"
