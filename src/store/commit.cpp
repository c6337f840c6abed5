// Committing a staged WriteBatch: the race rule, shallow merges, collection operations and the
// ChangeSet.
#include "normalizer_p.h"

#include <DataClient/private/compactjson_p.h>
#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/schema_p.h>

#include <QtCore/QJsonObject>
#include <QtCore/QSet>

using namespace Qt::StringLiterals;

namespace DataClient {

using namespace detail;

StorePrivate::EntityTable &StorePrivate::entityTable(const QString &key)
{
    const auto it = entityTableIds.constFind(key);
    if (it != entityTableIds.cend())
        return *entityTables[it.value()];
    const quint32 id = quint32(entityTables.size());
    entityTables.push_back(std::make_unique<EntityTable>(key, id));
    entityTableIds.insert(key, id);
    return *entityTables.back();
}

StorePrivate::EntityTable *StorePrivate::findEntityTable(const QString &key) const
{
    const auto it = entityTableIds.constFind(key);
    return it == entityTableIds.cend() ? nullptr : entityTables[it.value()].get();
}

StorePrivate::CollectionTable &StorePrivate::collectionTable(const QString &key, quint32 itemTable)
{
    const auto it = collectionTableIds.constFind(key);
    if (it != collectionTableIds.cend())
        return *collectionTables[it.value()];
    const quint32 id = quint32(collectionTables.size());
    collectionTables.push_back(std::make_unique<CollectionTable>(key, id, itemTable));
    collectionTableIds.insert(key, id);
    return *collectionTables.back();
}

StoreWrite StorePrivate::write(std::optional<quint64> layer, const QString &resultKey,
                               const Schema &schema, const Params &args, const Node *holder,
                               const Meta &meta)
{
    if (!layer && meta.date > 0 && meta.date < resetAt)
        return {}; // started before the store was reset: dropped
    std::optional<SchemaError> error;
    const auto batch = prepare(schema, args, holder, &error, layer.has_value());
    if (error) {
        StoreWrite outcome;
        outcome.error = std::move(error);
        return outcome;
    }
    return commitPrepared(layer, resultKey, batch, meta);
}

std::shared_ptr<WriteBatch> StorePrivate::prepare(const Schema &schema, const Params &args,
                                                  const Node *holder,
                                                  std::optional<SchemaError> *error, bool layer)
{
    auto batch = std::make_shared<WriteBatch>();
    try {
        Normalizer(args, *batch, layer).run(holder, schema);
    } catch (const SchemaError &e) {
        *error = e;
        return {};
    }
    return batch;
}

StoreWrite StorePrivate::commitPrepared(std::optional<quint64> layer, const QString &resultKey,
                                        const std::shared_ptr<WriteBatch> &batch, const Meta &meta)
{
    StoreWrite outcome;
    if (!layer && meta.date > 0 && meta.date < resetAt)
        return outcome; // started before the store was reset: dropped
    if (std::optional<SchemaError> full = roomFor(*batch)) {
        outcome.error = std::move(full);
        return outcome;
    }
    resolve(*batch);
    for (const CollectionWrite &write : batch->collections)
        collectionTables[write.table]->type = SchemaPrivate::get(write.collection)->collectionType;
    if (layer) {
        layers[*layer].push_back(LayerBatch {resultKey, batch, meta});
        recomputeLayersFor(*batch, resultKey, outcome.changes);
    } else {
        commit(*batch, resultKey, meta, outcome.changes);
    }
    return outcome;
}

NodeRef StorePrivate::mergeRecords(const EntitySchemaPrivate *schema, const NodeRef &existing,
                                   const NodeRef &incoming, bool incomingIsNewer)
{
    if (!existing)
        return incoming;
    const Node *old = existing.get();
    const Node *now = incoming.get();
    if (incomingIsNewer && schema && schema->merge) {
        const QJsonObject merged = schema->merge(objectJson(old), objectJson(now));
        NodeRef holder = fromJsonValue(merged);
        return NodeRef::share(holder->at(0).node);
    }
    // Shallow merge: incoming fields replace stored ones whole, fields it lacks are kept; an
    // older response only fills fields the record lacks.
    const Node *base = incomingIsNewer ? now : old;
    const Node *extra = incomingIsNewer ? old : now;
    QList<quint32> missing;
    for (quint32 i = 0; i < extra->count; ++i) {
        if (base->shape != extra->shape && !base->field(QStringView(extra->shape->key(i))))
            missing.append(i);
    }
    if (missing.isEmpty())
        return incomingIsNewer ? incoming : existing;
    // Union: the stored field order, then the fields only the other one has.
    QList<QString> keys;
    NodeBuilder builder;
    builder.reserve(old->count + missing.size(), old->blobSize + now->blobSize);
    const Node *first = old;
    const Node *second = now;
    for (quint32 i = 0; i < first->count; ++i) {
        const QString &key = first->shape->key(i);
        keys.append(key);
        const Value *newer = incomingIsNewer ? second->field(QStringView(key)) : nullptr;
        if (newer)
            builder.append(*newer, second);
        else
            builder.append(first->at(i), first);
    }
    for (quint32 i = 0; i < second->count; ++i) {
        const QString &key = second->shape->key(i);
        if (first->field(QStringView(key)))
            continue;
        keys.append(key);
        builder.append(second->at(i), second);
    }
    const ShapeRef shape = Shape::intern(keys);
    return builder.finishObject(shape.get());
}

void StorePrivate::commit(WriteBatch &batch, const QString &resultKey, const Meta &meta,
                          ChangeSet &changes)
{
    MetaRef metaRef(new MetaBlock);
    metaRef->meta = meta;

    // Without optimistic layers the committed record is what shows: compare pointers only (the
    // new record exists before the old one can be released, so an address is not reused). The
    // batch is not used after a commit: its records move into the slots.
    const bool plain = layers.empty();
    // The entity tables whose entities stored collections follow (re-filtering, refilter.cpp).
    QList<quint32> followed;
    for (const auto &table : collectionTables) {
        if (!table->slots.empty() && (!table->type || table->type->followsChanges())
            && !followed.contains(table->itemTable))
            followed.append(table->itemTable);
    }
    std::vector<ChangedEntity> changedEntities;
    for (EntityWrite &write : batch.entities) {
        EntityTable &table = *entityTables[write.table];
        EntitySlot &slot = table.slots[write.slot];
        const NodeRef shownBefore = plain ? NodeRef() : NodeRef::share(table.effective(write.slot));
        const Node *before = slot.node.get();
        const NodeRef record = followed.contains(write.table) ? slot.node : NodeRef();
        const qint64 storedDate = slot.meta ? slot.meta->meta.date : 0;
        if (write.invalidate) {
            slot.node = {};
            slot.deleted = true;
            slot.meta = metaRef;
        } else if (!slot.node) {
            if (slot.deleted && storedDate > meta.date)
                continue; // deleted by a newer request: an older response cannot bring it back
            slot.node = std::move(write.node);
            slot.deleted = false;
            slot.meta = metaRef;
        } else {
            const bool newer = meta.date >= storedDate;
            NodeRef merged = mergeRecords(write.schema, slot.node, write.node, newer);
            if (merged.get() != slot.node.get() && !nodesEqual(merged.get(), slot.node.get()))
                slot.node = std::move(merged);
            if (newer)
                slot.meta = metaRef;
        }
        if (before == slot.node.get())
            continue;
        if (record && slot.node)
            changedEntities.push_back(ChangedEntity {write.table, write.slot, record});
        if (plain) {
            entityChanged(write.table, write.slot, changes);
            continue;
        }
        recomputeEntityOverride(write.table, write.slot, changes);
        if (shownBefore.get() != table.effective(write.slot))
            entityChanged(write.table, write.slot, changes);
    }

    if (!changedEntities.empty())
        refilterCommitted(changedEntities, metaRef, changes);

    for (const CollectionWrite &write : batch.collections) {
        CollectionTable &table = *collectionTables[write.table];
        const auto apply = [&](quint32 index) {
            CollectionSlot &collection = table.slots[index];
            if (write.slot >= 0 && collection.exists && collection.meta
                && collection.meta->meta.date > meta.date
                && SchemaPrivate::get(write.collection)->mode == Schema::CollectionMode::Replace)
                return; // the race rule, for whole lists
            bool exists = collection.exists;
            QList<quint32> items = collection.items;
            if (!applyCollectionWrite(table, write, collection, &exists, &items))
                return;
            const std::optional<QList<quint32>> shownBefore = effectiveItems(table, index);
            collection.exists = exists;
            collection.items = std::move(items);
            collection.meta = metaRef;
            if (!layers.empty())
                recomputeCollectionOverride(table.id, index, changes);
            if (shownBefore != effectiveItems(table, index))
                collectionChanged(table.id, index, changes);
        };
        if (write.slot >= 0) {
            apply(quint32(write.slot));
            if (!SchemaPrivate::get(write.collection)->filter)
                continue;
        }
        for (quint32 index = 0; index < table.slots.size(); ++index) {
            if (qint64(index) != write.slot && table.slots[index].exists)
                apply(index);
        }
    }

    if (batch.result && !resultKey.isEmpty()) {
        ResultSlot &result = results[resultKey];
        if (!result.holder || meta.date >= result.meta.date) {
            const bool same = result.holder && nodesEqual(result.holder.get(), batch.result.get());
            if (!same)
                result.holder = batch.result;
            result.meta = meta;
            if (!same && !resultOverrides.contains(resultKey))
                resultChanged(resultKey, changes);
        }
    }
}

bool StorePrivate::applyCollectionWrite(const CollectionTable &table, const CollectionWrite &write,
                                        const CollectionSlot &collection, bool *exists,
                                        QList<quint32> *items)
{
    const SchemaPrivate *c = SchemaPrivate::get(write.collection);
    const bool isTarget
        = write.slot >= 0 && quint32(write.slot) == quint32(&collection - table.slots.data());
    switch (c->mode) {
    case Schema::CollectionMode::Replace:
        if (!isTarget || (*exists && *items == write.items))
            return false;
        *items = write.items;
        *exists = true;
        return true;
    case Schema::CollectionMode::AddWith: {
        if (!isTarget && !(c->filter && c->filter(collection.args, write.args, QJsonObject())))
            return false;
        QList<quint32> merged;
        if (c->appendUnique || !c->merge) {
            merged = *items;
            for (quint32 slot : write.items) {
                if (!merged.contains(slot))
                    merged.append(slot);
            }
        } else {
            const EntityTable &itemTable = *entityTables[table.itemTable];
            QStringList existingPks, incomingPks;
            for (quint32 slot : std::as_const(*items))
                existingPks.append(itemTable.slots[slot].pk.toString());
            for (quint32 slot : write.items)
                incomingPks.append(itemTable.slots[slot].pk.toString());
            const QStringList result = c->merge(existingPks, incomingPks);
            EntityTable &mutableItems = *entityTables[table.itemTable];
            for (const QString &pk : result)
                merged.append(mutableItems.findOrAdd(pk));
        }
        if (*exists && merged == *items)
            return false;
        *items = merged;
        *exists = true;
        return true;
    }
    case Schema::CollectionMode::Move: {
        if (!*exists)
            return false; // never create a collection that is not stored
        // Re-filtering from the lists the call's arguments name to those the answer fits, also
        // for a collection that does not follow changes by itself.
        QJsonObject named;
        for (auto it = write.args.cbegin(); it != write.args.cend(); ++it)
            named.insert(it.key(), QJsonValue::fromVariant(it.value()));
        const EntityTable &rows = *entityTables[table.itemTable];
        const RecordOf shown = [&](quint32 row) { return rows.effective(row); };
        bool moved = false;
        for (qsizetype i = 0; i < write.items.size(); ++i) {
            moved = refilterItems(table, collection.args, write.items.at(i), named,
                                  objectJson(write.itemNodes.at(i).get()), shown, items)
                || moved;
        }
        return moved;
    }
    case Schema::CollectionMode::Push:
    case Schema::CollectionMode::Unshift:
    case Schema::CollectionMode::Remove: {
        if (!*exists)
            return false; // a push or unshift never creates a collection that is not stored
        const Collection &type = *c->collectionType;
        QList<quint32> joining;
        for (qsizetype i = 0; i < write.items.size(); ++i) {
            const QJsonObject item = objectJson(write.itemNodes.at(i).get());
            const bool matches = c->filter ? c->filter(collection.args, write.args, item)
                                           : type.matches(collection.args, write.args, item);
            if (matches)
                joining.append(write.items.at(i));
        }
        if (joining.isEmpty())
            return false;
        QList<quint32> result;
        if (c->mode == Schema::CollectionMode::Remove) {
            result = *items;
            result.removeIf([&](quint32 slot) { return joining.contains(slot); });
        } else {
            QList<quint32> added;
            for (quint32 slot : std::as_const(joining)) {
                if (!items->contains(slot) && !added.contains(slot))
                    added.append(slot);
            }
            if (added.isEmpty())
                return false;
            result = c->mode == Schema::CollectionMode::Push ? *items + added : added + *items;
        }
        if (result == *items)
            return false;
        *items = std::move(result);
        return true;
    }
    }
    return false;
}

} // namespace DataClient

namespace DataClient {
std::optional<QList<quint32>> StorePrivate::effectiveItems(const CollectionTable &table,
                                                           quint32 slot)
{
    const QList<quint32> *items = table.effective(slot);
    return items ? std::optional<QList<quint32>>(*items) : std::nullopt;
}
} // namespace DataClient
