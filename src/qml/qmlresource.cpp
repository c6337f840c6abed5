#include "qmlresource.h"

#include "jsoptions_p.h"
#include "qmlendpoint.h"
#include "qmlentity.h"

#include <DataClient/collection.h>
#include <DataClient/createresource.h>

#include <QtQml/QJSEngine>
#include <QtQml/QJSValueIterator>
#include <QtQml/QQmlEngine>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

namespace {

// The `Collection` option as a JS function: nonFilterArgumentKeys(key) -> bool.
class JsCollection : public Collection
{
public:
    JsCollection(QJSEngine *engine, const QJSValue &function)
        : m_engine(engine), m_function(function)
    { }
    bool nonFilterArgumentKeys(const QString &key) const override
    {
        if (!m_engine)
            return Collection::nonFilterArgumentKeys(key);
        const QJSValue result = m_function.call({QJSValue(key)});
        return result.isError() ? Collection::nonFilterArgumentKeys(key) : result.toBool();
    }

private:
    QPointer<QJSEngine> m_engine;
    QJSValue m_function;
};

} // namespace

QmlResource::QmlResource(QObject *parent) : QObject(parent) { }
QmlResource::~QmlResource() = default;

#define DATACLIENT_OPTION_SETTER(Setter, member, Type)                                             \
    void QmlResource::Setter(Type value)                                                           \
    {                                                                                              \
        if (member == value)                                                                       \
            return;                                                                                \
        member = value;                                                                            \
        optionChanged();                                                                           \
    }
DATACLIENT_OPTION_SETTER(setPath, m_path, const QString &)
DATACLIENT_OPTION_SETTER(setUrlPrefix, m_urlPrefix, const QString &)
DATACLIENT_OPTION_SETTER(setSearchParams, m_searchParams, const QStringList &)
DATACLIENT_OPTION_SETTER(setPaginationField, m_paginationField, const QString &)
DATACLIENT_OPTION_SETTER(setOptimistic, m_optimistic, bool)
DATACLIENT_OPTION_SETTER(setPollFrequency, m_pollFrequency, int)
DATACLIENT_OPTION_SETTER(setDataExpiryLength, m_dataExpiryLength, int)
DATACLIENT_OPTION_SETTER(setErrorExpiryLength, m_errorExpiryLength, int)
DATACLIENT_OPTION_SETTER(setCredentials, m_credentials, const QString &)
DATACLIENT_OPTION_SETTER(setTimeout, m_timeout, int)
#undef DATACLIENT_OPTION_SETTER

#define DATACLIENT_JS_OPTION_SETTER(Setter, member)                                                \
    void QmlResource::Setter(const QJSValue &value)                                                \
    {                                                                                              \
        if (member.strictlyEquals(value))                                                          \
            return;                                                                                \
        member = value;                                                                            \
        optionChanged();                                                                           \
    }
DATACLIENT_JS_OPTION_SETTER(setBody, m_body)
DATACLIENT_JS_OPTION_SETTER(setNonFilterArgumentKeys, m_nonFilterArgumentKeys)
DATACLIENT_JS_OPTION_SETTER(setHeaders, m_headers)
DATACLIENT_JS_OPTION_SETTER(setProcess, m_process)
DATACLIENT_JS_OPTION_SETTER(setGetRequestInit, m_getRequestInit)
DATACLIENT_JS_OPTION_SETTER(setParseResponse, m_parseResponse)
#undef DATACLIENT_JS_OPTION_SETTER

QmlEntity *QmlResource::schema() const
{
    return m_schema;
}

void QmlResource::setSchema(QmlEntity *value)
{
    if (m_schema == value)
        return;
    if (m_schema)
        disconnect(m_schema, nullptr, this, nullptr);
    m_schema = value;
    if (m_schema) {
        connect(m_schema, &QmlEntity::schemaChanged, this, &QmlResource::optionChanged);
        // Destroyed first at shutdown: drop the members quietly rather than warn.
        connect(m_schema, &QObject::destroyed, this, [this] {
            m_error = u"Resource: its schema (an Entity) was destroyed"_s;
            adopt(Resource());
        });
    }
    optionChanged();
}

void QmlResource::optionChanged()
{
    Q_EMIT optionsChanged();
    if (m_complete && !m_derived)
        rebuild();
}

void QmlResource::componentComplete()
{
    m_complete = true;
    rebuild();
}

void QmlResource::rebuild()
{
    QString error;
    ResourceOptions options;
    options.path = m_path;
    options.urlPrefix = m_urlPrefix;
    options.searchParams = m_searchParams;
    options.body = jsToJson(m_body);
    options.paginationField = m_paginationField;
    options.optimistic = m_optimistic;
    options.pollFrequency = m_pollFrequency;
    options.dataExpiryLength = m_dataExpiryLength;
    options.errorExpiryLength = m_errorExpiryLength;
    options.timeout = m_timeout;
    QJSEngine *engine = qjsEngine(this);

    if (!m_schema)
        error = u"Resource: `schema` is not set; give it an Entity, e.g. schema: todo"_s;
    else if (!m_schema->isValid())
        error = u"Resource: `schema`: %1"_s.arg(m_schema->errorString());
    else
        options.schema = m_schema->schema();
    if (const auto credentials = credentialsFromName(m_credentials))
        options.credentials = *credentials;
    else if (error.isEmpty())
        error = u"Resource: `credentials` must be \"omit\", \"same-origin\" or \"include\"; got "
                "\"%1\""_s.arg(m_credentials);
    if (!m_headers.isUndefined() && !m_headers.isNull()) {
        QJSValueIterator it(m_headers);
        while (it.hasNext()) {
            it.next();
            options.headers.append({it.name().toUtf8(), it.value().toString().toUtf8()});
        }
    }
    auto checkFunction = [&](const QJSValue &value, const char *name, const char *shape) {
        if (error.isEmpty() && !value.isUndefined() && !value.isNull() && !value.isCallable())
            error = u"Resource: `%1` must be a function%2; got %3"_s.arg(
                QString::fromLatin1(name), QString::fromLatin1(shape), value.toString());
    };
    checkFunction(m_process, "process", "(value, params) returning the value");
    checkFunction(m_getRequestInit, "getRequestInit", "(body, init) returning the init");
    checkFunction(m_parseResponse, "parseResponse", "(response) returning the value");
    checkFunction(m_nonFilterArgumentKeys, "nonFilterArgumentKeys", "(key) returning a boolean");
    if (m_nonFilterArgumentKeys.isCallable())
        options.collection = std::make_shared<JsCollection>(engine, m_nonFilterArgumentKeys);

    auto hooks = std::make_shared<JsHooks>();
    hooks->engine = engine;
    hooks->getRequestInit = m_getRequestInit;
    hooks->parseResponse = m_parseResponse;
    EndpointFactory make = QmlEndpoint::factory(hooks);
    if (m_process.isCallable()) {
        // The resource-wide `process` applies to members without their own (delete keeps its
        // default, which reads the pk from the URL parameters when the answer is empty).
        make = [make, process = processFromJs(engine, m_process)](EndpointOptions o) {
            if (!o.process)
                o.process = process;
            return make(o);
        };
    }
    options.endpoint = make;

    Resource resource;
    if (error.isEmpty()) {
        resource = createResource(options);
        if (!resource.isValid())
            error = resource.errorString();
    }
    m_error = error;
    if (!error.isEmpty()) {
        qmlWarning(this) << error;
        resource = Resource();
    }
    adopt(resource);
}

void QmlResource::adopt(const Resource &resource)
{
    m_resource = resource;
    if (auto *list = qobject_cast<QmlEndpoint *>(m_resource.getList.endpoint().get()))
        list->setListMembers(m_resource.getList.push, m_resource.getList.unshift,
                             m_resource.getList.getPage);
    Q_EMIT membersChanged();
}

QmlEndpoint *QmlResource::memberObject(const QString &name) const
{
    return qobject_cast<QmlEndpoint *>(m_resource.member(name).endpoint().get());
}

QmlEndpoint *QmlResource::member(const QString &name) const
{
    return memberObject(name);
}

QStringList QmlResource::memberNames() const
{
    return m_resource.isValid() ? m_resource.memberNames() : QStringList();
}

bool QmlResource::isValid() const
{
    return m_error.isEmpty() && m_resource.isValid();
}

QString QmlResource::errorString() const
{
    if (!m_error.isEmpty())
        return m_error;
    return m_complete ? QString() : u"Resource: not complete yet"_s;
}

QmlResource *QmlResource::derived(const Resource &resource)
{
    auto *result = new QmlResource(this);
    result->m_complete = true;
    result->m_derived = true;
    result->m_schema = m_schema;
    result->m_path = m_path;
    result->m_urlPrefix = m_urlPrefix;
    result->m_searchParams = m_searchParams;
    result->m_paginationField = m_paginationField;
    result->m_optimistic = m_optimistic;
    QQmlEngine::setObjectOwnership(result, QQmlEngine::CppOwnership);
    result->m_error = resource.isValid() ? QString() : resource.errorString();
    result->adopt(resource);
    return result;
}

QmlResource *QmlResource::extend(const QJSValue &first, const QJSValue &second)
{
    QJSEngine *engine = qjsEngine(this);
    auto fail = [this](const QString &error) -> QmlResource * {
        qmlWarning(this) << error;
        return nullptr;
    };
    if (!m_complete)
        return nullptr; // options may still be arriving: bind on `valid` (see the header)
    if (!isValid())
        return fail(u"Resource.extend(): this resource is not valid: %1"_s.arg(errorString()));

    Resource extended;
    if (first.isString()) { // add form
        QString error;
        const auto options = overridesFromJs(
            engine, second, u"Resource.extend(\"%1\")"_s.arg(first.toString()), &error);
        if (!options)
            return fail(error);
        extended = m_resource.extend(first.toString(), *options);
    } else if (first.isCallable()) { // function form
        const QJSValue members = first.call({engine->toScriptValue(static_cast<QObject *>(this))});
        if (members.isError() || !members.isObject())
            return fail(u"Resource.extend(function): the function must return an object of "
                        "members (name: endpoint); got %1"_s.arg(members.toString()));
        QHash<QString, EndpointPtr> endpoints;
        QJSValueIterator it(members);
        while (it.hasNext()) {
            it.next();
            auto *endpoint = qobject_cast<RestEndpoint *>(it.value().toQObject());
            EndpointPtr shared = endpoint ? endpoint->weak_from_this().lock() : EndpointPtr();
            if (!shared)
                return fail(u"Resource.extend(function): member \"%1\" is not an endpoint (got "
                            "%2)"_s.arg(it.name(), it.value().toString()));
            endpoints.insert(it.name(), shared);
        }
        extended = m_resource.extend([endpoints](const Resource &) { return endpoints; });
    } else if (first.isObject() && !first.isArray()) { // batch form
        QHash<QString, EndpointOverrides> batch;
        QJSValueIterator it(first);
        while (it.hasNext()) {
            it.next();
            QString error;
            const auto options = overridesFromJs(
                engine, it.value(), u"Resource.extend({%1: ...})"_s.arg(it.name()), &error);
            if (!options)
                return fail(error);
            batch.insert(it.name(), *options);
        }
        extended = m_resource.extend(batch);
    } else {
        return fail(u"Resource.extend(): expected an object of member options, a member name and "
                    "options, or a function(base); got %1"_s.arg(first.toString()));
    }
    if (!extended.isValid())
        return fail(extended.errorString());
    return derived(extended);
}

} // namespace DataClient::Qml
