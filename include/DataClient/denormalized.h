// Denormalized: what reading a result (or querying the entity table) gives back.
#pragma once

#include <DataClient/entityref.h>
#include <DataClient/meta.h>

#include <QtCore/QList>
#include <QtCore/QVariant>

namespace DataClient {

struct Denormalized
{
    //! The value: QVariantMap / QVariantList trees, entities resolved (Records), fields
    //! deserialized; a Collection's rows are a RowList (converts to QVariantList; rowlist.h).
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
