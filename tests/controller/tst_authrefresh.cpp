// One refresh, then replay, against the in-process server: 50 reads refused at once refresh the
// token once and are each sent again once; requests made meanwhile wait; a mutation of the
// outbox is replayed with its idempotency key; a refresh that fails (or answers 401 itself), a
// replay refused again, a 403 and a logout during the refresh.
#include "authfixture.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

//! A source whose refresh() asks the test server's token endpoint (as an OAuth 2 client would).
class HttpTokenSource : public TestTokenSource
{
public:
    QUrl tokenUrl;
    QNetworkAccessManager network;

    QFuture<QString> refresh() override
    {
        ++refreshCalls;
        QNetworkReply *reply = network.post(QNetworkRequest(tokenUrl), QByteArray("grant"));
        auto promise = std::make_shared<QPromise<QString>>();
        promise->start();
        connect(reply, &QNetworkReply::finished, this, [reply, promise] {
            reply->deleteLater();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (status != 200)
                promise->setException(
                    NetworkError(NetworkError::Kind::Http, status,
                                 u"the token endpoint refused: %1"_s.arg(status)));
            else
                promise->addResult(QString::fromUtf8(reply->readAll()));
            promise->finish();
        });
        return promise->future();
    }
};

} // namespace

class tst_AuthRefresh : public AuthTest
{
    Q_OBJECT

private:
    //! Starts \a count reads of /private/<1..count> refused by the server (it accepts t2 only).
    QList<QFuture<QVariant>> refusedReads(int count)
    {
        accepted = u"t2"_s;
        QList<QFuture<QVariant>> futures;
        for (int id = 1; id <= count; ++id)
            futures.append(controller->fetch(privateEndpoint(), {{u"id"_s, id}}));
        return futures;
    }

private Q_SLOTS:
    void fiftyRefusedReadsRefreshOnceAndReplayEachOnce()
    {
        const QList<QFuture<QVariant>> futures = refusedReads(50);
        QVERIFY(waitForRequests(50));
        QTRY_COMPARE(source->refreshCalls, 1);
        QTRY_VERIFY(source->pending());
        // Every refusal arrived before the refresh answers: still one refresh.
        QTest::qWait(50);
        QCOMPARE(source->refreshCalls, 1);
        QCOMPARE(server->requestCount(), 50);
        source->finish();
        for (const QFuture<QVariant> &future : futures)
            QVERIFY(await(future).value);
        for (int id = 1; id <= 50; ++id)
            QCOMPARE(tokensSentTo(u"/private/%1"_s.arg(id)),
                     (QStringList {u"Bearer t1"_s, u"Bearer t2"_s}));
        QVERIFY(receivedExactly(100));
        QCOMPARE(source->refreshCalls, 1);
        QCOMPARE(failures->size(), 0);
    }

    void aRequestMadeDuringTheRefreshWaitsForIt()
    {
        QFuture<QVariant> refused = refusedReads(1).constFirst();
        QTRY_VERIFY(source->pending());
        QFuture<QVariant> later = controller->fetch(privateEndpoint(), {{u"id"_s, 2}});
        QTest::qWait(20);
        QCOMPARE(server->requestCount(), 1); // the new one is not sent with the old token
        source->finish();
        QVERIFY(await(refused).value);
        QVERIFY(await(later).value);
        QCOMPARE(tokensSentTo(u"/private/2"_s), QStringList {u"Bearer t2"_s});
        QCOMPARE(source->refreshCalls, 1);
    }

    void anOutboxMutationIsReplayedWithItsIdempotencyKey()
    {
        accepted = u"t2"_s;
        EndpointOptions options;
        options.queueWhenOffline = true;
        QFuture<QVariant> created = controller->fetch(privateEndpoint("POST", options), {},
                                                      QJsonObject {{u"title"_s, u"x"_s}});
        QTRY_VERIFY(source->pending());
        source->finish();
        QVERIFY(await(created).value);
        const QList<RecordedRequest> sent = server->requests("POST", u"/private"_s);
        QCOMPARE(sent.size(), 2);
        QCOMPARE(tokensSentTo(u"/private"_s, "POST"),
                 (QStringList {u"Bearer t1"_s, u"Bearer t2"_s}));
        QVERIFY(!sent.at(0).header("idempotency-key").isEmpty());
        QCOMPARE(sent.at(1).header("idempotency-key"), sent.at(0).header("idempotency-key"));
        QCOMPARE(controller->outbox()->count(), 0);
    }

    void aPlainMutationIsReplayedOnceToo()
    {
        accepted = u"t2"_s;
        QFuture<QVariant> created
            = controller->fetch(privateEndpoint("POST"), {}, QJsonObject {{u"title"_s, u"x"_s}});
        QTRY_VERIFY(source->pending());
        source->finish();
        QVERIFY(await(created).value);
        QCOMPARE(tokensSentTo(u"/private"_s, "POST"),
                 (QStringList {u"Bearer t1"_s, u"Bearer t2"_s}));
    }

    void aFailedRefreshFailsThemAsUnauthorized()
    {
        const QList<QFuture<QVariant>> futures = refusedReads(3);
        QVERIFY(waitForRequests(3));
        QTRY_VERIFY(source->pending());
        QTest::qWait(20);
        source->fail(u"the refresh token was revoked"_s);
        for (const QFuture<QVariant> &future : futures) {
            const Outcome outcome = await(future);
            QVERIFY(outcome.error);
            QCOMPARE(outcome.error->kind(), NetworkError::Kind::Unauthorized);
            QCOMPARE(outcome.error->status(), 401);
            QVERIFY2(outcome.error->message().contains(u"revoked"_s),
                     qPrintable(outcome.error->message()));
        }
        QCOMPARE(failures->size(), 1);
        QVERIFY(receivedExactly(3));
        QCOMPARE(source->refreshCalls, 1);
    }

    void aRefreshGivingAnEmptyTokenFailsThem()
    {
        source->next = QString();
        QFuture<QVariant> refused = refusedReads(1).constFirst();
        QTRY_VERIFY(source->pending());
        source->finish();
        const Outcome outcome = await(refused);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Unauthorized);
        QCOMPARE(failures->size(), 1);
        QVERIFY(receivedExactly(1));
    }

    void aRefreshAnswered401DoesNotLoop()
    {
        auto http = std::make_unique<HttpTokenSource>();
        http->setOrigins({QUrl(server->url())});
        http->tokenUrl = QUrl(server->url(u"/token"_s));
        server->route("POST", u"/token"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {}, 401);
        });
        controller->setTokenSource(http.get());
        const QList<QFuture<QVariant>> futures = refusedReads(3);
        for (const QFuture<QVariant> &future : futures) {
            const Outcome outcome = await(future);
            QVERIFY(outcome.error);
            QCOMPARE(outcome.error->kind(), NetworkError::Kind::Unauthorized);
        }
        QCOMPARE(server->requests("POST", u"/token"_s).size(), 1);
        QCOMPARE(failures->size(), 1);
        QVERIFY(receivedExactly(3 + 1));
        controller->setTokenSource(nullptr);
    }

    void aReplayRefusedAgainIsNotRefreshedAgain()
    {
        accepted = u"never"_s;
        QFuture<QVariant> refused = controller->fetch(privateEndpoint(), {{u"id"_s, 1}});
        QTRY_VERIFY(source->pending());
        source->finish();
        const Outcome outcome = await(refused);
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Unauthorized);
        QCOMPARE(outcome.error->status(), 401);
        QCOMPARE(tokensSentTo(u"/private/1"_s), (QStringList {u"Bearer t1"_s, u"Bearer t2"_s}));
        QVERIFY(receivedExactly(2));
        QCOMPARE(source->refreshCalls, 1);
        QCOMPARE(failures->size(), 1);
    }

    void a403IsNotARefreshTrigger()
    {
        accepted = u"never"_s;
        refusal = 403;
        const Outcome outcome = await(controller->fetch(privateEndpoint(), {{u"id"_s, 1}}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Http);
        QCOMPARE(outcome.error->status(), 403);
        QCOMPARE(source->refreshCalls, 0);
        QCOMPARE(failures->size(), 0);
        QVERIFY(receivedExactly(1));
    }

    void aRequestToAnotherOriginAnswered401IsNotRefreshed()
    {
        source->setOrigins({QUrl(u"http://api.example.com"_s)});
        accepted = u"never"_s;
        const Outcome outcome = await(controller->fetch(privateEndpoint(), {{u"id"_s, 1}}));
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Http);
        QCOMPARE(source->refreshCalls, 0);
        QCOMPARE(tokensSentTo(u"/private/1"_s), QStringList {u"-"_s});
    }

    void aLogoutDuringTheRefreshCancelsEverything()
    {
        const QList<QFuture<QVariant>> futures = refusedReads(3);
        QVERIFY(waitForRequests(3));
        QTRY_VERIFY(source->pending());
        QTest::qWait(20);
        controller->logout();
        for (const QFuture<QVariant> &future : futures)
            QVERIFY(await(future).canceled());
        QCOMPARE(source->forgetCalls, 1);
        source->finish(); // the refresh answers after the logout: nothing is sent with it
        QTest::qWait(20);
        QVERIFY(receivedExactly(3));
        QVERIFY(!controller->get(todoSchema(), {{u"id"_s, 1}}).found);
        QCOMPARE(failures->size(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_AuthRefresh)
#include "tst_authrefresh.moc"
