// The option `keyCase`: keys between the server's case and the app's camelCase.
#pragma once

#include <DataClient/params.h>
#include <DataClient/schema.h>
#include <DataClient/serverconventions.h>

#include <QtCore/QJsonValue>

namespace DataClient::detail {

//! "user_id" -> "userId" (SnakeCase), "user-id" -> "userId" (KebabCase); leading separators
//! ("_links") are kept.
QString appKey(const QString &serverKey, KeyCase keyCase);
//! "userId" -> "user_id" (SnakeCase) or "user-id" (KebabCase); "userID" -> "user_id".
QString serverKey(const QString &appKey, KeyCase keyCase);

/*!
    An answer's keys in the app's case, at every depth; \a schema says which entity fields keep
    their contents as they are (EntitySchema::withKeysKept()). Throws SchemaError naming both
    server keys when two keys of one object become the same app key.
*/
QJsonValue keysToApp(const QJsonValue &value, KeyCase keyCase, const Schema &schema);
//! A body's keys in the server's case (the same walk, the other way).
QJsonValue keysToServer(const QJsonValue &value, KeyCase keyCase, const Schema &schema);
//! Query parameters with their keys in the server's case.
Params paramKeysToServer(const Params &params, KeyCase keyCase);

} // namespace DataClient::detail
