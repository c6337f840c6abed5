// Reading endpoint/resource options written in QML (JS objects) into their C++ forms.
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/schema.h>

#include <QtCore/QJsonValue>
#include <QtCore/QString>
#include <QtQml/QJSValue>

#include <optional>

QT_BEGIN_NAMESPACE
class QJSEngine;
QT_END_NAMESPACE

namespace DataClient::Qml {

//! QJSValue -> QJsonValue (undefined stays undefined).
QJsonValue jsToJson(const QJSValue &value);

/*!
    A schema written in QML: an Entity; [Entity] (a Collection of it, as getList uses); an object
    whose fields are schemas or plain values (e.g. ({ results: [todo], total: 0 })); null for
    none. Returns std::nullopt and sets \a error for anything else.
*/
std::optional<Schema> schemaFromJs(const QJSValue &value, QString *error);

//! The `process` option from a JS function(value, params) -> value.
ProcessFunction processFromJs(QJSEngine *engine, const QJSValue &function);

/*!
    Endpoint options from a JS object, for extend(): name, method, path, urlPrefix, schema,
    searchParams, body, paginationField, process, pollFrequency, dataExpiryLength,
    errorExpiryLength, optimistic, sideEffect, credentials, timeout, headers. An unknown key or a
    value of the wrong type gives std::nullopt and an \a error naming it (\a where prefixes it).
*/
std::optional<EndpointOverrides> overridesFromJs(QJSEngine *engine, const QJSValue &object,
                                                 const QString &where, QString *error);

} // namespace DataClient::Qml
