// Against a server with Django REST Framework's routes (every path ends in '/', a path without
// it answered 301 to the same path with it, for every method): a resource whose path ends in
// '/' reaches it without a redirect from every member, and a mutation the server answers 301 or
// 302 fails with a Redirect error and changes nothing, whatever its entity's pk (a field or a
// gadget's pk()) and whether it is optimistic. 307/308 repeat the mutation with its body; 303
// reads its result at the Location.
#include "controllerfixture.h"
#include "gadgettodo.h"

#include <DataClient/networkerror.h>

#include <QtCore/QJsonArray>
#include <QTest>

#include <algorithm>
#include <optional>

using namespace ControllerFixture;
using namespace DataClient::Testing;

namespace {

//! Todos 1-3 at /todos/ with Django's APPEND_SLASH: "/todos" and "/todos/1" are answered 301.
struct SlashServer
{
    TestServer server;
    QList<QJsonObject> todos;
    int nextId = 10;

    bool start()
    {
        todos = {todo(1, 1, u"one"_s), todo(2, 1, u"two"_s), todo(3, 1, u"three"_s)};
        server.route("*", u"/todos"_s, [this](const RecordedRequest &r) { return list(r); });
        server.route("*", u"/todos/:id"_s, [this](const RecordedRequest &r) { return item(r); });
        return server.listen();
    }

    static std::optional<ServerResponse> appendSlash(const RecordedRequest &request)
    {
        if (request.path.endsWith(u'/'))
            return std::nullopt;
        QByteArray location = request.path.toUtf8() + '/';
        if (!request.query.isEmpty())
            location += '?' + request.query.toString(QUrl::FullyEncoded).toUtf8();
        return ServerResponse::redirect(301, location);
    }
    ServerResponse list(const RecordedRequest &request)
    {
        if (const auto moved = appendSlash(request))
            return *moved;
        if (request.method == "POST") {
            QJsonObject created = request.json().toObject();
            created.insert(u"id"_s, nextId++);
            todos.append(created);
            return ServerResponse::json(created, 201);
        }
        QJsonArray rows;
        const int page = request.query.queryItemValue(u"page"_s).toInt();
        for (qsizetype i = 0; i < todos.size(); ++i) {
            if (page == 0 || i / 2 == page - 1)
                rows.append(todos.at(i));
        }
        return ServerResponse::json(rows);
    }
    ServerResponse item(const RecordedRequest &request)
    {
        if (const auto moved = appendSlash(request))
            return *moved;
        const int id = request.pathParams.value(u"id"_s).toInt();
        for (qsizetype i = 0; i < todos.size(); ++i) {
            if (todos.at(i).value(u"id"_s).toInt() != id)
                continue;
            if (request.method == "DELETE") {
                todos.removeAt(i);
                return ServerResponse::noContent();
            }
            const QJsonObject body = request.json().toObject();
            for (auto it = body.begin(); it != body.end(); ++it)
                todos[i].insert(it.key(), it.value());
            return ServerResponse::json(todos.at(i));
        }
        return ServerResponse::json(QJsonObject {{u"detail"_s, u"Not found."_s}}, 404);
    }
    //! Requests whose path lacks the trailing slash (each was answered 301).
    qsizetype redirected() const
    {
        qsizetype count = 0;
        for (const RecordedRequest &request : server.requests())
            count += request.path.endsWith(u'/') ? 0 : 1;
        return count;
    }
};

Schema gadgetSchema()
{
    return Schema::entity<GadgetTodo>();
}

Schema fieldSchema()
{
    return Schema::entity(EntitySchema(u"Todo"_s));
}

} // namespace

Q_DECLARE_METATYPE(DataClient::Schema)

class tst_RedirectedMutations : public QObject
{
    Q_OBJECT

    std::unique_ptr<SlashServer> backend;
    std::unique_ptr<Controller> controller;

    Resource resource(const QString &path, const Schema &schema, bool optimistic = false) const
    {
        return createResource({.path = path,
                               .schema = schema,
                               .urlPrefix = backend->server.url(),
                               .paginationField = u"page"_s,
                               .optimistic = optimistic});
    }
    //! Todos 1-3 in the store as if getList had been answered.
    void seed(const Resource &todos)
    {
        QJsonArray rows;
        for (const QJsonObject &row : std::as_const(backend->todos))
            rows.append(row);
        QVERIFY(controller->setResponse(todos.getList, {}, rows).ok());
    }
    QList<int> shownIds(const Resource &todos) const
    {
        return ids(controller->getResponse(todos.getList).data);
    }
    QString shownTitle(const Schema &schema, int id) const
    {
        return controller->get(schema, {{u"id"_s, id}}).data.toMap().value(u"title"_s).toString();
    }

private Q_SLOTS:
    void init()
    {
        backend = std::make_unique<SlashServer>();
        QVERIFY(backend->start());
        controller = std::make_unique<Controller>();
    }
    void cleanup()
    {
        controller.reset();
        backend.reset();
    }

    // A path that ends in '/' keeps it on every list member: no 301, and a push creates.
    void listMembersKeepTheTrailingSlash()
    {
        const Resource todos = resource(u"/todos/:id/"_s, gadgetSchema());
        QVERIFY(await(controller->fetch(todos.getList)).value);
        const Outcome pushed
            = await(controller->fetch(todos.getList.push, {}, QJsonObject {{u"title"_s, u"p"_s}}));
        QVERIFY2(pushed.value, pushed.error ? qPrintable(pushed.error->message()) : "");
        QCOMPARE(pushed.value->toMap().value(u"id"_s).toInt(), 10);
        const Outcome unshifted = await(
            controller->fetch(todos.getList.unshift, {}, QJsonObject {{u"title"_s, u"u"_s}}));
        QVERIFY(unshifted.value);
        QVERIFY(await(controller->fetch(todos.getList.getPage, {{u"page"_s, 2}})).value);
        const Resource extended = todos.extend(
            {{u"getList"_s, EndpointOverrides {.headers = Headers {{"X-List", "1"}}}}});
        QVERIFY2(extended.isValid(), qPrintable(extended.errorString()));
        QVERIFY(await(controller->fetch(extended.getList)).value);
        QVERIFY(
            await(controller->fetch(extended.getList.push, {}, QJsonObject {{u"title"_s, u"e"_s}}))
                .value);

        const auto received = backend->server.requests();
        QStringList seen;
        for (const RecordedRequest &request : received)
            seen.append(QString::fromLatin1(request.method) + u' ' + request.path);
        // The extended getList is a new first page of the same list, so the loaded page 2 is
        // read again after it (docs/pagination.md), in an order the test does not fix.
        QCOMPARE(seen.mid(0, 5),
                 (QStringList {u"GET /todos/"_s, u"POST /todos/"_s, u"POST /todos/"_s,
                               u"GET /todos/"_s, u"GET /todos/"_s}));
        QCOMPARE(received.at(3).query.queryItemValue(u"page"_s), u"2"_s);
        QTRY_COMPARE(backend->server.requests().size(), 7);
        seen.clear();
        for (const RecordedRequest &request : backend->server.requests())
            seen.append(QString::fromLatin1(request.method) + u' ' + request.path);
        QCOMPARE(seen.count(u"POST /todos/"_s), 3);
        QCOMPARE(seen.count(u"GET /todos/"_s), 4);
        QCOMPARE(received.at(4).header("X-List"), "1"_ba);
        const auto all = backend->server.requests();
        const auto extendedPush = std::find_if(all.begin() + 5, all.end(),
                                               [](const auto &r) { return r.method == "POST"; });
        QVERIFY(extendedPush != all.end());
        QCOMPARE(extendedPush->header("X-List"), "1"_ba);
        QCOMPARE(received.at(1).json(), QJsonValue(QJsonObject {{u"title"_s, u"p"_s}}));
        QCOMPARE(backend->todos.size(), 6); // three created
        QCOMPARE(shownTitle(gadgetSchema(), 10), u"p"_s);
    }

    void aMovedMutationFailsAndChangesNothing_data()
    {
        QTest::addColumn<Schema>("schema");
        QTest::addColumn<QString>("member");
        QTest::addColumn<bool>("optimistic");
        for (const bool optimistic : {false, true}) {
            const char *how = optimistic ? "optimistic" : "plain";
            for (const QString &member : {u"getList.push"_s, u"getList.unshift"_s, u"update"_s,
                                          u"partialUpdate"_s, u"delete"_s}) {
                QTest::addRow("%s %s, pk field", how, qPrintable(member))
                    << fieldSchema() << member << optimistic;
                QTest::addRow("%s %s, gadget pk()", how, qPrintable(member))
                    << gadgetSchema() << member << optimistic;
            }
        }
    }
    void aMovedMutationFailsAndChangesNothing()
    {
        QFETCH(Schema, schema);
        QFETCH(QString, member);
        QFETCH(bool, optimistic);
        const Resource todos = resource(u"/todos/:id"_s, schema, optimistic); // no slash
        seed(todos);
        const qsizetype entities = controller->store().entityCount();
        const bool create = member.startsWith(u"getList"_s);
        const Params params = create ? Params() : Params {{u"id"_s, 1}};
        const QJsonValue body = member == u"delete"_s
            ? QJsonValue()
            : QJsonValue(QJsonObject {{u"title"_s, u"changed"_s}});

        QFuture<QVariant> change = controller->fetch(todos.member(member), params, body);
        const bool gadget = schema.entitySchema().pkField().isEmpty();
        if (optimistic && create && !gadget) {
            QCOMPARE(shownIds(todos).size(), 4); // the guess shows at once, under a placeholder
        } else if (optimistic && create) {
            // A new gadget row has no pk to show under: none is made up from its defaults.
            QCOMPARE(shownIds(todos), (QList<int> {1, 2, 3}));
            QVERIFY(!controller->get(schema, {{u"id"_s, 0}}).data.isValid());
        } else if (optimistic && member != u"delete"_s) {
            QCOMPARE(shownTitle(schema, 1), u"changed"_s);
        }
        const Outcome outcome = await(change);

        QVERIFY(outcome.finished);
        QVERIFY2(!outcome.value, "a mutation the server did not apply resolved as done");
        QVERIFY(outcome.error);
        QCOMPARE(outcome.error->kind(), NetworkError::Kind::Redirect);
        QCOMPARE(outcome.error->status(), 301);
        const QString location = backend->server.url(create ? u"/todos/"_s : u"/todos/1/"_s);
        QVERIFY2(outcome.error->message().contains(location), qPrintable(outcome.error->message()));
        QVERIFY2(outcome.error->message().contains(u"did not apply"_s),
                 qPrintable(outcome.error->message()));
        // The server received the mutation once, and nothing else: no GET of the Location.
        const auto received = backend->server.requests();
        QCOMPARE(received.size(), 1);
        QCOMPARE(received.first().path, create ? u"/todos"_s : u"/todos/1"_s);
        QCOMPARE(received.first().method, todos.member(member)->method());
        // ...and the store shows what it showed before (a guess rolled back).
        QCOMPARE(shownIds(todos), (QList<int> {1, 2, 3}));
        QCOMPARE(shownTitle(schema, 1), u"one"_s);
        QCOMPARE(controller->store().entityCount(), entities);
        QVERIFY(!controller->store().entity(EntityRef {u"Todo"_s, u"0"_s}));
        QCOMPARE(backend->todos.size(), 3);
    }

    // 307/308 repeat the request, body included; the answer at the new URL is the result.
    void a307Or308RepeatsTheMutationWithItsBody()
    {
        SlashServer &b = *backend;
        b.server.route("*", u"/todos"_s, [&b](const RecordedRequest &request) {
            return request.path.endsWith(u'/') ? b.list(request)
                                               : ServerResponse::redirect(307, "/todos/");
        });
        b.server.route("*", u"/todos/:id"_s, [&b](const RecordedRequest &request) {
            return request.path.endsWith(u'/')
                ? b.item(request)
                : ServerResponse::redirect(308, (request.path + u'/').toUtf8());
        });
        const Resource todos = resource(u"/todos/:id"_s, gadgetSchema());
        seed(todos);
        const Outcome created = await(controller->fetch(
            todos.getList.push, {}, QJsonObject {{u"title"_s, u"four"_s}, {u"completed"_s, true}}));
        QVERIFY2(created.value, created.error ? qPrintable(created.error->message()) : "");
        QCOMPARE(created.value->toMap().value(u"id"_s).toInt(), 10);
        const Outcome patched = await(controller->fetch(todos.partialUpdate, {{u"id"_s, 1}},
                                                        QJsonObject {{u"title"_s, u"uno"_s}}));
        QVERIFY(patched.value);

        const auto received = b.server.requests();
        QCOMPARE(received.size(), 4);
        for (qsizetype i : {0, 2}) {
            QCOMPARE(received.at(i + 1).method, received.at(i).method);
            QCOMPARE(received.at(i + 1).path, received.at(i).path + u'/');
            QCOMPARE(received.at(i + 1).body, received.at(i).body);
            QCOMPARE(received.at(i + 1).header("content-type"), "application/json"_ba);
        }
        QCOMPARE(received.at(0).method, "POST"_ba);
        QCOMPARE(received.at(2).method, "PATCH"_ba);
        QCOMPARE(shownTitle(gadgetSchema(), 10), u"four"_s);
        QCOMPARE(shownTitle(gadgetSchema(), 1), u"uno"_s);
        QCOMPARE(shownIds(todos), (QList<int> {1, 2, 3, 10}));
    }

    // 303: the change was made and its result is at the Location, read with a GET.
    void a303ReadsTheResultAtItsLocation()
    {
        SlashServer &b = *backend;
        b.server.route("POST", u"/todos"_s, [&b](const RecordedRequest &request) {
            RecordedRequest atSlash = request;
            atSlash.path += u'/';
            const int id = b.list(atSlash).status == 201 ? b.nextId - 1 : 0;
            return ServerResponse::redirect(303, "/todos/" + QByteArray::number(id) + '/');
        });
        const Resource todos = resource(u"/todos/:id"_s, gadgetSchema());
        seed(todos);
        const Outcome created
            = await(controller->fetch(todos.getList.push, {}, QJsonObject {{u"title"_s, u"f"_s}}));
        QVERIFY2(created.value, created.error ? qPrintable(created.error->message()) : "");
        const auto received = b.server.requests();
        QCOMPARE(received.size(), 2);
        QCOMPARE(received.at(1).method, "GET"_ba);
        QCOMPARE(received.at(1).path, u"/todos/10/"_s);
        QVERIFY(received.at(1).body.isEmpty());
        QCOMPARE(shownTitle(gadgetSchema(), 10), u"f"_s);
        QCOMPARE(shownIds(todos), (QList<int> {1, 2, 3, 10}));
    }
};

QTEST_GUILESS_MAIN(tst_RedirectedMutations)
#include "tst_redirectedmutations.moc"
