// StoreLayers::collectGarbage(): drops results the caller gave up, then marks everything the remaining
// results, the kept reads and the optimistic layers reach (nested entities, list items) and drops
// the committed data of every other entity and collection last written before the cutoff.
// A dropped entity's record, meta and memoized views go. Its slot goes too once nothing refers to
// it any more (normalized references, list items, the memo and optimistic layers address
// entities by slot): released in bulk when a table's dead slots reach a quarter of it, the next
// new pks take them (EntityTable::release()).
#include "storeprivate_p.h"

#include "logging_p.h"

#include <DataClient/private/storelayers_p.h>

#include <DataClient/collection.h>

#include <QtCore/QThreadPool>

#include <algorithm>
#include <memory>
#include <vector>

namespace DataClient {

using namespace detail;

namespace {

constexpr size_t FreeOnWorkerFrom = 4096;

//! The mark phase: one bit per slot of every entity and collection table.
class Marker
{
public:
    explicit Marker(const StorePrivate &store) : m_store(store)
    {
        m_entities.resize(store.entityTables.size());
        for (size_t t = 0; t < store.entityTables.size(); ++t)
            m_entities[t].assign(store.entityTables[t]->slots.size(), false);
        m_collections.resize(store.collectionTables.size());
        for (size_t t = 0; t < store.collectionTables.size(); ++t)
            m_collections[t].assign(store.collectionTables[t]->slots.size(), false);
    }

    void node(const Node *root)
    {
        if (root)
            m_pending.push_back(root);
        drain();
    }
    void entity(quint32 table, quint32 slot)
    {
        markEntity(table, slot);
        drain();
    }
    void collection(quint32 table, quint32 slot)
    {
        markCollection(table, slot);
        drain();
    }
    bool entityMarked(quint32 table, quint32 slot) const { return m_entities[table][slot]; }
    //! Notes the entities \a root refers to, not what they refer to in turn: after the sweep,
    //! for what stayed without being reached (only references to empty slots matter then).
    void noteReferences(const Node *root)
    {
        if (root)
            m_pending.push_back(root);
        while (!m_pending.empty()) {
            const Node *node = m_pending.back();
            m_pending.pop_back();
            for (quint32 i = 0; i < node->count; ++i) {
                const Value &value = node->at(i);
                if (value.type == ValueType::Object || value.type == ValueType::Array)
                    m_pending.push_back(value.node);
                else if (value.type == ValueType::EntityRef)
                    noteEntity(value.ref.table, value.ref.slot);
            }
        }
    }
    void noteEntity(quint32 table, quint32 slot)
    {
        if (table >= m_entities.size() || slot >= m_entities[table].size())
            return;
        if (m_noted.size() != m_entities.size()) {
            m_noted.resize(m_entities.size());
            for (size_t t = 0; t < m_entities.size(); ++t)
                m_noted[t].assign(m_entities[t].size(), false);
        }
        m_noted[table][slot] = true;
    }
    bool entityNoted(quint32 table, quint32 slot) const
    {
        return table < m_noted.size() && m_noted[table][slot];
    }
    bool collectionMarked(quint32 table, quint32 slot) const { return m_collections[table][slot]; }

private:
    void markEntity(quint32 table, quint32 slot)
    {
        if (table >= m_entities.size() || slot >= m_entities[table].size()
            || m_entities[table][slot])
            return;
        m_entities[table][slot] = true;
        const EntityTable &entities = *m_store.entityTables[table];
        if (const Node *committed = entities.slots[slot].node.get())
            m_pending.push_back(committed);
        if (const Node *shown = entities.effective(slot);
            shown && shown != entities.slots[slot].node.get())
            m_pending.push_back(shown);
    }
    void markCollection(quint32 table, quint32 slot)
    {
        if (table >= m_collections.size() || slot >= m_collections[table].size()
            || m_collections[table][slot])
            return;
        m_collections[table][slot] = true;
        const CollectionTable &collections = *m_store.collectionTables[table];
        for (quint32 item : collections.slots[slot].items)
            markEntity(collections.itemTable, item);
        const auto shown = collections.overrides.constFind(slot);
        if (shown != collections.overrides.cend()) {
            for (quint32 item : shown->items)
                markEntity(collections.itemTable, item);
        }
    }
    // Iterative: a deep tree of nested objects must not overflow the stack.
    void drain()
    {
        while (!m_pending.empty()) {
            const Node *node = m_pending.back();
            m_pending.pop_back();
            for (quint32 i = 0; i < node->count; ++i) {
                const Value &value = node->at(i);
                switch (value.type) {
                case ValueType::Object:
                case ValueType::Array:
                    m_pending.push_back(value.node);
                    break;
                case ValueType::EntityRef:
                    markEntity(value.ref.table, value.ref.slot);
                    break;
                case ValueType::CollectionRef:
                    markCollection(value.ref.table, value.ref.slot);
                    break;
                default:
                    break;
                }
            }
        }
    }

    const StorePrivate &m_store;
    std::vector<std::vector<bool>> m_entities;
    std::vector<std::vector<bool>> m_collections;
    std::vector<std::vector<bool>> m_noted; // noteEntity(), apart from what the mark reached
    std::vector<const Node *> m_pending;
};

qint64 lastWrite(const MetaRef &meta)
{
    return meta ? meta->meta.fetchedAt : 0;
}

void markKeptRead(const StorePrivate &store, Marker &marker, const Schema &schema,
                  const Params &args)
{
    if (schema.kind() == Schema::Kind::Entity || schema.kind() == Schema::Kind::Invalidate) {
        const EntitySchema entitySchema = schema.entitySchema();
        const QString pk = entitySchema.pk(QJsonObject::fromVariantMap(args));
        const EntityTable *table = store.findEntityTable(entitySchema.key());
        const qint64 slot = table && !pk.isEmpty() ? table->find(pk) : -1;
        if (slot >= 0)
            marker.entity(table->id, quint32(slot));
        return;
    }
    const Schema collection = schema.collectionSchema();
    if (collection.isNull())
        return;
    const auto tableId = store.collectionTableIds.constFind(collection.key());
    if (tableId == store.collectionTableIds.cend())
        return;
    const CollectionTable &table = *store.collectionTables[tableId.value()];
    const qint64 slot = table.find(Collection::argumentsKey(args));
    if (slot >= 0)
        marker.collection(table.id, quint32(slot));
}

//! Releases the empty entity slots that nothing refers to, in the tables where \a dead (the
//! slots emptied and not reached, by table) reached a quarter of the slots holding a pk: a bulk
//! release rebuilds the table's pk index, so it waits until it pays for that. Returns how many.
size_t releaseDeadSlots(StorePrivate &store, Marker &marker, const std::vector<size_t> &dead)
{
    // Empty slots found still referred to at the last release do not count again (a pass that
    // would release nothing must not scan the store every time).
    const auto due = [&dead](const EntityTable &table) {
        const size_t fresh = dead[table.id] - std::min(dead[table.id], table.pinnedEmptySlots);
        return fresh > 0 && fresh * 4 >= table.liveSlots();
    };
    if (std::none_of(store.entityTables.cbegin(), store.entityTables.cend(),
                     [&due](const auto &table) { return due(*table); }))
        return 0;
    // What the mark phase reached is marked, references to empty slots included. What stayed
    // without being reached (written within the grace period) may still refer to an emptied
    // entity (one removed since), and so may the batches of the optimistic layers: such a slot
    // must not answer for another pk.
    for (const auto &table : store.entityTables) {
        for (quint32 slot = 0; slot < table->slots.size(); ++slot) {
            if (const Node *record = table->slots[slot].node.get();
                record && !marker.entityMarked(table->id, slot))
                marker.noteReferences(record);
        }
    }
    for (const auto &table : store.collectionTables) {
        for (quint32 slot = 0; slot < table->slots.size(); ++slot) {
            if (!marker.collectionMarked(table->id, slot)) {
                for (const quint32 item : table->slots[slot].items)
                    marker.noteEntity(table->itemTable, item);
            }
        }
    }
    for (const auto &[id, batches] : store.layers) {
        for (const StorePrivate::LayerBatch &layer : batches) {
            const WriteBatch &batch = *layer.batch;
            for (const EntityWrite &write : batch.entities) {
                marker.noteEntity(write.table, write.slot);
                marker.noteReferences(write.node.get());
            }
            for (const CollectionWrite &write : batch.collections) {
                const quint32 itemTable = store.collectionTables[write.table]->itemTable;
                for (const quint32 item : write.items)
                    marker.noteEntity(itemTable, item);
                for (const NodeRef &node : write.itemNodes)
                    marker.noteReferences(node.get());
            }
            marker.noteReferences(batch.result.get());
        }
    }

    size_t released = 0;
    std::vector<quint32> free;
    for (const auto &table : store.entityTables) {
        if (!due(*table))
            continue;
        free.clear();
        size_t pinned = 0;
        for (quint32 slot = 0; slot < table->slots.size(); ++slot) {
            const EntitySlot &entity = table->slots[slot];
            if (entity.released || entity.node || entity.deleted || entity.meta
                || marker.entityMarked(table->id, slot) || table->overrides.contains(slot))
                continue;
            if (marker.entityNoted(table->id, slot))
                ++pinned;
            else
                free.push_back(slot);
        }
        table->pinnedEmptySlots = pinned;
        table->release(free);
        // The memo forgets them too (their views are empty already; who embedded them goes).
        // Released slots at the table's end are gone from it: the memo's vectors end there too
        // (\a free is ascending), so a pass that drops most of a table clears no slot one by one.
        if (table->id < store.entityViewsByTable.size()) {
            const size_t end = table->slots.size();
            for (EntityViews *views : store.entityViewsByTable[table->id]) {
                if (views->views.size() > end)
                    views->views.resize(end);
                if (views->embedders.size() > end)
                    views->embedders.resize(end);
                for (auto slot = free.cbegin(); slot != free.cend() && *slot < end; ++slot) {
                    if (*slot < views->views.size())
                        views->views[*slot] = Record();
                    if (*slot < views->embedders.size())
                        views->embedders[*slot] = {};
                }
            }
        }
        released += free.size();
    }
    return released;
}

} // namespace

StoreGarbageOutcome StoreLayers::collectGarbage(Store &store, const StoreGarbageRequest &request)
{
    const auto &d = store.d;
    StoreGarbageOutcome outcome;
    for (const QString &key : request.evictResults) {
        if (d->resultOverrides.contains(key) || !d->results.remove(key))
            continue; // an optimistic layer shows it, or it is gone already
        d->retireResultView(key);
        outcome.changes.results.insert(key);
        ++outcome.results;
    }

    Marker marker(*d);
    for (const ResultSlot &result : std::as_const(d->results))
        marker.node(result.holder.get());
    for (const NodeRef &layered : std::as_const(d->resultOverrides))
        marker.node(layered.get());
    for (const auto &table : d->entityTables) {
        for (auto it = table->overrides.cbegin(); it != table->overrides.cend(); ++it)
            marker.entity(table->id, it.key());
    }
    for (const auto &table : d->collectionTables) {
        for (auto it = table->overrides.cbegin(); it != table->overrides.cend(); ++it)
            marker.collection(table->id, it.key());
    }
    for (const auto &[schema, args] : request.keep)
        markKeptRead(*d, marker, schema, args);

    // Records are immutable and their reference counts atomic: a large pass frees them on a
    // worker, so dropping 100k entities does not stall the GUI thread on free().
    auto dropped = std::make_shared<std::vector<NodeRef>>();
    const auto noteKept = [&outcome](qint64 written) {
        if (outcome.oldestUnreachable < 0 || written < outcome.oldestUnreachable)
            outcome.oldestUnreachable = written;
    };
    std::vector<size_t> dead(d->entityTables.size(), 0); // slots emptied, not reached
    for (const auto &table : d->entityTables) {
        for (quint32 slot = 0; slot < table->slots.size(); ++slot) {
            EntitySlot &entity = table->slots[slot];
            if (marker.entityMarked(table->id, slot))
                continue;
            if (!entity.node && !entity.deleted) {
                dead[table->id] += !entity.meta && !entity.released ? 1 : 0;
                continue;
            }
            if (lastWrite(entity.meta) > request.writtenBefore) {
                noteKept(lastWrite(entity.meta));
                continue;
            }
            const bool shown = entity.node.get() != nullptr; // a tombstone goes without a change
            if (shown)
                dropped->push_back(std::move(entity.node));
            entity.node = {};
            entity.meta = {};
            entity.deleted = false;
            if (shown) {
                d->entityChanged(table->id, slot, outcome.changes);
                ++outcome.entities;
            }
            ++dead[table->id];
        }
    }
    for (const auto &table : d->collectionTables) {
        for (quint32 slot = 0; slot < table->slots.size(); ++slot) {
            CollectionSlot &collection = table->slots[slot];
            if (!collection.exists || marker.collectionMarked(table->id, slot))
                continue;
            if (lastWrite(collection.meta) > request.writtenBefore) {
                noteKept(lastWrite(collection.meta));
                continue;
            }
            collection.exists = false;
            collection.items = {};
            collection.meta = {};
            d->collectionChanged(table->id, slot, outcome.changes);
            // Its list views hold the rows they read last: they go too (re-read when asked).
            const quint64 key = (quint64(table->id) << 32) | slot;
            for (auto it = d->listViewsByCollection.constFind(key);
                 it != d->listViewsByCollection.cend() && it.key() == key; ++it) {
                ListView &view = **it;
                view.value = QVariant();
                view.rowSlots = {};
                view.members = {};
                view.dirtySlots.clear();
            }
            ++outcome.collections;
        }
    }
    const size_t released = releaseDeadSlots(*d, marker, dead);
    if (dropped->size() >= FreeOnWorkerFrom)
        QThreadPool::globalInstance()->start([dropped] { dropped->clear(); });
    else
        dropped->clear();
    qCDebug(lcStore) << "collectGarbage:" << outcome.results << "results," << outcome.entities
                     << "entities," << outcome.collections << "collections dropped," << released
                     << "entity slots released";
    return outcome;
}

} // namespace DataClient
