#include "jsoptions_p.h"

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

// What a read of a JS option says when the value does not fit: " must be <what>; got <value>".
QString expected(const QJSValue &value, const char *what)
{
    return u" must be %1; got %2"_s.arg(QString::fromLatin1(what), value.toString());
}

using Problem = std::optional<QString>;

// One reader per C++ type of the shared options (DATACLIENT_SHARED_ENDPOINT_OPTIONS).
Problem readJs(const QJSValue &v, std::optional<int> &target)
{
    if (!v.isNumber() || v.toNumber() < 0 || v.toNumber() > std::numeric_limits<int>::max())
        return expected(v, "a number of milliseconds (0 or more)");
    target = v.toInt();
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<qint64> &target)
{
    // Up to 2^53: what a JS number holds exactly.
    if (!v.isNumber() || v.toNumber() < 0 || v.toNumber() > 9007199254740992.0)
        return expected(v, "a number of bytes (0 or more)");
    target = qint64(v.toNumber());
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<Credentials> &target)
{
    const auto credentials = v.isString() ? credentialsFromName(v.toString()) : std::nullopt;
    if (!credentials)
        return expected(v, "\"omit\", \"same-origin\" or \"include\"");
    target = *credentials;
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<Headers> &target)
{
    if (!v.isObject() || v.isArray() || v.isCallable() || v.isQObject())
        return expected(v, "an object of header names to values");
    Headers headers;
    QJSValueIterator it(v);
    while (it.hasNext()) {
        it.next();
        headers.append({it.name().toUtf8(), it.value().toString().toUtf8()});
    }
    target = headers;
    return std::nullopt;
}

Problem readString(const QJSValue &v, std::optional<QString> &target)
{
    if (!v.isString())
        return expected(v, "a string");
    target = v.toString();
    return std::nullopt;
}

Problem readBool(const QJSValue &v, std::optional<bool> &target)
{
    if (!v.isBool())
        return expected(v, "true or false");
    target = v.toBool();
    return std::nullopt;
}

Problem readJs(const QJSValue &v, std::optional<bool> &target)
{
    return readBool(v, target);
}

// `retry: { count: 3, delay: 1000, maxDelay: 30000 }` (fields left out keep the read default),
// `false` (no retries) or null (the default of the endpoint's kind).
Problem readJs(const QJSValue &v, std::optional<std::optional<RetryPolicy>> &target)
{
    if (v.isNull()) {
        target = std::optional<RetryPolicy>();
        return std::nullopt;
    }
    if (v.isBool() && !v.toBool()) {
        target = RetryPolicy::none();
        return std::nullopt;
    }
    if (!v.isObject() || v.isArray() || v.isCallable() || v.isQObject())
        return expected(v, "an object { count, delay, maxDelay }, false or null");
    RetryPolicy policy = RetryPolicy::forReads();
    const std::pair<QLatin1StringView, int *> fields[] = {{"count"_L1, &policy.count},
                                                          {"delay"_L1, &policy.baseDelayMs},
                                                          {"maxDelay"_L1, &policy.maxDelayMs}};
    for (const auto &[name, field] : fields) {
        const QJSValue value = v.property(QString(name));
        if (value.isUndefined())
            continue;
        if (!value.isNumber() || value.toNumber() < std::numeric_limits<int>::min()
            || value.toNumber() > std::numeric_limits<int>::max())
            return u".%1"_s.arg(name) + expected(value, "a number");
        *field = value.toInt();
    }
    if (const QString problem = policy.problem(); !problem.isEmpty())
        return u": "_s + problem;
    target = policy;
    return std::nullopt;
}

// `keyCase: "snake_case"` (or "kebab-case", "asIs").
Problem readJs(const QJSValue &v, std::optional<KeyCase> &target)
{
    const auto keyCase = v.isString() ? keyCaseFromName(v.toString()) : std::nullopt;
    if (!keyCase)
        return expected(v, "\"snake_case\", \"kebab-case\" or \"asIs\"");
    target = *keyCase;
    return std::nullopt;
}

// `csrf: "django"` (or "rails", "laravel"), `{ cookie, header, tokenPath }`, or null (none).
Problem readJs(const QJSValue &v, std::optional<Csrf> &target)
{
    if (v.isNull()) {
        target = Csrf();
        return std::nullopt;
    }
    if (v.isString()) {
        const QString name = v.toString();
        if (name == u"django")
            target = Csrf::django();
        else if (name == u"rails")
            target = Csrf::rails();
        else if (name == u"laravel")
            target = Csrf::laravel();
        else
            return expected(v, "\"django\", \"rails\", \"laravel\" or { cookie, header }");
        return std::nullopt;
    }
    if (!v.isObject() || v.isArray() || v.isCallable() || v.isQObject())
        return expected(v, "\"django\", \"rails\", \"laravel\" or { cookie, header }");
    Csrf csrf {v.property(u"cookie"_s).toString().toUtf8(),
               v.property(u"header"_s).toString().toUtf8(),
               {}};
    if (const QJSValue path = v.property(u"tokenPath"_s); path.isString())
        csrf.tokenPath = path.toString();
    if (csrf.isNull())
        return expected(v, "an object with both a cookie and a header name");
    target = csrf;
    return std::nullopt;
}

// `pagination: "pageNumber"` (see paginationName()).
Problem readJs(const QJSValue &v, std::optional<Pagination> &target)
{
    const auto pagination = v.isString() ? paginationFromName(v.toString()) : std::nullopt;
    if (!pagination)
        return expected(v,
                        "\"none\", \"pageNumber\", \"limitOffset\", \"cursor\", "
                        "\"laravel\", \"spring\", \"jsonApi\" or \"linkHeader\"");
    target = *pagination;
    return std::nullopt;
}

// The value QML reads for a shared option nobody set.
QVariant toVariant(int value)
{
    return value;
}
QVariant toVariant(qint64 value)
{
    return value;
}
QVariant toVariant(bool value)
{
    return value;
}
QVariant toVariant(const std::optional<RetryPolicy> &value)
{
    if (!value)
        return {};
    return QVariantMap {{u"count"_s, value->count},
                        {u"delay"_s, value->baseDelayMs},
                        {u"maxDelay"_s, value->maxDelayMs}};
}
QVariant toVariant(KeyCase value)
{
    return keyCaseName(value);
}
QVariant toVariant(Pagination value)
{
    return paginationName(value);
}
QVariant toVariant(const Csrf &value)
{
    if (value.isNull())
        return {};
    return QVariantMap {{u"cookie"_s, QString::fromUtf8(value.cookie)},
                        {u"header"_s, QString::fromUtf8(value.header)},
                        {u"tokenPath"_s, value.tokenPath}};
}
QVariant toVariant(Credentials value)
{
    return credentialsName(value);
}
QVariant toVariant(const Headers &headers)
{
    QVariantMap map;
    for (const auto &[name, value] : headers)
        map.insert(QString::fromUtf8(name), QString::fromUtf8(value));
    return map;
}

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
