#include "jsoptions_p.h"
#include "jsoptionreaders_p.h"

#include "qmlentity.h"

#include <DataClient/networkerror.h>
#include <DataClient/requestinit.h>

#include <QtCore/QHash>
#include <QtCore/QStringList>
#include <QtCore/QPointer>
#include <QtQml/QJSEngine>
#include <QtQml/QJSValueIterator>

#include <limits>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

QJsonValue jsToJson(const QJSValue &value)
{
    if (value.isUndefined())
        return QJsonValue(QJsonValue::Undefined);
    if (value.isNull())
        return QJsonValue(QJsonValue::Null);
    return QJsonValue::fromVariant(value.toVariant());
}

std::optional<Schema> schemaFromJs(const QJSValue &value, QString *error)
{
    if (value.isUndefined() || value.isNull())
        return Schema();
    if (auto *entity = qobject_cast<QmlEntity *>(value.toQObject())) {
        if (!entity->isValid()) {
            *error = entity->errorString();
            return std::nullopt;
        }
        return entity->schema();
    }
    if (value.isArray()) {
        const int length = value.property(u"length"_s).toInt();
        auto *entity = qobject_cast<QmlEntity *>(value.property(0).toQObject());
        if (length != 1 || !entity) {
            *error = u"a list schema is written [entity], with exactly one Entity"_s;
            return std::nullopt;
        }
        if (!entity->isValid()) {
            *error = entity->errorString();
            return std::nullopt;
        }
        return Schema::collection(entity->arraySchema());
    }
    if (value.isObject() && !value.isQObject() && !value.isCallable()) {
        QHash<QString, Schema> fields;
        QJSValueIterator it(value);
        while (it.hasNext()) {
            it.next();
            const QJSValue field = it.value();
            if (field.isQObject() || field.isArray()
                || (field.isObject() && !field.isCallable() && !field.isDate())) {
                QString why;
                const auto schema = schemaFromJs(field, &why);
                if (!schema) {
                    *error = u"field \"%1\": %2"_s.arg(it.name(), why);
                    return std::nullopt;
                }
                fields.insert(it.name(), *schema);
            }
            // other values (numbers like `total: 0`) document a plain field: passed through
        }
        return Schema::object(fields);
    }
    *error = u"expected an Entity, [Entity], an object of schemas or null; got %1"_s.arg(
        value.toString());
    return std::nullopt;
}

ProcessFunction processFromJs(QJSEngine *engine, const QJSValue &function)
{
    return [engine = QPointer<QJSEngine>(engine), function](const QJsonValue &value,
                                                            const Params &params) {
        if (!engine)
            return value;
        const QJSValue result = function.call(
            {engine->toScriptValue(value), engine->toScriptValue(QVariant(params))});
        if (result.isError())
            throw NetworkError(NetworkError::Kind::Other, 0,
                               u"the process function threw: %1"_s.arg(result.toString()));
        return jsToJson(result);
    };
}

namespace {

using namespace detail;

struct JsOption
{
    QLatin1StringView name;
    //! Reads the value into the overrides, or says why it does not fit (nothing set then).
    Problem (*read)(QJSEngine *engine, const QJSValue &value, EndpointOverrides &overrides);
};

// The one table of endpoint options written in JS: Resource's properties and extend() read
// through it. The shared options come from DATACLIENT_SHARED_ENDPOINT_OPTIONS; the others are
// an endpoint's own.
const JsOption jsOptions[] = {
#define DATACLIENT_JS_OPTION(Type, option, value)                                                  \
    {QLatin1StringView(#option),                                                                   \
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) { return readJs(v, o.option); }},
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_JS_OPTION)
#undef DATACLIENT_JS_OPTION
        {"name"_L1,
         [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) {
             return readString(v, o.name);
         }},
    {"path"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) { return readString(v, o.path); }},
    {"urlPrefix"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) {
         return readString(v, o.urlPrefix);
     }},
    {"paginationField"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) {
         return readString(v, o.paginationField);
     }},
    {"method"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) -> Problem {
         if (!v.isString())
             return expected(v, "a string");
         o.method = v.toString().toUpper().toLatin1();
         return std::nullopt;
     }},
    {"optimistic"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) {
         const Problem problem = readBool(v, o.optimistic);
         if (!problem && !v.toBool())
             o.getOptimisticResponse = OptimisticFunction(); // no prediction at all
         return problem;
     }},
    {"sideEffect"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) {
         return readBool(v, o.sideEffect);
     }},
    {"schema"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) -> Problem {
         QString why;
         const auto schema = schemaFromJs(v, &why);
         if (!schema)
             return u": "_s + why;
         o.schema = *schema;
         return std::nullopt;
     }},
    {"searchParams"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) -> Problem {
         if (!v.isArray())
             return expected(v, "an array of parameter names");
         o.searchParams = v.toVariant().toStringList();
         return std::nullopt;
     }},
    {"body"_L1,
     [](QJSEngine *, const QJSValue &v, EndpointOverrides &o) -> Problem {
         o.body = jsToJson(v);
         return std::nullopt;
     }},
    {"process"_L1,
     [](QJSEngine *engine, const QJSValue &v, EndpointOverrides &o) -> Problem {
         if (!v.isCallable())
             return expected(v, "a function(value, params) returning the value");
         o.process = processFromJs(engine, v);
         return std::nullopt;
     }},
};

QString knownNames()
{
    QStringList names;
    for (const JsOption &option : jsOptions)
        names.append(QString(option.name));
    return names.join(u", "_s);
}

} // namespace

bool readJsOption(QJSEngine *engine, const QString &name, const QJSValue &value,
                  EndpointOverrides *overrides, QString *error)
{
    for (const JsOption &option : jsOptions) {
        if (option.name != name)
            continue;
        const Problem problem = option.read(engine, value, *overrides);
        if (problem)
            *error = u"option \"%1\"%2"_s.arg(name, *problem);
        return !problem;
    }
    *error = u"unknown endpoint option \"%1\" (known: %2)"_s.arg(name, knownNames());
    return false;
}

QVariant defaultJsOption(const QString &name)
{
    const EndpointOptions defaults;
#define DATACLIENT_JS_DEFAULT(Type, option, value)                                                 \
    if (name == QLatin1StringView(#option))                                                        \
        return toVariant(defaults.option);
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_JS_DEFAULT)
#undef DATACLIENT_JS_DEFAULT
    return {};
}

void applySharedOptions(const EndpointOverrides &overrides, ResourceOptions *options)
{
#define DATACLIENT_JS_APPLY(Type, option, value)                                                   \
    if (overrides.option)                                                                          \
        options->option = *overrides.option;
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_JS_APPLY)
#undef DATACLIENT_JS_APPLY
}

std::optional<EndpointOverrides> overridesFromJs(QJSEngine *engine, const QJSValue &object,
                                                 const QString &where, QString *error)
{
    EndpointOverrides overrides;
    if (object.isUndefined() || object.isNull())
        return overrides;
    if (!object.isObject() || object.isArray() || object.isCallable() || object.isQObject()) {
        *error
            = u"%1: expected an object of endpoint options; got %2"_s.arg(where, object.toString());
        return std::nullopt;
    }
    QJSValueIterator it(object);
    while (it.hasNext()) {
        it.next();
        QString why;
        if (!readJsOption(engine, it.name(), it.value(), &overrides, &why)) {
            *error = where + u": "_s + why;
            return std::nullopt;
        }
    }
    return overrides;
}

} // namespace DataClient::Qml
