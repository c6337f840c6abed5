// Optimistic layers: each layer keeps the batches written into it; what a view
// shows is the committed data with every layer re-applied on top, in ascending layer id. Removing
// a layer recomputes only what it touched, so nothing the server confirmed is lost.
#include "normalizer_p.h"

#include <DataClient/private/schema_p.h>

namespace DataClient {

using namespace detail;

void StorePrivate::recomputeEntityOverride(quint32 tableId, quint32 slot, ChangeSet &changes)
{
    Q_UNUSED(changes);
    EntityTable &table = *entityTables[tableId];
    NodeRef shown = table.slots[slot].node;
    // Layers obey the race rule too: one whose request started before the shown data's only
    // fills fields (so toggles end on the newest request).
    qint64 shownDate = table.slots[slot].meta ? table.slots[slot].meta->meta.date : 0;
    bool deleted = false;
    bool touched = false;
    for (const auto &[id, batches] : layers) {
        for (const LayerBatch &layer : batches) {
            const WriteBatch &batch = *layer.batch;
            if (batch.staged.size() <= tableId || batch.staged[tableId].size() <= slot
                || batch.staged[tableId][slot] == 0)
                continue;
            const EntityWrite &write = batch.entities[batch.staged[tableId][slot] - 1];
            touched = true;
            if (write.invalidate) {
                shown = {};
                deleted = true;
            } else {
                const bool newer = !shown || layer.meta.date >= shownDate;
                shown = mergeRecords(write.schema, shown, write.node, newer);
                shownDate = std::max(shownDate, layer.meta.date);
                deleted = false;
            }
        }
    }
    if (touched)
        table.overrides.insert(slot, EntityOverride {shown, deleted || !shown});
    else
        table.overrides.remove(slot);
}

void StorePrivate::recomputeCollectionOverride(quint32 tableId, quint32 slot, ChangeSet &changes)
{
    Q_UNUSED(changes);
    CollectionTable &table = *collectionTables[tableId];
    const CollectionSlot &collection = table.slots[slot];
    bool exists = collection.exists;
    QList<quint32> items = collection.items;
    bool touched = false;
    // Re-filtering within the layers: each layer's entity changes move rows of the layers' own
    // copy of the items, from the record as the layers below it left it (refilter.cpp).
    const EntityTable &itemTable = *entityTables[table.itemTable];
    QHash<quint32, std::pair<NodeRef, qint64>> shown; // entity slot -> record, date so far
    const RecordOf record = [&](quint32 row) {
        const auto it = shown.constFind(row);
        return it != shown.cend() ? it->first.get() : itemTable.slots[row].node.get();
    };
    for (const auto &[id, batches] : layers) {
        for (const LayerBatch &layer : batches) {
            for (const CollectionWrite &write : layer.batch->collections) {
                if (write.table == tableId
                    && applyCollectionWrite(table, write, collection, &exists, &items))
                    touched = true;
            }
            for (const EntityWrite &write : layer.batch->entities) {
                if (write.table != table.itemTable || write.invalidate)
                    continue;
                const EntitySlot &committed = itemTable.slots[write.slot];
                auto [before, date] = shown.value(
                    write.slot,
                    {committed.node, committed.meta ? committed.meta->meta.date : qint64(0)});
                const bool newer = !before || layer.meta.date >= date;
                NodeRef after = mergeRecords(write.schema, before, write.node, newer);
                shown.insert(write.slot, {after, std::max(date, layer.meta.date)});
                if (exists && watchedFieldChanged(table, before.get(), after.get())
                    && refilterItems(table, collection.args, write.slot, objectJson(before.get()),
                                     objectJson(after.get()), record, &items))
                    touched = true;
            }
        }
    }
    if (touched)
        table.overrides.insert(slot, CollectionOverride {items, exists});
    else
        table.overrides.remove(slot);
}

void StorePrivate::recomputeResultOverride(const QString &key, ChangeSet &changes)
{
    const NodeRef before = NodeRef::share(effectiveResult(key));
    NodeRef shown;
    bool touched = false;
    for (const auto &[id, batches] : layers) {
        for (const LayerBatch &layer : batches) {
            if (layer.resultKey == key && layer.batch->result) {
                shown = layer.batch->result;
                touched = true;
            }
        }
    }
    if (touched)
        resultOverrides.insert(key, shown);
    else
        resultOverrides.remove(key);
    const Node *after = effectiveResult(key);
    if (before.get() != after && !nodesEqual(before.get(), after))
        resultChanged(key, changes);
}

void StorePrivate::recomputeLayersFor(const WriteBatch &batch, const QString &resultKey,
                                      ChangeSet &changes)
{
    for (const EntityWrite &write : batch.entities) {
        EntityTable &table = *entityTables[write.table];
        const NodeRef before = NodeRef::share(table.effective(write.slot));
        const bool pendingBefore = table.overrides.contains(write.slot);
        recomputeEntityOverride(write.table, write.slot, changes);
        const Node *after = table.effective(write.slot);
        // A layer coming or going is a change even when the data is equal: Records say whether
        // they are pending (a confirmation equal to the guess still ends "pending").
        if ((before.get() != after && !nodesEqual(before.get(), after))
            || pendingBefore != table.overrides.contains(write.slot))
            entityChanged(write.table, write.slot, changes);
    }
    QList<quint32> tables;
    for (const CollectionWrite &write : batch.collections) {
        if (!tables.contains(write.table))
            tables.append(write.table);
    }
    // The collections a layer's entity changes can move rows of (re-filtering).
    QList<quint32> entityKeys;
    for (const EntityWrite &write : batch.entities) {
        if (!entityKeys.contains(write.table))
            entityKeys.append(write.table);
    }
    for (const auto &table : collectionTables) {
        if (entityKeys.contains(table->itemTable) && !tables.contains(table->id)
            && (!table->type || table->type->followsChanges()))
            tables.append(table->id);
    }
    for (quint32 tableId : std::as_const(tables)) {
        CollectionTable &table = *collectionTables[tableId];
        for (quint32 slot = 0; slot < table.slots.size(); ++slot) {
            const auto before = effectiveItems(table, slot);
            recomputeCollectionOverride(tableId, slot, changes);
            if (before != effectiveItems(table, slot))
                collectionChanged(tableId, slot, changes);
        }
    }
    if (!resultKey.isEmpty())
        recomputeResultOverride(resultKey, changes);
}

const Node *StorePrivate::effectiveResult(const QString &key) const
{
    if (!resultOverrides.isEmpty()) {
        const auto it = resultOverrides.constFind(key);
        if (it != resultOverrides.cend())
            return it->get();
    }
    const auto it = results.constFind(key);
    return it == results.cend() ? nullptr : it->holder.get();
}

} // namespace DataClient
