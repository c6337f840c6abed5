// Reading endpoint/resource options written in QML (JS objects) into their C++ forms.
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/resourceoptions.h>
#include <DataClient/schema.h>

#include <QtCore/QJsonValue>
#include <QtCore/QString>
#include <QtCore/QVariant>
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
    Reads the endpoint option \a name written in JS into \a overrides, through the one table of
    JS option names (the shared options of DATACLIENT_SHARED_ENDPOINT_OPTIONS, then name,
    path, urlPrefix, paginationField, method, optimistic, sideEffect, schema, searchParams,
    body, process). Resource's properties and extend() both read through it. An unknown name or
    a value of the wrong type returns false and sets \a error, naming the option, what it must
    be and what it got.
*/
bool readJsOption(QJSEngine *engine, const QString &name, const QJSValue &value,
                  EndpointOverrides *overrides, QString *error);

//! The value QML reads for a shared option nobody set (its default); invalid for other names.
QVariant defaultJsOption(const QString &name);

//! Sets every shared option set in \a overrides on \a options.
void applySharedOptions(const EndpointOverrides &overrides, ResourceOptions *options);

/*!
    Endpoint options from a JS object, for extend(): every key read by readJsOption(). The first
    unknown key or wrong value gives std::nullopt and its \a error (\a where prefixes it).
*/
std::optional<EndpointOverrides> overridesFromJs(QJSEngine *engine, const QJSValue &object,
                                                 const QString &where, QString *error);

} // namespace DataClient::Qml
