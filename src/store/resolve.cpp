// Resolving a prepared WriteBatch: its entities and collections were normalized against local
// tables (so preparing needs no store and may run on a worker); here their slots become the
// store's, and the pending references inside the batch's new records are rewritten in place
// (those records are the batch's own: nothing else has seen them yet).
#include "storeprivate_p.h"

#include <numeric>

namespace DataClient {

using namespace detail;
using namespace Qt::StringLiterals;

namespace {

struct Maps
{
    std::vector<quint32> tables; // local entity table -> store table
    std::vector<std::vector<quint32>> slots; // [local table][local slot] -> store slot
    std::vector<quint32> collectionTables; // local collection table -> store table
    std::vector<std::vector<quint32>> collections; // [local table][local slot] -> store slot

    void remap(Value &value) const
    {
        if (!value.pending)
            return;
        value.pending = 0;
        const quint32 table = value.ref.table;
        if (value.type == ValueType::EntityRef) {
            value.ref.slot = slots[table][value.ref.slot];
            value.ref.table = tables[table];
        } else {
            value.ref.slot = collections[table][value.ref.slot];
            value.ref.table = collectionTables[table];
        }
    }
    void patch(const Node *node) const
    {
        Node *mutableNode = const_cast<Node *>(node); // a record of this batch, not yet shared
        for (quint32 i = 0; i < node->count; ++i) {
            Value &value = mutableNode->values()[i];
            if (value.isRef())
                remap(value);
            else if (value.type == ValueType::Object || value.type == ValueType::Array)
                patch(value.node);
        }
    }
};

} // namespace

std::optional<SchemaError> StorePrivate::roomFor(const WriteBatch &batch) const
{
    if (batch.resolved)
        return {};
    for (const auto &from : batch.local.entities) {
        const EntityTable *to = findEntityTable(from->key);
        if (!to || to->hasRoomFor(from->slots.size()))
            continue; // the batch's own table was checked while normalizing
        // Near capacity: count the pks that are really new.
        size_t added = 0;
        char16_t buffer[16];
        for (const EntitySlot &slot : from->slots)
            added += to->find(slot.pk.view(buffer)) < 0 ? 1 : 0;
        if (!to->hasRoomFor(added)) {
            return SchemaError(
                from->key, QString(),
                u"at most %1 entities of one key in a store"_s.arg(EntityTable::capacity()),
                u"%1 stored and %2 new in this response"_s.arg(to->slots.size()).arg(added));
        }
    }
    return {};
}

void StorePrivate::resolve(WriteBatch &batch)
{
    if (batch.resolved)
        return;
    LocalTables &local = batch.local;
    Maps maps;
    maps.tables.resize(local.entities.size());
    maps.slots.resize(local.entities.size());
    // When every id maps to itself (the first write of each key into its tables: a list loaded
    // into an empty store), nothing in the batch needs rewriting.
    bool identity = true;
    for (size_t t = 0; t < local.entities.size(); ++t) {
        EntityTable &from = *local.entities[t];
        EntityTable &to = entityTable(from.key);
        maps.tables[t] = to.id;
        identity = identity && to.id == t;
        std::vector<quint32> &slots = maps.slots[t];
        slots.resize(from.slots.size());
        if (to.adoptIfEmpty(from)) {
            std::iota(slots.begin(), slots.end(), 0u);
            continue;
        }
        identity = false;
        to.reserve(from.slots.size());
        char16_t buffer[16];
        for (size_t s = 0; s < from.slots.size(); ++s)
            slots[s] = to.findOrAdd(from.slots[s].pk.view(buffer));
    }
    maps.collectionTables.resize(local.collections.size());
    maps.collections.resize(local.collections.size());
    for (size_t t = 0; t < local.collections.size(); ++t) {
        const LocalTables::CollectionTable &from = local.collections[t];
        CollectionTable &to = collectionTable(from.key, maps.tables[from.itemTable]);
        maps.collectionTables[t] = to.id;
        identity = identity && to.id == t;
        for (const auto &[argsKey, args] : from.slots) {
            maps.collections[t].push_back(to.findOrAdd(argsKey, args));
            identity = identity && maps.collections[t].back() + 1 == maps.collections[t].size();
        }
    }
    if (identity) {
        // The pending flags stay set: they only tell remap() below which ids to rewrite.
        batch.local = LocalTables();
        batch.resolved = true;
        return;
    }

    for (EntityWrite &write : batch.entities) {
        write.slot = maps.slots[write.table][write.slot];
        write.table = maps.tables[write.table];
        if (write.node)
            maps.patch(write.node.get());
    }
    for (CollectionWrite &write : batch.collections) {
        const quint32 itemTable = local.collections[write.table].itemTable;
        if (write.slot >= 0)
            write.slot = maps.collections[write.table][quint32(write.slot)];
        for (quint32 &item : write.items)
            item = maps.slots[itemTable][item];
        write.table = maps.collectionTables[write.table];
        for (const NodeRef &node : std::as_const(write.itemNodes)) {
            if (node)
                maps.patch(node.get());
        }
    }
    if (batch.result)
        maps.patch(batch.result.get());

    // The optimistic layers look entities up by the store's ids.
    batch.staged.clear();
    for (size_t i = 0; i < batch.entities.size(); ++i) {
        const EntityWrite &write = batch.entities[i];
        if (batch.staged.size() <= write.table)
            batch.staged.resize(write.table + 1);
        std::vector<quint32> &staged = batch.staged[write.table];
        if (staged.size() <= write.slot)
            staged.resize(std::max<size_t>(write.slot + 1, entityTables[write.table]->slots.size()),
                          0);
        staged[write.slot] = quint32(i + 1);
    }
    batch.local = LocalTables(); // no longer needed
    batch.resolved = true;
}

} // namespace DataClient
