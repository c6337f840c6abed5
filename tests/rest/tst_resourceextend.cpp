// Resource::extend() in its three forms (batch, add, function) and the reusable resource
// factory; the original resource never changes; unknown member names are clear errors.
#include "restfixture.h"

#include <DataClient/createresource.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace RestFixture;
using namespace Qt::StringLiterals;

namespace {

// [factory]
// The app's default endpoint: every request carries the API version header.
class ApiEndpoint : public EndpointBase<ApiEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    RequestInit getRequestInit(const QJsonValue &body) const override
    {
        RequestInit init = RestEndpoint::getRequestInit(body);
        init.setHeader("X-Api-Version", "2");
        return init;
    }
};

// A reusable resource factory: createResource with the default Endpoint class, then extend.
Resource createApiResource(ResourceOptions options)
{
    options.endpoint = endpointFactory<ApiEndpoint>();
    return createResource(options).extend(
        u"current"_s, {.path = options.path.section(u'/', 0, -2) + u"/current"_s});
}
// [factory]

} // namespace

class tst_ResourceExtend : public QObject
{
    Q_OBJECT

private:
    Resource users() const
    {
        return createResource(
            {.path = u"/users/:id"_s, .schema = user(), .urlPrefix = server.url()});
    }

    TestServer server;
    QNetworkAccessManager network;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        server.route("*", u"/*"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(QJsonObject {{u"id"_s, u"1"_s}, {u"path"_s, request.path}});
        });
    }
    void init() { server.clearRequests(); }

    // Batch form: override options of existing members.
    void batchOverridesMembers()
    {
        const Resource base = users();
        // [batch]
        const Resource extended = base.extend({
            {u"get"_s, {.path = u"/people/:id"_s}},
            {u"partialUpdate"_s, {.method = "POST"}},
            {u"delete"_s, {.pollFrequency = 9}},
        });
        // [batch]
        QVERIFY2(extended.isValid(), qPrintable(extended.errorString()));
        QCOMPARE(extended.get->path(), u"/people/:id"_s);
        QCOMPARE(extended.partialUpdate->method(), "POST"_ba);
        QCOMPARE(extended.remove->pollFrequency(), 9);
        // Untouched members are shared, touched ones are new; the base is unchanged.
        QCOMPARE(extended.update.endpoint(), base.update.endpoint());
        QCOMPARE(base.get->path(), u"/users/:id"_s);
        QCOMPARE(base.partialUpdate->method(), "PATCH"_ba);

        QVERIFY(await(extended.get->fetch(&network, {{u"id"_s, 3}})).value);
        QCOMPARE(server.lastRequest().path, u"/people/3"_s);
    }

    // Overriding getList moves push, unshift and getPage with it (their own overrides still win).
    void batchOnGetListRebuildsItsVariants()
    {
        const Resource base = createResource({.path = u"/users/:id"_s,
                                              .schema = user(),
                                              .urlPrefix = server.url(),
                                              .paginationField = u"page"_s});
        const Resource extended = base.extend({
            {u"getList"_s, {.path = u"/teams/:team/members"_s}},
            {u"getList.unshift"_s, {.path = u"/teams/:team/members/first"_s}},
        });
        QVERIFY2(extended.isValid(), qPrintable(extended.errorString()));
        QCOMPARE(extended.getList->path(), u"/teams/:team/members"_s);
        QCOMPARE(extended.getList.push->path(), u"/teams/:team/members"_s);
        QCOMPARE(extended.getList.push->method(), "POST"_ba);
        QCOMPARE(extended.getList.push->schema().collectionMode(), Schema::CollectionMode::Push);
        QCOMPARE(extended.getList.getPage->path(), u"/teams/:team/members"_s);
        QCOMPARE(extended.getList.unshift->path(), u"/teams/:team/members/first"_s);
        QCOMPARE(base.getList.push->path(), u"/users"_s);

        QVERIFY(await(extended.getList.push->fetch(&network, {{u"team"_s, u"t1"_s}},
                                                   QJsonObject {{u"name"_s, u"x"_s}}))
                    .value);
        QCOMPARE(server.lastRequest().method, "POST"_ba);
        QCOMPARE(server.lastRequest().path, u"/teams/t1/members"_s);
    }

    // Add form: a new member with its own path and schema.
    void addFormAddsAMember()
    {
        const Resource base = users();
        // [add]
        const Schema session = Schema::entity(EntitySchema(u"Session"_s));
        const Resource extended
            = base.extend(u"current"_s, {.path = u"/users/current"_s, .schema = session});
        QVERIFY2(extended.isValid(), qPrintable(extended.errorString()));
        const ResourceMember current = extended.member(u"current"_s);
        // [add]
        QVERIFY(current);
        QCOMPARE(current->name(), u"current"_s);
        QCOMPARE(current->method(), "GET"_ba); // built from get
        QCOMPARE(current->schema().key(), u"Session"_s);
        QCOMPARE(extended.memberNames().last(), u"current"_s);
        QVERIFY(!base.member(u"current"_s));

        QVERIFY(await(current->fetch(&network, {})).value);
        QCOMPARE(server.lastRequest().path, u"/users/current"_s);
        // Added members can be overridden with the batch form too.
        const Resource again = extended.extend({{u"current"_s, {.path = u"/me"_s}}});
        QCOMPARE(again.member(u"current"_s)->path(), u"/me"_s);
    }

    // Function form: members built from base members.
    void functionFormBuildsFromTheBase()
    {
        const Resource base = users();
        // [function]
        const Resource extended = base.extend([](const Resource &r) {
            return QHash<QString, EndpointPtr> {
                {u"getList"_s, r.getList->extend({.searchParams = QStringList {u"q"_s}})},
                {u"search"_s, r.getList->extend({.name = u"search"_s, .path = u"/users/search"_s})},
            };
        });
        // [function]
        QVERIFY2(extended.isValid(), qPrintable(extended.errorString()));
        QCOMPARE(extended.getList->searchParams(), QStringList {u"q"_s});
        QCOMPARE(extended.getList.push->searchParams(), QStringList {u"q"_s}); // follows getList
        QCOMPARE(extended.member(u"search"_s)->path(), u"/users/search"_s);
        QCOMPARE(extended.member(u"search"_s)->schema().kind(), Schema::Kind::Collection);
        QVERIFY(base.getList->searchParams().isEmpty());

        QVERIFY(await(extended.member(u"search"_s)->fetch(&network, {{u"q"_s, u"al"_s}})).value);
        QCOMPARE(server.lastRequest().path, u"/users/search"_s);
        QCOMPARE(server.lastRequest().query.toString(), u"q=al"_s);
    }

    // The reusable resource factory, as written in docs/resources.md.
    void reusableFactory()
    {
        const Resource todos = createApiResource(
            {.path = u"/todos/:id"_s, .schema = user(), .urlPrefix = server.url()});
        QVERIFY2(todos.isValid(), qPrintable(todos.errorString()));
        for (const QString &name : todos.memberNames())
            QVERIFY2(dynamic_cast<ApiEndpoint *>(todos.member(name).endpoint().get()),
                     qPrintable(name));
        QVERIFY(await(todos.member(u"current"_s)->fetch(&network, {})).value);
        QCOMPARE(server.lastRequest().path, u"/todos/current"_s);
        QCOMPARE(server.lastRequest().header("x-api-version"), "2"_ba);
        QVERIFY(await(todos.update->fetch(&network, {{u"id"_s, 1}}, QJsonObject {})).value);
        QCOMPARE(server.lastRequest().header("x-api-version"), "2"_ba);
    }

    // Bad input: clear errors; the original stays valid and unchanged.
    void unknownMemberInBatch()
    {
        const Resource base = users();
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"no member named 'gett'"_s));
        const Resource extended = base.extend({{u"gett"_s, {.path = u"/x/:id"_s}}});
        QVERIFY(!extended.isValid());
        const QString error = extended.errorString();
        QVERIFY2(error.contains(u"extend({...})"_s), qPrintable(error));
        QVERIFY2(error.contains(u"resource '/users/:id'"_s), qPrintable(error));
        QVERIFY2(error.contains(u"expected one of: get, getList"_s), qPrintable(error));
        QVERIFY(base.isValid());
        QCOMPARE(base.get->path(), u"/users/:id"_s);
        QVERIFY(!extended.get);
    }
    void getPageWithoutPaginationFieldInBatch()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"getList.getPage"_s));
        const Resource extended = users().extend({{u"getList.getPage"_s, {}}});
        QVERIFY(!extended.isValid());
        QVERIFY2(extended.errorString().contains(u"only when the resource has a paginationField"_s),
                 qPrintable(extended.errorString()));
    }
    void malformedOverridePath()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"parameter name"_s));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"member 'get'"_s));
        const Resource extended = users().extend({{u"get"_s, {.path = u"/x/:"_s}}});
        QVERIFY(!extended.isValid());
        QVERIFY2(extended.errorString().contains(u"position 3"_s),
                 qPrintable(extended.errorString()));
    }
    void addFormRefusesSpecNamesAndEmptyNames()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"batch form"_s));
        Resource r = users().extend(u"delete"_s, {.path = u"/x"_s});
        QVERIFY(!r.isValid());
        QVERIFY2(r.errorString().contains(u"'delete' is a member createResource() builds"_s),
                 qPrintable(r.errorString()));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"the name is empty"_s));
        r = users().extend(QString(), {.path = u"/x"_s});
        QVERIFY(!r.isValid());
    }
    void functionReturningNullIsAnError()
    {
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"no endpoint for member 'broken'"_s));
        const Resource r = users().extend([](const Resource &) {
            return QHash<QString, EndpointPtr> {{u"broken"_s, nullptr}};
        });
        QVERIFY(!r.isValid());
        QVERIFY2(r.errorString().contains(u"base.get->extend"_s), qPrintable(r.errorString()));
    }
    void extendingAnInvalidResourceKeepsItsError()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"createResource"_s));
        const Resource invalid = createResource({.path = u"/users"_s, .schema = user()});
        const Resource still = invalid.extend({{u"get"_s, {}}});
        QVERIFY(!still.isValid());
        QCOMPARE(still.errorString(), invalid.errorString());
    }
};

QTEST_GUILESS_MAIN(tst_ResourceExtend)
#include "tst_resourceextend.moc"
