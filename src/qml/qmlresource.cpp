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
    JsCollection(QJSEngine *engine, const QJSValue &function, Following following)
        : Collection(following), m_engine(engine), m_function(function)
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
DATACLIENT_OPTION_SETTER(setPath, m_options.path, const QString &)
DATACLIENT_OPTION_SETTER(setUrlPrefix, m_options.urlPrefix, const QString &)
DATACLIENT_OPTION_SETTER(setSearchParams, m_options.searchParams, const QStringList &)
DATACLIENT_OPTION_SETTER(setPaginationField, m_options.paginationField, const QString &)
DATACLIENT_OPTION_SETTER(setOptimistic, m_options.optimistic, bool)
DATACLIENT_OPTION_SETTER(setFollowChanges, m_options.followChanges, bool)
#undef DATACLIENT_OPTION_SETTER

#define DATACLIENT_JS_OPTION_SETTER(Setter, member)                                                \
    void QmlResource::Setter(const QJSValue &value)                                                \
    {                                                                                              \
        if (member.strictlyEquals(value))                                                          \
            return;                                                                                \
        member = value;                                                                            \
        optionChanged();                                                                           \
    }
DATACLIENT_JS_OPTION_SETTER(setBody, m_options.body)
DATACLIENT_JS_OPTION_SETTER(setNonFilterArgumentKeys, m_options.nonFilterArgumentKeys)
DATACLIENT_JS_OPTION_SETTER(setProcess, m_options.process)
DATACLIENT_JS_OPTION_SETTER(setGetRequestInit, m_options.getRequestInit)
DATACLIENT_JS_OPTION_SETTER(setParseResponse, m_options.parseResponse)
#undef DATACLIENT_JS_OPTION_SETTER

QVariant QmlResource::sharedOption(QStringView name) const
{
    const QString key = name.toString();
    const auto set = m_options.shared.constFind(key);
    return set != m_options.shared.cend() ? set->toVariant() : defaultJsOption(key);
}

void QmlResource::setSharedOption(QStringView name, const QJSValue &value)
{
    QJSValue &slot = m_options.shared[name.toString()];
    if (slot.strictlyEquals(value))
        return;
    slot = value;
    optionChanged();
}

QmlEntity *QmlResource::schema() const
{
    return m_options.schema;
}

void QmlResource::setSchema(QmlEntity *value)
{
    QPointer<QmlEntity> &schema = m_options.schema;
    if (schema == value)
        return;
    if (schema)
        disconnect(schema, nullptr, this, nullptr);
    schema = value;
    if (schema) {
        connect(schema, &QmlEntity::schemaChanged, this, &QmlResource::optionChanged);
        // Destroyed first at shutdown: drop the members quietly rather than warn.
        connect(schema, &QObject::destroyed, this, [this] {
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
    const Options &o = m_options;
    ResourceOptions options;
    options.path = o.path;
    options.urlPrefix = o.urlPrefix;
    options.searchParams = o.searchParams;
    options.body = jsToJson(o.body);
    options.paginationField = o.paginationField;
    options.optimistic = o.optimistic;
    QJSEngine *engine = qjsEngine(this);

    if (!o.schema)
        error = u"Resource: `schema` is not set; give it an Entity, e.g. schema: todo"_s;
    else if (!o.schema->isValid())
        error = u"Resource: `schema`: %1"_s.arg(o.schema->errorString());
    else
        options.schema = o.schema->schema();
    EndpointOverrides shared;
    for (auto it = o.shared.cbegin(); it != o.shared.cend() && error.isEmpty(); ++it) {
        if (it.value().isUndefined() || it.value().isNull())
            continue; // unset again: the default
        QString why;
        if (!readJsOption(engine, it.key(), it.value(), &shared, &why))
            error = u"Resource: "_s + why;
    }
    applySharedOptions(shared, &options);
    auto checkFunction = [&](const QJSValue &value, const char *name, const char *shape) {
        if (error.isEmpty() && !value.isUndefined() && !value.isNull() && !value.isCallable())
            error = u"Resource: `%1` must be a function%2; got %3"_s.arg(
                QString::fromLatin1(name), QString::fromLatin1(shape), value.toString());
    };
    checkFunction(o.process, "process", "(value, params) returning the value");
    checkFunction(o.getRequestInit, "getRequestInit", "(body, init) returning the init");
    checkFunction(o.parseResponse, "parseResponse", "(response) returning the value");
    checkFunction(o.nonFilterArgumentKeys, "nonFilterArgumentKeys", "(key) returning a boolean");
    const Collection::Following following
        = o.followChanges ? Collection::FollowsChanges : Collection::KeepsAnswers;
    if (o.nonFilterArgumentKeys.isCallable())
        options.collection
            = std::make_shared<JsCollection>(engine, o.nonFilterArgumentKeys, following);
    else if (!o.followChanges)
        options.collection = std::make_shared<Collection>(following);

    auto hooks = std::make_shared<JsHooks>();
    hooks->engine = engine;
    hooks->getRequestInit = o.getRequestInit;
    hooks->parseResponse = o.parseResponse;
    EndpointFactory make = QmlEndpoint::factory(hooks);
    if (o.process.isCallable()) {
        // The resource-wide `process` applies to members without their own (delete keeps its
        // default, which reads the pk from the URL parameters when the answer is empty).
        make = [make, process = processFromJs(engine, o.process)](EndpointOptions o) {
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
        list->setListMembers(m_resource.getList);
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
    // Every option, so that the derived resource reports what its members use.
    result->m_options = m_options;
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
