// RestEndpoint without the network: URLs (prefix, path, extra parameters in the query, encoding,
// dropped nulls, repeated array keys), keys, getRequestInit, searchToString, properties and
// extend().
#include "restfixture.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

class TaggedEndpoint : public EndpointBase<TaggedEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QString searchToString(const Params &params) const override
    {
        // Lists as one comma-separated value (the hook changes the serialization).
        QStringList pairs;
        for (auto it = params.cbegin(); it != params.cend(); ++it)
            pairs.append(it.key() + u'=' + it.value().toStringList().join(u','));
        return pairs.join(u'&');
    }
};

// A key that depends on the endpoint's own state, not only on the params (such an endpoint's
// keys are never taken from the last-key memo).
class AccountEndpoint : public EndpointBase<AccountEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QString searchToString(const Params &params) const override
    {
        return u"account="_s + account + u'&' + RestEndpoint::searchToString(params);
    }
    QString account = u"a"_s;
};

class ForgetfulEndpoint : public RestEndpoint // does not use EndpointBase: extend() loses it
{
public:
    using RestEndpoint::RestEndpoint;
};

} // namespace

class tst_RestEndpoint : public QObject
{
    Q_OBJECT

private:
    static EndpointPtr endpoint(const QString &path, const QString &prefix = u"http://test.com"_s)
    {
        return RestEndpoint::create({.path = path, .urlPrefix = prefix});
    }
    static QString urlOf(const EndpointPtr &e, const Params &params)
    {
        QString error;
        const QUrl url = e->url(params, &error);
        return url.isValid() ? url.toString(QUrl::FullyEncoded) : u"error: "_s + error;
    }

private Q_SLOTS:
    void urls_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("expected");
        QTest::newRow("case 1") << u"/user/:id"_s << Params {{u"id"_s, u"5"_s}}
                                << u"http://test.com/user/5"_s;
        QTest::newRow("case 6 extra joins with &")
            << u"/users/:login/events/public\\?per_page=50"_s
            << Params {{u"login"_s, u"alice"_s}, {u"page"_s, 2}}
            << u"http://test.com/users/alice/events/public?per_page=50&page=2"_s;
        QTest::newRow("case 7 template order, then extras")
            << u"/search\\?q=:q&page=:page?"_s
            << Params {{u"q"_s, u"x"_s}, {u"page"_s, 2}, {u"a"_s, 1}}
            << u"http://test.com/search?q=x&page=2&a=1"_s;
        QTest::newRow("case 7 vanished query, extras start it")
            << u"/search\\?page=:page?"_s << Params {{u"a"_s, 1}}
            << u"http://test.com/search?a=1"_s;
        QTest::newRow("case 8 extra")
            << u"/users/:id"_s << Params {{u"id"_s, u"5"_s}, {u"extra"_s, u"x"_s}}
            << u"http://test.com/users/5?extra=x"_s;
        QTest::newRow("case 8 sorted")
            << u"/users/:id"_s << Params {{u"id"_s, u"5"_s}, {u"z"_s, u"1"_s}, {u"a"_s, u"2"_s}}
            << u"http://test.com/users/5?a=2&z=1"_s;
        QTest::newRow("case 9 path encoded") << u"/users/:id"_s << Params {{u"id"_s, u"a b/c"_s}}
                                             << u"http://test.com/users/a%20b%2Fc"_s;
        QTest::newRow("case 9 query encoded, spaces as %20")
            << u"/users/:id"_s << Params {{u"id"_s, u"5"_s}, {u"q"_s, u"a b&c"_s}}
            << u"http://test.com/users/5?q=a%20b%26c"_s;
        QTest::newRow("case 9 plus is literal")
            << u"/users/:id"_s << Params {{u"id"_s, 5}, {u"q"_s, u"1+1=2"_s}}
            << u"http://test.com/users/5?q=1%2B1%3D2"_s;
        QTest::newRow("case 9 number")
            << u"/users/:id"_s << Params {{u"id"_s, 5}} << u"http://test.com/users/5"_s;
        QTest::newRow("case 10 undefined dropped")
            << u"/users/:id"_s << Params {{u"id"_s, u"5"_s}, {u"q"_s, QVariant()}}
            << u"http://test.com/users/5"_s;
        QTest::newRow("case 10 null dropped")
            << u"/users/:id"_s << Params {{u"id"_s, u"5"_s}, {u"q"_s, QVariant::fromValue(nullptr)}}
            << u"http://test.com/users/5"_s;
        QTest::newRow("case 11 arrays repeat")
            << u"/posts"_s << Params {{u"tags"_s, QStringList {u"a"_s, u"b"_s}}}
            << u"http://test.com/posts?tags=a&tags=b"_s;
        QTest::newRow("booleans") << u"/posts"_s << Params {{u"done"_s, false}}
                                  << u"http://test.com/posts?done=false"_s;
        QTest::newRow("query key encoded")
            << u"/posts"_s << Params {{u"a b"_s, 1}} << u"http://test.com/posts?a%20b=1"_s;
        QTest::newRow("unicode and CR LF")
            << u"/users/:id"_s << Params {{u"id"_s, u"é\r\nX: y"_s}, {u"q"_s, u"日\n"_s}}
            << u"http://test.com/users/%C3%A9%0D%0AX%3A%20y?q=%E6%97%A5%0A"_s;
        QTest::newRow("prefix with a path")
            << u"/users/:id"_s << Params {{u"id"_s, 1}} << u"http://test.com/users/1"_s;
    }
    void urls()
    {
        QFETCH(QString, path);
        QFETCH(Params, params);
        QFETCH(QString, expected);
        QCOMPARE(urlOf(endpoint(path), params), expected);
    }

    void prefixWithPath()
    {
        QCOMPARE(urlOf(endpoint(u"/users/:id"_s, u"https://api.example.com/v2"_s), {{u"id"_s, 1}}),
                 u"https://api.example.com/v2/users/1"_s);
    }

    void urlErrorsNameTheProblem()
    {
        const EndpointPtr e = endpoint(u"/groups/:group/users/:id"_s);
        QString error;
        QVERIFY(!e->url({{u"id"_s, u"5"_s}}, &error).isValid());
        QVERIFY2(error.contains(u"missing required parameter 'group'"_s), qPrintable(error));
        QVERIFY(e->key({{u"id"_s, u"5"_s}}, &error).isEmpty());
        QVERIFY2(error.contains(u"'group'"_s), qPrintable(error));
        QVERIFY(!endpoint(u"/x"_s, u"http://bad host"_s)->url({}, &error).isValid());
        QVERIFY2(error.contains(u"urlPrefix"_s), qPrintable(error));
    }

    void searchToStringHookChangesTheQuery()
    {
        const auto e = std::make_shared<TaggedEndpoint>(
            EndpointOptions {.path = u"/posts"_s, .urlPrefix = u"http://test.com"_s});
        QCOMPARE(urlOf(e, {{u"tags"_s, QStringList {u"a"_s, u"b"_s}}}),
                 u"http://test.com/posts?tags=a,b"_s);
    }

    // A key is "METHOD url"; getPage shares getList's key; requestKey keeps it.
    void keys()
    {
        const EndpointPtr get = RestEndpoint::create(
            {.path = u"/article-cooler/:id"_s, .urlPrefix = u"http://test.com"_s});
        QCOMPARE(get->key({{u"id"_s, 5}}), u"GET http://test.com/article-cooler/5"_s);
        QCOMPARE(get->requestKey({{u"id"_s, 5}}), u"GET http://test.com/article-cooler/5"_s);

        const EndpointPtr push = RestEndpoint::create({.method = "post",
                                                       .path = u"/groups/:group/users"_s,
                                                       .urlPrefix = u"http://api.test"_s});
        QCOMPARE(push->method(), "POST"_ba);
        QCOMPARE(push->key({{u"group"_s, u"g1"_s}}), u"POST http://api.test/groups/g1/users"_s);

        const EndpointPtr list = RestEndpoint::create(
            {.path = u"/article-paginated"_s, .urlPrefix = u"http://test.com"_s});
        const EndpointPtr page = list->extend({.paginationField = u"cursor"_s});
        const Params args {{u"group"_s, u"happy"_s}, {u"cursor"_s, 2}};
        QCOMPARE(page->key(args), list->key({{u"group"_s, u"happy"_s}}));
        QCOMPARE(page->key(args), u"GET http://test.com/article-paginated?group=happy"_s);
        QCOMPARE(page->requestKey(args),
                 u"GET http://test.com/article-paginated?cursor=2&group=happy"_s);
        // Equal parameters in any insertion order give the same key.
        Params reordered;
        reordered.insert(u"z"_s, 1);
        reordered.insert(u"a"_s, 2);
        QCOMPARE(list->key(reordered), list->key({{u"a"_s, 2}, {u"z"_s, 1}}));
    }

    // The last key of a plain endpoint is kept (a warm Controller read builds one each time);
    // it is only reused for params of the same types and values, and never for a subclass.
    void lastKeyMemo()
    {
        const EndpointPtr list
            = RestEndpoint::create({.path = u"/todos"_s, .urlPrefix = u"http://test.com"_s});
        QCOMPARE(list->key({{u"done"_s, true}}), u"GET http://test.com/todos?done=true"_s);
        QCOMPARE(list->key({{u"done"_s, true}}), u"GET http://test.com/todos?done=true"_s);
        // QVariant(1) == QVariant(true), but their key texts differ
        QCOMPARE(list->key({{u"done"_s, 1}}), u"GET http://test.com/todos?done=1"_s);
        QCOMPARE(list->key({{u"done"_s, 1.5}}), u"GET http://test.com/todos?done=1.5"_s);
        QCOMPARE(list->key({{u"done"_s, 1.5}}), u"GET http://test.com/todos?done=1.5"_s);
        QCOMPARE(list->key({{u"done"_s, u"1"_s}, {u"x"_s, 2}}),
                 u"GET http://test.com/todos?done=1&x=2"_s);
        QCOMPARE(list->key({}), u"GET http://test.com/todos"_s);

        AccountEndpoint mine({.path = u"/todos"_s, .urlPrefix = u"http://test.com"_s});
        QCOMPARE(mine.key({{u"x"_s, 1}}), u"GET http://test.com/todos?account=a&x=1"_s);
        mine.account = u"b"_s;
        QCOMPARE(mine.key({{u"x"_s, 1}}), u"GET http://test.com/todos?account=b&x=1"_s);
    }

    // A body is sent as JSON with Content-Type: application/json.
    void requestInit()
    {
        const EndpointPtr post = RestEndpoint::create({.method = "POST", .path = u"/a"_s});
        RequestInit init = post->getRequestInit(QJsonObject {{u"a"_s, 1}});
        QCOMPARE(init.method, "POST"_ba);
        QCOMPARE(init.body, std::optional<QByteArray>(R"({"a":1})"_ba));
        QCOMPARE(init.header("content-type"), "application/json"_ba);
        QCOMPARE(init.credentials, Credentials::SameOrigin);
        QCOMPARE(init.timeout, 30000);

        init = post->getRequestInit(QJsonArray {1, 2});
        QCOMPARE(*init.body, "[1,2]"_ba);
        init = post->getRequestInit(5);
        QCOMPARE(*init.body, "5"_ba);
        QCOMPARE(init.header("Content-Type"), "application/json"_ba);
        init = post->getRequestInit(u"plain"_s);
        QCOMPARE(*init.body, "plain"_ba);
        QVERIFY(init.header("Content-Type").startsWith("text/plain"));

        init = post->getRequestInit(QJsonValue());
        QVERIFY(!init.body);
        QVERIFY(!init.hasHeader("content-type"));

        // A header given by the endpoint wins over the default.
        const EndpointPtr merge
            = post->extend({.headers = QList<QPair<QByteArray, QByteArray>> {
                                {"content-type", "application/merge-patch+json"}, {"X-Api", "1"}}});
        init = merge->getRequestInit(QJsonObject {{u"a"_s, 1}});
        QCOMPARE(init.header("Content-Type"), "application/merge-patch+json"_ba);
        QCOMPARE(init.header("x-api"), "1"_ba);
        QCOMPARE(init.headers.size(), 2);

        // GET and DELETE never carry a body.
        for (const QByteArray &method : {"GET"_ba, "DELETE"_ba}) {
            const EndpointPtr e = RestEndpoint::create({.method = method, .path = u"/a"_s});
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"never send one"_s));
            init = e->getRequestInit(QJsonObject {{u"a"_s, 1}});
            QVERIFY(!init.body);
            QVERIFY(!init.hasHeader("content-type"));
        }
    }

    void requestInitHeaderHelpers()
    {
        RequestInit init;
        init.headers = {{"X-A", "1"}, {"x-a", "2"}, {"X-B", "3"}};
        QCOMPARE(init.header("x-A"), "1, 2"_ba);
        init.setHeader("X-a", "9");
        QCOMPARE(init.header("x-a"), "9"_ba);
        QCOMPARE(init.headers.size(), 2);
        init.removeHeader("x-b");
        QVERIFY(!init.hasHeader("X-B"));
        QCOMPARE(credentialsName(Credentials::SameOrigin), u"same-origin"_s);
        QCOMPARE(credentialsFromName(u"omit"_s), std::optional(Credentials::Omit));
        QCOMPARE(credentialsFromName(u"sometimes"_s), std::nullopt);
    }

    // An endpoint's method, path, schema, searchParams, body and paginationField are readable as
    // CONSTANT properties (from QML too).
    void properties()
    {
        const EndpointPtr e = RestEndpoint::create({
            .name = u"getList.getPage"_s,
            .method = "GET",
            .path = u"/todos"_s,
            .urlPrefix = u"http://x"_s,
            .schema = Schema::collection(RestFixture::user()),
            .searchParams = {u"userId"_s},
            .body = QJsonObject {{u"title"_s, u""_s}},
            .paginationField = u"page"_s,
            .optimistic = true,
            .pollFrequency = 5000,
            .credentials = Credentials::Include,
            .timeout = 1234,
        });
        QCOMPARE(e->property("name").toString(), u"getList.getPage"_s);
        QCOMPARE(e->property("method").toString(), u"GET"_s);
        QCOMPARE(e->property("path").toString(), u"/todos"_s);
        QCOMPARE(e->property("urlPrefix").toString(), u"http://x"_s);
        QCOMPARE(e->property("searchParams").toStringList(), QStringList {u"userId"_s});
        QCOMPARE(e->property("body").toJsonValue(), QJsonValue(QJsonObject {{u"title"_s, u""_s}}));
        QCOMPARE(e->property("paginationField").toString(), u"page"_s);
        QCOMPARE(e->property("pollFrequency").toInt(), 5000);
        QCOMPARE(e->property("dataExpiryLength").toInt(), 60000);
        QCOMPARE(e->property("errorExpiryLength").toInt(), 1000);
        QCOMPARE(e->property("optimistic").toBool(), true);
        QCOMPARE(e->property("sideEffect").toBool(), false);
        QCOMPARE(e->property("credentials").toString(), u"include"_s);
        QCOMPARE(e->property("timeout").toInt(), 1234);
        QCOMPARE(e->property("schemaKey").toString(), u"[User]"_s);
        QCOMPARE(e->property("valid").toBool(), true);
        const QMetaObject *meta = e->metaObject();
        for (int i = meta->propertyOffset(); i < meta->propertyCount(); ++i)
            QVERIFY2(meta->property(i).isConstant(), meta->property(i).name());
        QVERIFY(RestEndpoint::create({.method = "PATCH"})->sideEffect());
        QVERIFY(!RestEndpoint::create({.method = "PATCH", .sideEffect = false})->sideEffect());
    }

    void malformedPathMakesAnInvalidEndpoint()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"expected a parameter name"_s));
        const EndpointPtr e = RestEndpoint::create({.path = u"/users/:"_s});
        QVERIFY(!e->isValid());
        QVERIFY2(e->errorString().contains(u"'/users/:' (position 7)"_s),
                 qPrintable(e->errorString()));
    }

    void extendKeepsTheClassAndLeavesTheOriginal()
    {
        const auto base = std::make_shared<TaggedEndpoint>(
            EndpointOptions {.name = u"get"_s, .path = u"/a/:id"_s, .pollFrequency = 10});
        const EndpointPtr extended = base->extend({.path = u"/b/:id"_s, .pollFrequency = 20});
        QVERIFY(dynamic_cast<TaggedEndpoint *>(extended.get()));
        QCOMPARE(extended->path(), u"/b/:id"_s);
        QCOMPARE(extended->pollFrequency(), 20);
        QCOMPARE(extended->name(), u"get"_s); // not overridden: kept
        QCOMPARE(base->path(), u"/a/:id"_s);
        QCOMPARE(base->pollFrequency(), 10);
        QVERIFY(extended != base);

        const auto forgetful = std::make_shared<ForgetfulEndpoint>(EndpointOptions {});
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"EndpointBase"_s));
        const EndpointPtr plain = forgetful->extend({});
        QVERIFY(!dynamic_cast<ForgetfulEndpoint *>(plain.get()));
    }

    void overridesMerge()
    {
        const EndpointOverrides a {.path = u"/a"_s, .timeout = 5};
        const EndpointOverrides b {.path = u"/b"_s, .pollFrequency = 7};
        const EndpointOptions merged = a.mergedWith(b).applyTo({});
        QCOMPARE(merged.path, u"/b"_s);
        QCOMPARE(merged.timeout, 5);
        QCOMPARE(merged.pollFrequency, 7);
    }
};

QTEST_GUILESS_MAIN(tst_RestEndpoint)
#include "tst_restendpoint.moc"
