// StoreSnapshot: taking the committed tables (GUI thread, no serialization) and restoring decoded
// ones into an empty store (storesnapshot_p.h).
#include "storeprivate_p.h"

#include <DataClient/private/storesnapshot_p.h>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

//! A pk that no server sends (a control character first) for the slots of an omitted table and
//! released slots.
QString placeholderPk(size_t slot)
{
    return u"\u0001"_s + QString::number(slot);
}

} // namespace

StoreSnapshot StoreSnapshot::take(const Store &store, const SnapshotFilter &filter)
{
    const StorePrivate &d = *store.d;
    StoreSnapshot snapshot;
    snapshot.entityTables.reserve(d.entityTables.size());
    for (const auto &table : d.entityTables) {
        SnapshotEntityTable &out = snapshot.entityTables.emplace_back();
        out.key = table->key;
        out.omitted = filter.entityKeys.contains(table->key);
        out.slots.resize(table->slots.size());
        for (size_t s = 0; s < table->slots.size(); ++s) {
            const EntitySlot &slot = table->slots[s];
            SnapshotEntity &entity = out.slots[s];
            // A released slot has no pk: it is kept as a placeholder so that the slot numbers
            // references name stay the same (the restored store releases it again).
            if (out.omitted || slot.released) {
                entity.pk = placeholderPk(s);
                continue;
            }
            entity.pk = slot.pk.toString();
            entity.node = slot.node;
            entity.deleted = slot.deleted;
            if (slot.meta)
                entity.meta = slot.meta->meta;
        }
    }
    snapshot.collectionTables.reserve(d.collectionTables.size());
    for (const auto &table : d.collectionTables) {
        SnapshotCollectionTable &out = snapshot.collectionTables.emplace_back();
        out.key = table->key;
        out.itemTable = table->itemTable;
        const bool omitted = filter.entityKeys.contains(d.entityTables[table->itemTable]->key);
        out.slots.reserve(table->slots.size());
        for (const CollectionSlot &slot : table->slots) {
            SnapshotCollection &collection = out.slots.emplace_back();
            collection.argsKey = slot.argsKey;
            collection.args = slot.args;
            if (omitted)
                continue; // an empty, absent list: its items are not kept
            collection.items = slot.items;
            collection.exists = slot.exists;
            if (slot.meta)
                collection.meta = slot.meta->meta;
        }
    }
    snapshot.results.reserve(d.results.size());
    for (auto it = d.results.cbegin(); it != d.results.cend(); ++it) {
        if (!it->holder || filter.resultKeys.contains(it.key()))
            continue;
        snapshot.results.push_back(SnapshotResult {it.key(), it->holder, it->meta});
    }
    return snapshot;
}

namespace {

struct RefCheck
{
    const StoreSnapshot &snapshot;

    //! Whether \a ref's (table, slot) is one of \a tables'.
    template<typename Tables> static bool names(const Tables &tables, const Value &ref)
    {
        return ref.ref.table < tables.size() && ref.ref.slot < tables[ref.ref.table].slots.size();
    }

    QString node(const Node *node, int depth) const
    {
        if (depth > 1000)
            return u"nesting deeper than 1000"_s;
        for (quint32 i = 0; i < node->count; ++i) {
            const Value &value = node->at(i);
            if (value.type == ValueType::Object || value.type == ValueType::Array) {
                if (const QString why = this->node(value.node, depth + 1); !why.isEmpty())
                    return why;
            } else if (value.isRef()) {
                const bool entity = value.type == ValueType::EntityRef;
                if (entity ? !names(snapshot.entityTables, value)
                           : !names(snapshot.collectionTables, value))
                    return u"a reference to %1 slot %2 of table %3, which does not exist"_s
                        .arg(entity ? u"entity"_s : u"list"_s)
                        .arg(value.ref.slot)
                        .arg(value.ref.table);
            }
        }
        return {};
    }
};

} // namespace

QString StoreSnapshot::check() const
{
    const RefCheck refs {*this};
    QSet<QString> names;
    for (const SnapshotEntityTable &table : entityTables) {
        if (names.contains(table.key))
            return u"entity key %1 twice"_s.arg(table.key);
        names.insert(table.key);
        // A pk twice is found by restoreInto(), which hashes every pk anyway.
        for (const SnapshotEntity &entity : table.slots) {
            if (!entity.node)
                continue;
            if (entity.node->isArray || !entity.node->shape)
                return u"a record of %1 that is not an object"_s.arg(table.key);
            if (const QString why = refs.node(entity.node.get(), 0); !why.isEmpty())
                return why;
        }
    }
    names.clear();
    for (const SnapshotCollectionTable &table : collectionTables) {
        if (names.contains(table.key))
            return u"list key %1 twice"_s.arg(table.key);
        names.insert(table.key);
        if (table.itemTable >= entityTables.size())
            return u"list %1 of entity table %2, which does not exist"_s.arg(table.key).arg(
                table.itemTable);
        const size_t itemSlots = entityTables[table.itemTable].slots.size();
        QSet<QString> argsKeys;
        for (const SnapshotCollection &collection : table.slots) {
            if (argsKeys.contains(collection.argsKey))
                return u"arguments %1 twice in list %2"_s.arg(collection.argsKey, table.key);
            argsKeys.insert(collection.argsKey);
            for (const quint32 item : collection.items) {
                if (item >= itemSlots)
                    return u"an item of list %1 naming entity slot %2, which does not exist"_s
                        .arg(table.key)
                        .arg(item);
            }
        }
    }
    names.clear();
    for (const SnapshotResult &result : results) {
        if (names.contains(result.key))
            return u"result %1 twice"_s.arg(result.key);
        names.insert(result.key);
        if (!result.holder || !result.holder->isArray || result.holder->count != 1)
            return u"result %1 is not a one-element holder"_s.arg(result.key);
        if (const QString why = refs.node(result.holder.get(), 0); !why.isEmpty())
            return why;
    }
    return {};
}

bool StoreSnapshot::restoreInto(Store &store, QString *why) const
{
    StorePrivate &d = *store.d;
    const auto refuse = [why](const QString &reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (!d.entityTables.empty() || !d.collectionTables.empty() || !d.results.isEmpty()
        || !d.layers.empty())
        return refuse(u"the store holds data"_s);
    for (const SnapshotEntityTable &table : entityTables) {
        if (table.slots.size() > EntityTable::capacity())
            return refuse(u"more entities of %1 than a table holds"_s.arg(table.key));
    }
    // The store was empty: emptying its tables again undoes a restore that stopped half-way.
    const auto undo = [&d] {
        d.entityTables.clear();
        d.entityTableIds.clear();
    };
    d.clearMemo();
    // One MetaBlock per run of equal metas: what one write gave its 10k entities stays shared.
    MetaRef shared;
    const auto metaRef = [&shared](const Meta &meta) {
        if (!shared || shared->meta != meta) {
            shared = MetaRef(new MetaBlock);
            shared->meta = meta;
        }
        return shared;
    };
    for (const SnapshotEntityTable &in : entityTables) {
        EntityTable &table = d.entityTable(in.key);
        table.reserve(in.slots.size());
        for (const SnapshotEntity &entity : in.slots) {
            const size_t expected = table.slots.size();
            if (table.findOrAdd(entity.pk) != expected) {
                undo();
                return refuse(u"pk %1 twice in %2"_s.arg(entity.pk, in.key));
            }
            EntitySlot &slot = table.slots[expected];
            slot.node = entity.node;
            slot.deleted = entity.deleted;
            if (entity.node || entity.deleted)
                slot.meta = metaRef(entity.meta);
        }
    }
    for (const SnapshotCollectionTable &in : collectionTables) {
        CollectionTable &table = d.collectionTable(in.key, in.itemTable);
        for (const SnapshotCollection &collection : in.slots) {
            CollectionSlot &slot
                = table.slots[table.findOrAdd(collection.argsKey, collection.args)];
            slot.items = collection.items;
            slot.exists = collection.exists;
            if (collection.exists)
                slot.meta = metaRef(collection.meta);
        }
    }
    d.results.reserve(qsizetype(results.size()));
    for (const SnapshotResult &result : results)
        d.results.insert(result.key, ResultSlot {result.holder, result.meta});
    return true;
}

qsizetype StoreSnapshot::entityCount() const
{
    qsizetype n = 0;
    for (const SnapshotEntityTable &table : entityTables) {
        for (const SnapshotEntity &entity : table.slots)
            n += entity.node ? 1 : 0;
    }
    return n;
}

} // namespace DataClient::detail
