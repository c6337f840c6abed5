// WriteBatch: everything one response normalizes to, staged before anything is written, so a
// value that does not fit its schema leaves the store untouched (issue 3, "Bad input").
#pragma once

#include <DataClient/schema.h>

#include "node_p.h"

#include <vector>

namespace DataClient {
class EntitySchemaPrivate;
}

namespace DataClient::detail {

struct EntityWrite
{
    quint32 table = 0;
    quint32 slot = 0;
    NodeRef node; // the normalized record; null for an invalidation
    const EntitySchemaPrivate *schema = nullptr; // kept alive by WriteBatch::schemas
    bool invalidate = false;
};

struct CollectionWrite
{
    quint32 table = 0; // collection table
    qint64 slot = -1; // Replace/AddWith: the collection of these arguments
    Params args; // the collection's arguments (Replace/AddWith) or the call's (Push...)
    Schema collection; // mode, merge, filter, customization
    QList<quint32> items; // item slots, in response order
    QList<NodeRef> itemNodes; // the items' records, for the push filter
};

struct WriteBatch
{
    std::vector<EntityWrite> entities;
    std::vector<CollectionWrite> collections;
    NodeRef result; // one-element array holding the normalized result value
    QList<EntitySchema> schemas; // every entity schema the writes refer to
    //! [table][slot] -> index in `entities` + 1, to merge repeated occurrences of one entity.
    std::vector<std::vector<quint32>> staged;

    bool isEmpty() const { return entities.empty() && collections.empty() && !result; }
};

} // namespace DataClient::detail
