// Three endpoint customizations of docs/hooks.md, each against the real test server:
// key-case conversion at all depths, a missing pk copied from the URL parameters, and a body key
// renamed on the way out and back on the way in. docs/hooks.md quotes this file.
#include "restfixture.h"
#include "servertest.h"

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

// 1. Key-case conversion ------------------------------------------------------------------------
// [camel-class]
QString camelCase(const QString &key) // "created_at" -> "createdAt"
{
    QString out;
    bool upper = false;
    for (const QChar c : key) {
        if (c == u'_' && !out.isEmpty()) {
            upper = true;
            continue;
        }
        out += upper ? c.toUpper() : c;
        upper = false;
    }
    return out;
}

QString snakeCase(const QString &key) // "createdAt" -> "created_at"
{
    QString out;
    for (const QChar c : key) {
        if (c.isUpper()) {
            out += u'_';
            out += c.toLower();
        } else {
            out += c;
        }
    }
    return out;
}

// Renames every key, at every depth (objects inside arrays inside objects ...).
QJsonValue convertKeys(const QJsonValue &value, QString (*convert)(const QString &))
{
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(convertKeys(item, convert));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            out.insert(convert(it.key()), convertKeys(it.value(), convert));
        return out;
    }
    return value;
}

class CamelCaseEndpoint : public EndpointBase<CamelCaseEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    RequestInit getRequestInit(const QJsonValue &body) const override
    {
        return RestEndpoint::getRequestInit(convertKeys(body, snakeCase));
    }
    QJsonValue process(const QJsonValue &value, const Params &params) const override
    {
        return RestEndpoint::process(convertKeys(value, camelCase), params);
    }
};
// [camel-class]

// 2. Missing identifier -------------------------------------------------------------------------
// GET /users/:username answers without "username", the field pk() uses: copy it from the URL.
// [missing-pk-class]
class ProfileEndpoint : public EndpointBase<ProfileEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    QJsonValue process(const QJsonValue &value, const Params &params) const override
    {
        QJsonObject profile = RestEndpoint::process(value, params).toObject();
        if (!profile.contains(u"username"_s))
            profile.insert(u"username"_s, params.value(u"username"_s).toString());
        return profile;
    }
};
// [missing-pk-class]

// 5. Key renaming -------------------------------------------------------------------------------
// The app says "title", the server says "name".
// [rename-class]
class RenamingEndpoint : public EndpointBase<RenamingEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    RequestInit getRequestInit(const QJsonValue &body) const override
    {
        QJsonObject renamed = body.toObject();
        if (renamed.contains(u"title"_s))
            renamed.insert(u"name"_s, renamed.take(u"title"_s));
        return RestEndpoint::getRequestInit(body.isObject() ? QJsonValue(renamed) : body);
    }
    QJsonValue process(const QJsonValue &value, const Params &params) const override
    {
        QJsonObject renamed = RestEndpoint::process(value, params).toObject();
        if (renamed.contains(u"name"_s))
            renamed.insert(u"title"_s, renamed.take(u"name"_s));
        return renamed;
    }
};
// [rename-class]

} // namespace

class tst_CustomKeys : public ServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void keyCaseConversion()
    {
        server.route("POST", u"/articles"_s, [](const RecordedRequest &request) {
            QJsonObject article = request.json().toObject();
            article.insert(u"id"_s, u"1"_s);
            article.insert(u"created_at"_s, u"2024-01-02T03:04:05Z"_s);
            article.insert(u"author_info"_s,
                           QJsonObject {{u"display_name"_s, u"Al"_s},
                                        {u"past_roles"_s,
                                         QJsonArray {QJsonObject {{u"role_name"_s, u"x"_s}}}}});
            return ServerResponse::json(article);
        });
        // [camel]
        const Resource articles = createResource({
            .path = u"/articles/:id"_s,
            .schema = Schema::entity(EntitySchema(u"Article"_s)),
            .urlPrefix = server.url(),
            .endpoint = endpointFactory<CamelCaseEndpoint>(),
        });
        const QJsonObject draft {
            {u"titleText"_s, u"Hi"_s},
            {u"seoMeta"_s, QJsonObject {{u"metaTags"_s, QJsonArray {u"a"_s}}}}};
        QFuture<QJsonValue> created = articles.getList.push->fetch(&network, {}, draft);
        // [camel]
        const auto outcome = await(created);
        QVERIFY(outcome.value);
        // Sent snake_case at every depth ...
        QCOMPARE(server.lastRequest().json(),
                 QJsonValue(QJsonObject {
                     {u"title_text"_s, u"Hi"_s},
                     {u"seo_meta"_s, QJsonObject {{u"meta_tags"_s, QJsonArray {u"a"_s}}}}}));
        // ... and read camelCase at every depth.
        const QJsonObject article = outcome.value->toObject();
        QCOMPARE(article.value(u"titleText"_s).toString(), u"Hi"_s);
        QCOMPARE(article.value(u"createdAt"_s).toString(), u"2024-01-02T03:04:05Z"_s);
        QCOMPARE(article.value(u"authorInfo"_s).toObject().value(u"displayName"_s).toString(),
                 u"Al"_s);
        QCOMPARE(article.value(u"authorInfo"_s)
                     .toObject()
                     .value(u"pastRoles"_s)
                     .toArray()
                     .first()
                     .toObject()
                     .value(u"roleName"_s)
                     .toString(),
                 u"x"_s);
        QVERIFY(!article.contains(u"created_at"_s));
        QCOMPARE(camelCase(u"_private_key"_s), u"_privateKey"_s);
        QCOMPARE(snakeCase(u"a"_s), u"a"_s);
    }

    void missingIdentifierFromUrlParameters()
    {
        server.route("GET", u"/users/:username"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"bio"_s, u"hello"_s}});
        });
        // [missing-pk]
        const Resource profiles = createResource({
            .path = u"/users/:username"_s,
            .schema = Schema::entity(EntitySchema(u"Profile"_s, u"username"_s)),
            .urlPrefix = server.url(),
            .endpoint = endpointFactory<ProfileEndpoint>(),
        });
        QFuture<QJsonValue> profile = profiles.get->fetch(&network, {{u"username"_s, u"alice"_s}});
        // [missing-pk]
        const auto outcome = await(profile);
        QVERIFY(outcome.value);
        QCOMPARE(server.lastRequest().path, u"/users/alice"_s);
        QCOMPARE(*outcome.value,
                 QJsonValue(QJsonObject {{u"bio"_s, u"hello"_s}, {u"username"_s, u"alice"_s}}));
        QCOMPARE(profiles.get->schema().entitySchema().pk(outcome.value->toObject()), u"alice"_s);
        // Without the customization the pk is missing.
        const EndpointPtr plain = RestEndpoint::create(profiles.get->options());
        const auto bare = await(plain->fetch(&network, {{u"username"_s, u"alice"_s}}));
        QVERIFY(bare.value);
        QVERIFY(profiles.get->schema().entitySchema().pk(bare.value->toObject()).isEmpty());
    }

    void keyRenaming()
    {
        server.route("PATCH", u"/todos/:id"_s, [](const RecordedRequest &request) {
            QJsonObject todo = request.json().toObject();
            todo.insert(u"id"_s, request.pathParams.value(u"id"_s));
            return ServerResponse::json(todo);
        });
        // [rename]
        const Resource todos = createResource({
            .path = u"/todos/:id"_s,
            .schema = Schema::entity(EntitySchema(u"Todo"_s)),
            .urlPrefix = server.url(),
            .endpoint = endpointFactory<RenamingEndpoint>(),
        });
        QFuture<QJsonValue> renamed = todos.partialUpdate->fetch(
            &network, {{u"id"_s, u"4"_s}}, QJsonObject {{u"title"_s, u"Buy milk"_s}});
        // [rename]
        const auto outcome = await(renamed);
        QVERIFY(outcome.value);
        QCOMPARE(server.lastRequest().json(), QJsonValue(QJsonObject {{u"name"_s, u"Buy milk"_s}}));
        QCOMPARE(*outcome.value,
                 QJsonValue(QJsonObject {{u"id"_s, u"4"_s}, {u"title"_s, u"Buy milk"_s}}));
    }
};

QTEST_GUILESS_MAIN(tst_CustomKeys)
#include "tst_customkeys.moc"
