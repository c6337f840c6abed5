// The OAuth 2 adapter driven without a browser against the in-process authorization server
// (FakeAuthorizationServer): the first request logs in (authorization code; PKCE on Qt 6.8) and
// goes with the token, an expired token is refreshed with the refresh token grant and the request
// replayed, a token near its expiry is refreshed before sending, a revoked refresh token fails as
// Unauthorized without a loop, logout clears the flow's tokens.
#include "oauthlogin.h"

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/await.h>
#include <DataClient/testing/fakeauthorizationserver.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QUrlQuery>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_OAuth2 : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestServer> server;
    std::unique_ptr<FakeAuthorizationServer> authorization;
    std::unique_ptr<OAuthLogin> login;
    std::unique_ptr<QNetworkAccessManager> network;
    std::unique_ptr<Controller> controller;
    EndpointPtr me;

    //! The value \a future resolved with, or the error it failed with (Timeout when it did not end).
    static std::pair<QVariant, std::optional<NetworkError>> outcome(QFuture<QVariant> future)
    {
        const Outcome<QVariant> ended = awaitOutcome(future, 10000);
        if (!ended.finished)
            return {QVariant(), NetworkError(NetworkError::Kind::Timeout, 0, u"not finished"_s)};
        return {ended.value.value_or(QVariant()), ended.error};
    }
    //! The Authorization header of every /api/me the server got.
    QStringList apiTokens() const
    {
        QStringList tokens;
        for (const RecordedRequest &r : server->requests("GET", u"/api/me"_s))
            tokens.append(QString::fromUtf8(r.header("authorization")));
        return tokens;
    }
    QList<QUrlQuery> tokenRequests() const
    {
        QList<QUrlQuery> forms;
        for (const RecordedRequest &r : server->requests("POST", u"/token"_s))
            forms.append(QUrlQuery(QString::fromUtf8(r.body)));
        return forms;
    }
    bool logIn()
    {
        const auto [value, error] = outcome(controller->fetch(me));
        return !error && value.toMap().value(u"name"_s) == u"Ada"_s;
    }

private Q_SLOTS:
    void init()
    {
        server = std::make_unique<TestServer>();
        QVERIFY(server->listen());
        authorization = std::make_unique<FakeAuthorizationServer>(server.get());
        login = std::make_unique<OAuthLogin>(authorization->authorizationUrl(),
                                             authorization->tokenUrl(), authorization->clientId(),
                                             authorization->apiUrl());
        login->useHeadlessBrowser();
        network = std::make_unique<QNetworkAccessManager>();
        controller = std::make_unique<Controller>();
        controller->setNetworkAccessManager(network.get());
        controller->setTokenSource(login->tokens());
        me = RestEndpoint::create({.path = u"/api/me"_s,
                                   .urlPrefix = server->url(),
                                   .retry = RetryPolicy {0, 100, 1000}});
    }
    void cleanup()
    {
        controller.reset();
        login.reset();
        authorization.reset();
        server.reset();
    }

    void theFirstRequestLogsInWithTheAuthorizationCode()
    {
        QVERIFY(logIn());
        QCOMPARE(login->opened.size(), 1);
        const QUrlQuery asked(login->opened.constFirst());
        QCOMPARE(asked.queryItemValue(u"response_type"_s), u"code"_s);
        QCOMPARE(asked.queryItemValue(u"client_id"_s), authorization->clientId());
        QVERIFY(!asked.queryItemValue(u"state"_s).isEmpty());
        const QList<QUrlQuery> forms = tokenRequests();
        QCOMPARE(forms.size(), 1);
        QCOMPARE(forms.constFirst().queryItemValue(u"grant_type"_s), u"authorization_code"_s);
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
        // PKCE: the server checked the verifier against this challenge.
        QVERIFY(!authorization->lastCodeChallenge().isEmpty());
#else
        QVERIFY(authorization->lastCodeChallenge().isEmpty()); // Qt 6.4 has no PKCE
#endif
        QCOMPARE(apiTokens(), QStringList {u"Bearer access-1"_s});
    }

    void anExpiredTokenIsRefreshedAndTheRequestReplayed()
    {
        QVERIFY(logIn());
        authorization->expireAccessToken();
        controller->invalidate(me);
        const auto [value, error] = outcome(controller->fetch(me));
        QVERIFY2(!error, error ? qPrintable(error->message()) : "");
        QCOMPARE(apiTokens(),
                 (QStringList {u"Bearer access-1"_s, u"Bearer access-1"_s, u"Bearer access-2"_s}));
        const QList<QUrlQuery> forms = tokenRequests();
        QCOMPARE(forms.size(), 2);
        QCOMPARE(forms.at(1).queryItemValue(u"grant_type"_s), u"refresh_token"_s);
        QCOMPARE(forms.at(1).queryItemValue(u"refresh_token"_s), u"refresh-1"_s);
        QCOMPARE(login->opened.size(), 1); // no second login
    }

    void aTokenNearItsExpiryIsRefreshedBeforeSending()
    {
        // The login grants a token that expires within the example's lead time of a minute:
        // it is refreshed before the request goes, which is sent once, with the new token.
        authorization->expiresIn = 30;
        QSignalSpy expiry(login->tokens(), &TokenSource::expiresAtChanged);
        QVERIFY(!outcome(controller->fetch(me)).second);
        QCOMPARE(apiTokens(), QStringList {u"Bearer access-2"_s});
        const QList<QUrlQuery> forms = tokenRequests();
        QCOMPARE(forms.size(), 2);
        QCOMPARE(forms.at(0).queryItemValue(u"grant_type"_s), u"authorization_code"_s);
        QCOMPARE(forms.at(1).queryItemValue(u"grant_type"_s), u"refresh_token"_s);
        QVERIFY(!expiry.isEmpty());
        // The refreshed token expires as soon: it is used as it is, not refreshed again.
        controller->invalidate(me);
        QVERIFY(!outcome(controller->fetch(me)).second);
        QCOMPARE(tokenRequests().size(), 2);
    }

    void aRevokedRefreshTokenFailsAsUnauthorized()
    {
        QVERIFY(logIn());
        QSignalSpy failures(controller.get(), &Controller::authenticationFailed);
        authorization->expireAccessToken();
        authorization->revokeRefreshToken();
        controller->invalidate(me);
        const auto [value, error] = outcome(controller->fetch(me));
        QVERIFY(error);
        QCOMPARE(error->kind(), NetworkError::Kind::Unauthorized);
        QVERIFY2(error->message().contains(u"400"_s), qPrintable(error->message()));
        QCOMPARE(failures.size(), 1);
        QCOMPARE(tokenRequests().size(), 2); // one refresh, no loop
        QCOMPARE(apiTokens().size(), 2);
    }

    void logoutClearsTheFlowsTokens()
    {
        QVERIFY(logIn());
        controller->logout();
        QVERIFY(login->flow()->token().isEmpty());
        QVERIFY(login->flow()->refreshToken().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_OAuth2)
#include "tst_oauth2.moc"
