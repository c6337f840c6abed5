// Denormalized: what reading a result (or querying the entity table) gives back.
#pragma once

#include <DataClient/entityref.h>
#include <DataClient/meta.h>
#include <DataClient/record.h>
#include <DataClient/rowlist.h>
#include <DataClient/tojson.h>

#include <QtCore/QList>
#include <QtCore/QVariant>

namespace DataClient {

struct Denormalized
{
    //! The value, shaped like the schema: an entity is a Record (record.h), a Collection's rows
    //! a RowList (rowlist.h) of Records, an Array a QVariantList, an Object or Values a
    //! QVariantMap; fields deserialized (QDateTime, Decimal, ...). toList()/toMap() give plain
    //! lists and maps, DataClient::toJsonValue() (tojson.h) JSON, qDebug() the content.
    //! Memoized: reading unchanged data again gives a QVariant sharing the same d-pointer.
    QVariant data;
    //! False when there is no such result, or an entity it needs is missing (see missing).
    bool found = false;
    //! The result's meta (for query(): the entity's meta, or the collection's).
    Meta meta;
    //! Entities the value refers to that are not in the store (deleted or never fetched).
    //! A list result silently drops its missing items and does not list them here.
    QList<EntityRef> missing;
};

} // namespace DataClient
