// The store's inspection reads (the store inspector): what entities exist, what each refers to,
// and what a result shows. Plain walks over the tables, for a tool a developer opens: they are
// not memoized and not on any path a view reads through.
#include "storeprivate_p.h"

#include <DataClient/private/node_p.h>

#include <QtCore/QSet>

namespace DataClient {

using detail::Node;
using detail::Value;
using detail::ValueType;

namespace {

//! Collects the entity refs reachable from one value without crossing into another entity.
class RefCollector
{
public:
    explicit RefCollector(const StorePrivate &store) : m_store(store) { }

    void visit(const Value &value)
    {
        switch (value.type) {
        case ValueType::Object:
        case ValueType::Array:
            if (value.node) {
                for (quint32 i = 0; i < value.node->count; ++i)
                    visit(value.node->at(i));
            }
            break;
        case ValueType::EntityRef:
            addEntity(value.ref.table, value.ref.slot);
            break;
        case ValueType::CollectionRef: {
            const auto &table = *m_store.collectionTables[value.ref.table];
            if (const QList<quint32> *items = table.effective(value.ref.slot)) {
                for (quint32 slot : *items)
                    addEntity(table.itemTable, slot);
            }
            break;
        }
        default:
            break;
        }
    }
    QList<EntityRef> refs;

private:
    void addEntity(quint32 table, quint32 slot)
    {
        const auto &entities = *m_store.entityTables[table];
        EntityRef ref {entities.key, entities.slots[slot].pk.toString()};
        if (!m_seen.contains(ref)) {
            m_seen.insert(ref);
            refs.append(ref);
        }
    }
    const StorePrivate &m_store;
    QSet<EntityRef> m_seen;
};

} // namespace

QStringList Store::entityKeys() const
{
    QStringList keys;
    for (const auto &table : d->entityTables)
        keys.append(table->key);
    keys.sort();
    return keys;
}

QStringList Store::entityPks(const QString &key) const
{
    QStringList pks;
    const StorePrivate::EntityTable *table = d->findEntityTable(key);
    if (!table)
        return pks;
    for (quint32 slot = 0; slot < quint32(table->slots.size()); ++slot) {
        if (table->effective(slot))
            pks.append(table->slots[slot].pk.toString());
    }
    return pks;
}

std::optional<QJsonObject> Store::shownEntity(const EntityRef &ref) const
{
    const StorePrivate::EntityTable *table = d->findEntityTable(ref.key);
    const qint64 slot = table ? table->find(ref.pk) : -1;
    const Node *node = slot >= 0 ? table->effective(quint32(slot)) : nullptr;
    if (!node)
        return std::nullopt;
    Value object;
    object.type = ValueType::Object;
    object.node = const_cast<Node *>(node);
    return detail::toJsonValue(object, nullptr, d->refRenderer()).toObject();
}

bool Store::isOptimistic(const EntityRef &ref) const
{
    const StorePrivate::EntityTable *table = d->findEntityTable(ref.key);
    const qint64 slot = table ? table->find(ref.pk) : -1;
    return slot >= 0 && table->overrides.contains(quint32(slot));
}

QList<EntityRef> Store::references(const EntityRef &ref) const
{
    const StorePrivate::EntityTable *table = d->findEntityTable(ref.key);
    const qint64 slot = table ? table->find(ref.pk) : -1;
    const Node *node = slot >= 0 ? table->effective(quint32(slot)) : nullptr;
    if (!node)
        return {};
    RefCollector collector(*d);
    for (quint32 i = 0; i < node->count; ++i)
        collector.visit(node->at(i));
    return collector.refs;
}

QList<EntityRef> Store::resultEntities(const QString &resultKey) const
{
    const Node *holder = d->effectiveResult(resultKey);
    if (!holder || holder->count == 0)
        return {};
    RefCollector collector(*d);
    collector.visit(holder->at(0));
    return collector.refs;
}

} // namespace DataClient
