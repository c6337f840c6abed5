// createResource(): every member (get, getList, push, unshift, getPage, update, partialUpdate,
// delete) against the real test server — the method, path, query and body the server received
// and the value returned. Keys, option errors and options reaching every member:
// tst_resourceoptions.cpp.
#include "restfixture.h"

#include <DataClient/createresource.h>
#include <DataClient/store.h>
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

// A custom getRequestInit of the resource's Endpoint class applies to every member.
class SignedEndpoint : public EndpointBase<SignedEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    RequestInit getRequestInit(const QJsonValue &body) const override
    {
        RequestInit init = RestEndpoint::getRequestInit(body);
        init.setHeader("X-Signed", name().toUtf8());
        return init;
    }
};

QJsonObject userJson(const QString &id, const QString &name)
{
    return {{u"id"_s, id}, {u"username"_s, name}};
}

} // namespace

class tst_Resource : public QObject
{
    Q_OBJECT

private:
    Resource users(const ResourceOptions &extra = {})
    {
        ResourceOptions options = extra;
        options.path = u"/groups/:group/users/:id"_s;
        options.schema = user();
        options.urlPrefix = server.url();
        options.searchParams = {u"sort"_s};
        options.body = userJson({}, {});
        if (options.paginationField.isEmpty())
            options.paginationField = u"page"_s;
        return createResource(options);
    }

    TestServer server;
    QNetworkAccessManager network;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        server.route("GET", u"/groups/:group/users"_s, [](const RecordedRequest &request) {
            const int page = request.query.queryItemValue(u"page"_s).toInt();
            return ServerResponse::json(
                page > 1 ? QJsonArray {userJson(u"3"_s, u"c"_s)}
                         : QJsonArray {userJson(u"1"_s, u"a"_s), userJson(u"2"_s, u"b"_s)});
        });
        server.route("GET", u"/groups/:group/users/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(userJson(request.pathParams.value(u"id"_s), u"a"_s));
        });
        server.route("POST", u"/groups/:group/users"_s, [](const RecordedRequest &request) {
            QJsonObject created = request.json().toObject();
            created.insert(u"id"_s, u"99"_s);
            return ServerResponse::json(created, 201);
        });
        for (const QByteArray &method : {"PUT"_ba, "PATCH"_ba}) {
            server.route(method, u"/groups/:group/users/:id"_s, [](const RecordedRequest &request) {
                QJsonObject updated = request.json().toObject();
                updated.insert(u"id"_s, request.pathParams.value(u"id"_s));
                return ServerResponse::json(updated);
            });
        }
        server.route("DELETE", u"/groups/:group/users/:id"_s,
                     [](const RecordedRequest &) { return ServerResponse::json(QJsonObject {}); });
    }
    void init() { server.clearRequests(); }

    // Each member's method, path, schema, searchParams, body and pagination field.
    void membersMatchTheTable()
    {
        const Resource r = users();
        QVERIFY2(r.isValid(), qPrintable(r.errorString()));
        QCOMPARE(r.memberNames(),
                 (QStringList {u"get"_s, u"getList"_s, u"getList.push"_s, u"getList.unshift"_s,
                               u"getList.getPage"_s, u"getList.move"_s, u"getList.remove"_s,
                               u"getList.assign"_s, u"update"_s, u"partialUpdate"_s, u"delete"_s}));
        struct Row
        {
            QString name;
            QByteArray method;
            QString path;
            Schema::Kind kind;
            Schema::CollectionMode mode;
        };
        const QString one = u"/groups/:group/users/:id"_s;
        const QString list = u"/groups/:group/users"_s;
        using K = Schema::Kind;
        using M = Schema::CollectionMode;
        const QList<Row> table {
            {u"get"_s, "GET", one, K::Entity, M::Replace},
            {u"getList"_s, "GET", list, K::Collection, M::Replace},
            {u"getList.push"_s, "POST", list, K::Collection, M::Push},
            {u"getList.unshift"_s, "POST", list, K::Collection, M::Unshift},
            {u"getList.getPage"_s, "GET", list, K::Collection, M::AddWith},
            {u"update"_s, "PUT", one, K::Entity, M::Replace},
            {u"partialUpdate"_s, "PATCH", one, K::Entity, M::Replace},
            {u"delete"_s, "DELETE", one, K::Invalidate, M::Replace},
        };
        for (const Row &row : table) {
            const ResourceMember m = r.member(row.name);
            QVERIFY2(m, qPrintable(row.name));
            QCOMPARE(m->name(), row.name);
            QCOMPARE(m->method(), row.method);
            QCOMPARE(m->path(), row.path);
            QCOMPARE(m->urlPrefix(), server.url());
            QCOMPARE(m->schema().kind(), row.kind);
            if (row.kind == K::Collection)
                QCOMPARE(m->schema().collectionMode(), row.mode);
            QCOMPARE(m->schema().entitySchema().key(), u"User"_s);
            QCOMPARE(m->paginationField(), row.name == u"getList.getPage" ? u"page"_s : QString());
            const bool listMember = row.name.startsWith(u"getList");
            QCOMPARE(m->searchParams(), listMember ? QStringList {u"sort"_s} : QStringList {});
            const bool hasBody = row.name == u"getList.push" || row.name == u"getList.unshift"
                || row.name == u"update" || row.name == u"partialUpdate";
            QCOMPARE(m->body(), hasBody ? QJsonValue(userJson({}, {})) : QJsonValue());
            QCOMPARE(m->sideEffect(), row.method != "GET");
        }
        // The C++ names are the same endpoints.
        QCOMPARE(r.member(u"delete"_s).endpoint(), r.remove.endpoint());
        QCOMPARE(r.member(u"remove"_s).endpoint(), r.remove.endpoint());
        QCOMPARE(r.member(u"getList.push"_s).endpoint(), r.getList.push.endpoint());
        QVERIFY(!r.member(u"nothing"_s));
    }

    void get()
    {
        const Resource r = users();
        const auto outcome = await(r.get->fetch(&network, {{u"group"_s, u"five"_s}, {u"id"_s, 5}}));
        QCOMPARE(outcome.value, std::optional(QJsonValue(userJson(u"5"_s, u"a"_s))));
        QCOMPARE(server.lastRequest().method, "GET"_ba);
        QCOMPARE(server.lastRequest().path, u"/groups/five/users/5"_s);
        QVERIFY(server.lastRequest().query.isEmpty());
        QVERIFY(server.lastRequest().body.isEmpty());
    }

    // getList({group: "five"}) -> GET /groups/five/users.
    void getList()
    {
        const Resource r = users();
        const auto outcome
            = await(r.getList->fetch(&network, {{u"group"_s, u"five"_s}, {u"sort"_s, u"name"_s}}));
        QVERIFY(outcome.value);
        QCOMPARE(outcome.value->toArray().size(), 2);
        QCOMPARE(server.lastRequest().method, "GET"_ba);
        QCOMPARE(server.lastRequest().path, u"/groups/five/users"_s);
        QCOMPARE(server.lastRequest().query.toString(), u"sort=name"_s);
    }

    // push posts to the list path; a custom Endpoint class's getRequestInit applies.
    void pushAndUnshift_data()
    {
        QTest::addColumn<QString>("member");
        QTest::newRow("push") << u"getList.push"_s;
        QTest::newRow("unshift") << u"getList.unshift"_s;
    }
    void pushAndUnshift()
    {
        QFETCH(QString, member);
        const Resource r = users({.endpoint = endpointFactory<SignedEndpoint>()});
        const QJsonObject body {{u"username"_s, u"new"_s}};
        const auto outcome
            = await(r.member(member)->fetch(&network, {{u"group"_s, u"five"_s}}, body));
        QCOMPARE(outcome.value, std::optional(QJsonValue(userJson(u"99"_s, u"new"_s))));
        const RecordedRequest received = server.lastRequest();
        QCOMPARE(received.method, "POST"_ba);
        QCOMPARE(received.path, u"/groups/five/users"_s);
        QCOMPARE(received.json(), QJsonValue(body));
        QCOMPARE(received.header("content-type"), "application/json"_ba);
        QCOMPARE(received.header("x-signed"), member.toUtf8());
        QVERIFY(dynamic_cast<SignedEndpoint *>(r.member(member).endpoint().get()));
    }

    // getPage adds the pagination field to getList's query; its key is getList's.
    void getPage()
    {
        const Resource r = users();
        const Params args {{u"group"_s, u"five"_s}, {u"sort"_s, u"name"_s}, {u"page"_s, 2}};
        const auto outcome = await(r.getList.getPage->fetch(&network, args));
        QCOMPARE(outcome.value, std::optional(QJsonValue(QJsonArray {userJson(u"3"_s, u"c"_s)})));
        QCOMPARE(server.lastRequest().method, "GET"_ba);
        QCOMPARE(server.lastRequest().path, u"/groups/five/users"_s);
        QCOMPARE(server.lastRequest().query.toString(), u"page=2&sort=name"_s);
        Params listArgs = args;
        listArgs.remove(u"page"_s);
        QCOMPARE(r.getList.getPage->key(args), r.getList->key(listArgs));
        QVERIFY(r.getList.getPage->requestKey(args) != r.getList->key(listArgs));
    }

    // getPage with a "cursor" pagination field: the cursor and the list's arguments in the query,
    // keys sorted.
    void case12CursorPage()
    {
        server.route("GET", u"/article-paginated"_s,
                     [](const RecordedRequest &) { return ServerResponse::json(QJsonArray {}); });
        const Resource articles = createResource({.path = u"/article-paginated/:id"_s,
                                                  .schema = user(),
                                                  .urlPrefix = server.url(),
                                                  .paginationField = u"cursor"_s});
        QVERIFY(await(articles.getList.getPage->fetch(&network,
                                                      {{u"group"_s, u"happy"_s}, {u"cursor"_s, 2}}))
                    .value);
        QCOMPARE(server.lastRequest().rawTarget, "/article-paginated?cursor=2&group=happy"_ba);
    }

    // update -> PUT /groups/five/users/5 with the body.
    void updateAndPartialUpdate_data()
    {
        QTest::addColumn<QString>("member");
        QTest::addColumn<QByteArray>("method");
        QTest::newRow("update") << u"update"_s << "PUT"_ba;
        QTest::newRow("partialUpdate") << u"partialUpdate"_s << "PATCH"_ba;
    }
    void updateAndPartialUpdate()
    {
        QFETCH(QString, member);
        QFETCH(QByteArray, method);
        const Resource r = users();
        const QJsonObject body {{u"username"_s, u"never"_s}};
        const auto outcome = await(
            r.member(member)->fetch(&network, {{u"group"_s, u"five"_s}, {u"id"_s, u"5"_s}}, body));
        QCOMPARE(outcome.value, std::optional(QJsonValue(userJson(u"5"_s, u"never"_s))));
        QCOMPARE(server.lastRequest().method, method);
        QCOMPARE(server.lastRequest().path, u"/groups/five/users/5"_s);
        QCOMPARE(server.lastRequest().json(), QJsonValue(body));
    }

    // A delete answered with {} or 204 resolves to the URL parameters; a bare pk -> the same
    // object.
    void deleteResolvesToThePk_data()
    {
        QTest::addColumn<ServerResponse>("answer");
        QTest::newRow("empty object") << ServerResponse::json(QJsonObject {});
        QTest::newRow("204") << ServerResponse::noContent();
        QTest::newRow("pk string") << ServerResponse::json(u"500"_s);
        QTest::newRow("object with the pk") << ServerResponse::json(QJsonObject {{u"id"_s, 500}});
    }
    void deleteResolvesToThePk()
    {
        QFETCH(ServerResponse, answer);
        server.route("DELETE", u"/items/:id"_s,
                     [answer](const RecordedRequest &) { return answer; });
        const Resource items = createResource(
            {.path = u"/items/:id"_s, .schema = user(), .urlPrefix = server.url()});
        const auto outcome = await(items.remove->fetch(&network, {{u"id"_s, 500}}));
        QVERIFY(outcome.value);
        QCOMPARE(server.lastRequest().method, "DELETE"_ba);
        QCOMPARE(server.lastRequest().path, u"/items/500"_s);
        QVERIFY(server.lastRequest().body.isEmpty());
        // Whatever the answer, the entity's pk is "500".
        QCOMPARE(userEntity().pk(outcome.value->toObject()), u"500"_s);
        // The direct call gives the same value as a QVariant.
        const auto direct = await(items.remove.fetch(&network, {{u"id"_s, 500}}));
        QVERIFY(direct.value);
        QCOMPARE(direct.value->toMap().value(u"id"_s).toString(), u"500"_s);
    }

    // Members are callable: the result is the denormalized value.
    void directCalls()
    {
        const Resource r = users();
        const auto one = await(r.get({{u"group"_s, u"g"_s}, {u"id"_s, u"7"_s}}));
        QVERIFY(one.value);
        QCOMPARE(one.value->toMap().value(u"id"_s).toString(), u"7"_s);
        QCOMPARE(one.value->toMap().value(u"username"_s).toString(), u"a"_s);
        const auto list = await(r.getList.fetch(&network, {{u"group"_s, u"g"_s}}));
        QVERIFY(list.value);
        QCOMPARE(list.value->toList().size(), 2);
        QCOMPARE(server.requestCount(), 2);
    }

    // The example of docs/rest.md and docs/errors.md.
    void documentationExample()
    {
        const auto todosApi = [](const RecordedRequest &request) {
            if (request.path == u"/todos/404")
                return ServerResponse::json(QJsonObject {{u"message"_s, u"no such todo"_s}}, 404);
            if (request.method == "DELETE")
                return ServerResponse::noContent();
            if (request.path == u"/todos" && request.method == "GET")
                return ServerResponse::json(QJsonArray {QJsonObject {{u"id"_s, 1}}});
            QJsonObject todo = request.json().toObject();
            todo.insert(u"id"_s, 5);
            return ServerResponse::json(todo);
        };
        server.route("*", u"/todos"_s, todosApi);
        server.route("*", u"/todos/*"_s, todosApi);
        // [create]
        const Resource todos = createResource({
            .path = u"/todos/:id"_s,
            .schema = Schema::entity(EntitySchema(u"Todo"_s)),
            .urlPrefix = server.url(),
            .searchParams = {u"userId"_s},
            .paginationField = u"page"_s,
        });
        // [create]
        // [call]
        QFuture<QVariant> one = todos.get({{u"id"_s, 5}});
        QFuture<QVariant> mine = todos.getList({{u"userId"_s, 1}});
        QFuture<QVariant> page2 = todos.getList.getPage({{u"userId"_s, 1}, {u"page"_s, 2}});
        QFuture<QVariant> created = todos.getList.push({}, QJsonObject {{u"title"_s, u"Docs"_s}});
        QFuture<QVariant> edited
            = todos.partialUpdate({{u"id"_s, 5}}, QJsonObject {{u"done"_s, true}});
        QFuture<QVariant> removed = todos.remove({{u"id"_s, 5}});
        // [call]
        QVERIFY(await(one).value && await(mine).value && await(page2).value);
        QVERIFY(await(created).value && await(edited).value && await(removed).value);
        QCOMPARE(await(one).value->toMap().value(u"id"_s).toInt(), 5);
        QCOMPARE(await(mine).value->toList().size(), 1);
        QCOMPARE(await(page2).value->toList().size(), 1);
        QCOMPARE(await(created).value->toMap().value(u"title"_s).toString(), u"Docs"_s);
        QCOMPARE(await(edited).value->toMap().value(u"done"_s).toBool(), true);
        QCOMPARE(await(removed).value->toMap().value(u"id"_s).toInt(), 5);
        QCOMPARE(server.requests("GET"_ba, u"/todos"_s).size(), 2);
        QCOMPARE(server.requests("PATCH"_ba, u"/todos/5"_s).size(), 1);
        QCOMPARE(server.requests("DELETE"_ba, u"/todos/5"_s).size(), 1);

        // [keys]
        QCOMPARE(todos.get->key({{u"id"_s, 5}}), u"GET "_s + server.url(u"/todos/5"_s));
        QCOMPARE(todos.getList->key({{u"userId"_s, 1}}),
                 u"GET "_s + server.url(u"/todos?userId=1"_s));
        QCOMPARE(todos.getList.getPage->key({{u"userId"_s, 1}, {u"page"_s, 2}}),
                 todos.getList->key({{u"userId"_s, 1}}));
        QCOMPARE(todos.getList.getPage->requestKey({{u"userId"_s, 1}, {u"page"_s, 2}}),
                 u"GET "_s + server.url(u"/todos?page=2&userId=1"_s));
        // [keys]

        // [errors]
        std::optional<NetworkError> failure;
        todos.get({{u"id"_s, 404}}).onFailed(this, [&failure](const NetworkError &error) {
            failure = error; // error.status() == 404, error.json() is the server's body
            return QVariant();
        });
        // [errors]
        QTRY_VERIFY(failure);
        QCOMPARE(failure->status(), 404);
        QCOMPARE(failure->kind(), NetworkError::Kind::Http);
        QCOMPARE(failure->json()[u"message"_s].toString(), u"no such todo"_s);
    }

    // getPage without the pagination field is an error and sends nothing; a resource created
    // without paginationField has no getPage.
    void getPageRules()
    {
        const Resource r = users();
        const auto missing = await(r.getList.getPage->fetch(&network, {{u"group"_s, u"five"_s}}));
        QVERIFY(missing.error);
        QCOMPARE(missing.error->kind(), NetworkError::Kind::InvalidRequest);
        QVERIFY2(missing.error->message().contains(u"missing the pagination field 'page'"_s),
                 qPrintable(missing.error->message()));
        QCOMPARE(server.requestCount(), 0);

        const Resource plain = createResource(
            {.path = u"/users/:id"_s, .schema = user(), .urlPrefix = server.url()});
        QVERIFY(plain.isValid());
        QVERIFY(!plain.getList.getPage);
        QVERIFY(plain.getList.getPage.isNull());
        QVERIFY(!plain.member(u"getList.getPage"_s));
        QVERIFY(!plain.memberNames().contains(u"getList.getPage"_s));
        const auto absent = await(plain.getList.getPage({{u"page"_s, 2}}));
        QVERIFY(absent.error);
        QVERIFY2(absent.error->message().contains(u"does not exist"_s),
                 qPrintable(absent.error->message()));
        QCOMPARE(server.requestCount(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_Resource)
#include "tst_resource.moc"
