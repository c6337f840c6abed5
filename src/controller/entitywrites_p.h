// Store writes of entities without an endpoint, without their signal: Controller::set() and
// remove() emit each one; a LiveFeed commits a turn's messages and emits once.
#pragma once

#include <DataClient/params.h>
#include <DataClient/schema.h>
#include <DataClient/storewrite.h>

#include <QtCore/QJsonValue>

namespace DataClient {
class ControllerPrivate;
}

namespace DataClient::detail {

//! Upserts the entities of \a value (an object or an array); a refusal is in the write's error.
StoreWrite writeEntities(ControllerPrivate &d, const Schema &schema, const QJsonValue &value,
                         qint64 date);
//! Deletes entity \a pk everywhere (a tombstone even when the store does not hold it, so that a
//! fetch answer dated before it does not bring it back).
StoreWrite removeEntity(ControllerPrivate &d, const Schema &schema, const QString &pk, qint64 date);
//! Pushes (or, \a prepend, unshifts) \a value to the stored lists of \a collection that \a args
//! match.
StoreWrite addToCollection(ControllerPrivate &d, const Schema &collection, const Params &args,
                           const QJsonValue &value, bool prepend, qint64 date);

} // namespace DataClient::detail
