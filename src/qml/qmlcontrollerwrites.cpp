// The QML Controller singleton's writes of entities without an endpoint: set() and remove(),
// forwarded to Controller::set() and Controller::remove() (docs/controller.md).
#include "qmlcontrollersingleton.h"

#include "jsoptions_p.h"

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QDateTime>
#include <QtQml/qqmlinfo.h>

#include <cmath>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

namespace {

//! The Entity schema \a schema writes rows of (itself, its items, a delete's entity), else null.
Schema rowEntitySchema(const Schema &schema)
{
    if (schema.kind() == Schema::Kind::Entity)
        return schema;
    if (schema.kind() == Schema::Kind::Invalidate)
        return Schema::entity(schema.entitySchema());
    if (schema.itemSchema().kind() == Schema::Kind::Entity)
        return schema.itemSchema();
    return schema; // refused by the Controller, which names what it got
}

//! What the Controller refused, for the caller (the Controller warned already).
QString refused(const char *function, const StoreWrite &write)
{
    if (!write.error)
        return {};
    return u"Controller.%1(%2): %3"_s.arg(QLatin1StringView(function), write.error->entityKey(),
                                          write.error->message());
}

} // namespace

struct QmlControllerSingleton::WriteArguments
{
    Schema schema;
    qint64 date = 0;
    QString error; //!< empty when the arguments are usable
};

QmlControllerSingleton::WriteArguments
QmlControllerSingleton::readWriteArguments(const char *function, const QJSValue &schemaValue,
                                           const QJSValue &dateValue) const
{
    WriteArguments call;
    QString why;
    if (auto *endpoint = qobject_cast<RestEndpoint *>(schemaValue.toQObject())) {
        call.schema = endpoint->schema();
    } else if (const auto fromJs = schemaFromJs(schemaValue, &why)) {
        call.schema = *fromJs;
    } else {
        why = u"the first argument must be an Entity, [Entity] or an endpoint of a Resource (e.g. "
              "todos.get): %1"_s.arg(why);
    }
    if (!why.isEmpty()) {
        // already said
    } else if (dateValue.isDate()) {
        call.date = dateValue.toDateTime().toMSecsSinceEpoch();
    } else if (dateValue.isNumber() && std::isfinite(dateValue.toNumber())) {
        call.date = qint64(dateValue.toNumber());
    } else if (!dateValue.isUndefined() && !dateValue.isNull()) {
        why = u"the date must be a Date or a number of ms since the epoch (e.g. Date.now()), or "
              "omitted for now; got %1"_s.arg(dateValue.toString());
    }
    if (!why.isEmpty()) {
        call.error = u"Controller.%1(): %2"_s.arg(QLatin1StringView(function), why);
        qmlWarning(this) << call.error;
    }
    return call;
}

QString QmlControllerSingleton::set(const QJSValue &schemaValue, const QJSValue &value,
                                    const QJSValue &dateValue)
{
    const WriteArguments call = readWriteArguments("set", schemaValue, dateValue);
    if (!call.error.isEmpty())
        return call.error;
    return refused("set", controller()->set(call.schema, jsToJson(value), call.date));
}

QString QmlControllerSingleton::remove(const QJSValue &schemaValue, const QJSValue &pk,
                                       const QJSValue &dateValue)
{
    const WriteArguments call = readWriteArguments("remove", schemaValue, dateValue);
    if (!call.error.isEmpty())
        return call.error;
    if (!pk.isString() && !pk.isNumber()) {
        const QString error
            = u"Controller.remove(%1): the primary key must be a string or a number; got %2"_s.arg(
                call.schema.key(), pk.toString());
        qmlWarning(this) << error;
        return error;
    }
    return refused("remove",
                   controller()->remove(rowEntitySchema(call.schema), pk.toString(), call.date));
}

} // namespace DataClient::Qml
