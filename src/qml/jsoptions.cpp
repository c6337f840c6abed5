#include "jsoptions_p.h"

#include "qmlentity.h"

#include <DataClient/networkerror.h>
#include <DataClient/requestinit.h>

#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtQml/QJSEngine>
#include <QtQml/QJSValueIterator>

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
    auto wrong = [&](const QString &key, const char *expected) {
        *error = u"%1: option \"%2\" must be %3; got %4"_s.arg(
            where, key, QString::fromLatin1(expected), object.property(key).toString());
        return std::nullopt;
    };
    QJSValueIterator it(object);
    while (it.hasNext()) {
        it.next();
        const QString key = it.name();
        const QJSValue v = it.value();
        if (key == u"name" || key == u"path" || key == u"urlPrefix" || key == u"paginationField"
            || key == u"method") {
            if (!v.isString())
                return wrong(key, "a string");
            if (key == u"name")
                overrides.name = v.toString();
            else if (key == u"path")
                overrides.path = v.toString();
            else if (key == u"urlPrefix")
                overrides.urlPrefix = v.toString();
            else if (key == u"paginationField")
                overrides.paginationField = v.toString();
            else
                overrides.method = v.toString().toUpper().toLatin1();
        } else if (key == u"pollFrequency" || key == u"dataExpiryLength"
                   || key == u"errorExpiryLength" || key == u"timeout") {
            if (!v.isNumber() || v.toNumber() < 0)
                return wrong(key, "a number of milliseconds (0 or more)");
            const int ms = v.toInt();
            if (key == u"pollFrequency")
                overrides.pollFrequency = ms;
            else if (key == u"dataExpiryLength")
                overrides.dataExpiryLength = ms;
            else if (key == u"errorExpiryLength")
                overrides.errorExpiryLength = ms;
            else
                overrides.timeout = ms;
        } else if (key == u"optimistic" || key == u"sideEffect") {
            if (!v.isBool())
                return wrong(key, "true or false");
            (key == u"optimistic" ? overrides.optimistic : overrides.sideEffect) = v.toBool();
            if (key == u"optimistic" && !v.toBool())
                overrides.getOptimisticResponse = OptimisticFunction(); // no prediction at all
        } else if (key == u"schema") {
            QString why;
            const auto schema = schemaFromJs(v, &why);
            if (!schema) {
                *error = u"%1: option \"schema\": %2"_s.arg(where, why);
                return std::nullopt;
            }
            overrides.schema = *schema;
        } else if (key == u"searchParams") {
            if (!v.isArray())
                return wrong(key, "an array of parameter names");
            overrides.searchParams = v.toVariant().toStringList();
        } else if (key == u"body") {
            overrides.body = jsToJson(v);
        } else if (key == u"process") {
            if (!v.isCallable())
                return wrong(key, "a function(value, params) returning the value");
            overrides.process = processFromJs(engine, v);
        } else if (key == u"credentials") {
            const auto credentials = credentialsFromName(v.toString());
            if (!v.isString() || !credentials)
                return wrong(key, "\"omit\", \"same-origin\" or \"include\"");
            overrides.credentials = *credentials;
        } else if (key == u"headers") {
            if (!v.isObject() || v.isArray())
                return wrong(key, "an object of header names to values");
            QList<QPair<QByteArray, QByteArray>> headers;
            QJSValueIterator h(v);
            while (h.hasNext()) {
                h.next();
                headers.append({h.name().toUtf8(), h.value().toString().toUtf8()});
            }
            overrides.headers = headers;
        } else {
            *error = u"%1: unknown endpoint option \"%2\" (known: name, method, path, urlPrefix, "
                     "schema, searchParams, body, paginationField, process, pollFrequency, "
                     "dataExpiryLength, errorExpiryLength, optimistic, sideEffect, credentials, "
                     "timeout, headers)"_s.arg(where, key);
            return std::nullopt;
        }
    }
    return overrides;
}

} // namespace DataClient::Qml
