// The credentials mode (omit, same-origin, include) decides whether the cookie jar is used.
// Two test servers are two origins (same host, different ports); cookies for 127.0.0.1 would
// match both, so only the credentials mode keeps them from the other origin.
#include "restfixture.h"

#include <DataClient/createresource.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkCookie>
#include <QtNetwork/QNetworkCookieJar>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

namespace {

// [same-origin]
// Every request of this class sends cookies only to the urlPrefix's own origin.
class SameOriginEndpoint : public EndpointBase<SameOriginEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    RequestInit getRequestInit(const QJsonValue &body) const override
    {
        RequestInit init = RestEndpoint::getRequestInit(body);
        init.credentials = Credentials::SameOrigin;
        return init;
    }
};
// [same-origin]

// Endpoints whose requests go to another origin than their urlPrefix (like a CDN).
QUrl otherOrigin;
QUrl toOtherOrigin(QUrl url)
{
    url.setPort(otherOrigin.port());
    return url;
}

class SameOriginElsewhere : public EndpointBase<SameOriginElsewhere, SameOriginEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QUrl url(const Params &params, QString *error) const override
    {
        return toOtherOrigin(SameOriginEndpoint::url(params, error));
    }
};

class PlainElsewhere : public EndpointBase<PlainElsewhere>
{
public:
    using EndpointBase::EndpointBase;
    QUrl url(const Params &params, QString *error) const override
    {
        return toOtherOrigin(RestEndpoint::url(params, error));
    }
};

} // namespace

class tst_Credentials : public QObject
{
    Q_OBJECT

private:
    Resource sessions(Credentials credentials, EndpointFactory endpoint = {})
    {
        return createResource({.path = u"/sessions/:id"_s,
                               .schema = user(),
                               .urlPrefix = home.url(),
                               .endpoint = std::move(endpoint),
                               .credentials = credentials});
    }
    QByteArray cookieSentTo(TestServer &server, const Resource &resource)
    {
        server.clearRequests();
        const auto outcome = await(resource.get->fetch(&network, {{u"id"_s, 1}}));
        if (!outcome.value || server.requestCount() != 1)
            return "<no request>";
        return server.lastRequest().header("cookie");
    }
    bool jarHas(const QString &name, const TestServer &server)
    {
        const QList<QNetworkCookie> cookies = network.cookieJar()->cookiesForUrl(server.baseUrl());
        return std::any_of(cookies.cbegin(), cookies.cend(),
                           [&](const QNetworkCookie &c) { return c.name() == name.toUtf8(); });
    }

    TestServer home; // the urlPrefix's origin
    TestServer elsewhere; // another origin
    QNetworkAccessManager network;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(home.listen());
        QVERIFY(elsewhere.listen());
        otherOrigin = elsewhere.baseUrl();
        for (TestServer *server : {&home, &elsewhere}) {
            server->route("GET", u"/sessions/:id"_s, [server](const RecordedRequest &) {
                return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}})
                    .withHeader("Set-Cookie",
                                "from" + QByteArray::number(server->port()) + "=1; Path=/");
            });
        }
    }
    void init()
    {
        network.setCookieJar(new QNetworkCookieJar); // the manager owns it; a fresh jar per test
        network.cookieJar()->setCookiesFromUrl({QNetworkCookie("session", "abc")}, home.baseUrl());
    }

    void defaultIsSameOrigin()
    {
        const Resource r = sessions(Credentials::SameOrigin);
        QCOMPARE(RestEndpoint::create({}).get()->credentials(), Credentials::SameOrigin);
        QCOMPARE(cookieSentTo(home, r), "session=abc"_ba);
    }

    void sameOriginEndpointClassKeepsCookiesHome()
    {
        // The resource asks for Include; the endpoint class narrows every request to same-origin.
        // [same-origin-use]
        const Resource r = createResource({
            .path = u"/sessions/:id"_s,
            .schema = user(),
            .urlPrefix = home.url(),
            .endpoint = endpointFactory<SameOriginEndpoint>(),
            .credentials = Credentials::Include,
        });
        // [same-origin-use]
        QCOMPARE(r.get->getRequestInit({}).credentials, Credentials::SameOrigin);
        QCOMPARE(cookieSentTo(home, r), "session=abc"_ba);
        QVERIFY(jarHas(u"from%1"_s.arg(home.port()), home));

        const Resource away
            = sessions(Credentials::Include, endpointFactory<SameOriginElsewhere>());
        QCOMPARE(cookieSentTo(elsewhere, away), QByteArray());
        QCOMPARE(elsewhere.lastRequest().path, u"/sessions/1"_s);
        // Nor does the other origin get to store cookies.
        QVERIFY(!jarHas(u"from%1"_s.arg(elsewhere.port()), elsewhere));
    }

    void includeSendsToEveryOrigin()
    {
        const Resource away = sessions(Credentials::Include, endpointFactory<PlainElsewhere>());
        QCOMPARE(cookieSentTo(elsewhere, away), "session=abc"_ba);
        QVERIFY(jarHas(u"from%1"_s.arg(elsewhere.port()), elsewhere));
    }

    void omitSendsNothingEvenAtHome()
    {
        const Resource r = sessions(Credentials::Omit);
        QCOMPARE(cookieSentTo(home, r), QByteArray());
        QVERIFY(!jarHas(u"from%1"_s.arg(home.port()), home));
    }
};

QTEST_GUILESS_MAIN(tst_Credentials)
#include "tst_credentials.moc"
