// WriteBatch: everything one response normalizes to, staged before anything is written, so a
// value that does not fit its schema leaves the store untouched.
#pragma once

#include <DataClient/schema.h>

#include <DataClient/private/node_p.h>
#include "tables_p.h"

#include <QtCore/QHash>
#include <memory>

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

/*!
    The tables a batch refers to before it is committed. Normalizing does not touch the store (so
    it can run on any thread): references inside the batch name these local tables and slots,
    flagged as pending, and StorePrivate::resolve() maps them to the store's when committing.
*/
struct LocalTables
{
    struct CollectionTable
    {
        QString key;
        quint32 itemTable = 0;
        std::vector<std::pair<QString, Params>> slots; // arguments key, arguments
        QHash<QString, quint32> index; // argsKey -> slot, once there are more than a few
    };

    // A response touches a few entity keys: a linear search beats hashing into a new QHash.
    EntityTable &entityTable(const QString &key)
    {
        for (const auto &table : entities) {
            if (table->key.constData() == key.constData() || table->key == key)
                return *table;
        }
        const quint32 id = quint32(entities.size());
        entities.push_back(std::make_unique<EntityTable>(key, id));
        return *entities.back();
    }
    quint32 collectionTable(const QString &key, quint32 itemTable)
    {
        for (quint32 id = 0; id < collections.size(); ++id) {
            if (collections[id].key == key)
                return id;
        }
        const quint32 id = quint32(collections.size());
        collections.push_back(CollectionTable {key, itemTable, {}, {}});
        return id;
    }
    quint32 collectionSlot(quint32 table, const QString &argsKey, const Params &args)
    {
        CollectionTable &c = collections[table];
        constexpr size_t Linear = 8; // most responses hold one list: no hash for a few
        if (c.slots.size() <= Linear) {
            for (quint32 slot = 0; slot < c.slots.size(); ++slot) {
                if (c.slots[slot].first == argsKey)
                    return slot;
            }
        } else {
            const auto it = c.index.constFind(argsKey);
            if (it != c.index.cend())
                return it.value();
        }
        const quint32 slot = quint32(c.slots.size());
        c.slots.emplace_back(argsKey, args);
        if (c.slots.size() == Linear + 1) {
            for (quint32 s = 0; s < c.slots.size(); ++s)
                c.index.insert(c.slots[s].first, s);
        } else if (c.slots.size() > Linear + 1) {
            c.index.insert(argsKey, slot);
        }
        return slot;
    }

    std::vector<std::unique_ptr<EntityTable>> entities;
    std::vector<CollectionTable> collections;
};

struct WriteBatch
{
    LocalTables local;
    bool resolved = false; // ids are the store's (after StorePrivate::resolve)
    std::vector<EntityWrite> entities;
    std::vector<CollectionWrite> collections;
    NodeRef result; // one-element array holding the normalized result value
    QList<EntitySchema> schemas; // every entity schema the writes refer to
    //! [table][slot] -> index in `entities` + 1, to merge repeated occurrences of one entity
    //! (local ids while normalizing; the store's once resolved, for the optimistic layers).
    std::vector<std::vector<quint32>> staged;

    bool isEmpty() const { return entities.empty() && collections.empty() && !result; }
};

} // namespace DataClient::detail
