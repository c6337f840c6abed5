// Store: the public face of StorePrivate (tables: tables_p.h, writes: commit.cpp and layers.cpp,
// reads: denormalizer.cpp, memo: memo.cpp).
#include "storeprivate_p.h"

#include <DataClient/private/compactjson_p.h>
#include <DataClient/private/storelayers_p.h>
#include "logging_p.h"

#include <QtCore/QDateTime>

namespace DataClient {

using namespace detail;

Store::Store() : d(new StorePrivate) { }
Store::~Store()
{
    d->clearMemo(); // views reference tables: drop them first
}

StoreWrite Store::setResponse(const QString &resultKey, const Schema &schema, const Params &args,
                              const QJsonValue &value, const Meta &meta)
{
    return setResponse(resultKey, schema, args, CompactJson::fromJsonValue(value), meta);
}

StoreWrite Store::setResponse(const QString &resultKey, const Schema &schema, const Params &args,
                              const CompactJson &value, const Meta &meta)
{
    // An undefined value (no body) normalizes like null; the CompactJson keeps the tree alive.
    const CompactJson json
        = value.isUndefined() ? CompactJson::fromJsonValue(QJsonValue(QJsonValue::Null)) : value;
    const Node *holder = CompactJsonAccess::holder(json);
    StoreWrite outcome = d->write(std::nullopt, resultKey, schema, args, holder, meta);
    if (outcome.error)
        qCDebug(lcStore) << "setResponse" << resultKey << "rejected:" << outcome.error->message();
    return outcome;
}

StoreWrite StoreLayers::setOptimisticResponse(Store &store, quint64 layerId,
                                              const QString &resultKey, const Schema &schema,
                                              const Params &args, const QJsonValue &value,
                                              const Meta &meta)
{
    const auto &d = store.d;
    const CompactJson json = CompactJson::fromJsonValue(value);
    return d->write(layerId, resultKey, schema, args, CompactJsonAccess::holder(json), meta);
}

PreparedWrite::PreparedWrite() = default;
PreparedWrite::PreparedWrite(PreparedWrite &&other) noexcept = default;
PreparedWrite &PreparedWrite::operator=(PreparedWrite &&other) noexcept = default;
PreparedWrite::~PreparedWrite() = default;

PreparedWrite StoreLayers::prepare(const Schema &schema, const Params &args,
                                   const CompactJson &value)
{
    PreparedWrite prepared;
    const CompactJson null = CompactJson::fromJsonValue(QJsonValue(QJsonValue::Null));
    const Node *holder = CompactJsonAccess::holder(value.isUndefined() ? null : value);
    prepared.m_batch = StorePrivate::prepare(schema, args, holder, &prepared.m_error);
    return prepared;
}

PreparedWrite StoreLayers::prepare(const Schema &schema, const Params &args,
                                   const QJsonValue &value)
{
    return prepare(schema, args, CompactJson::fromJsonValue(value));
}

StoreWrite StoreLayers::commit(Store &store, const QString &resultKey, PreparedWrite &&write,
                               const Meta &meta)
{
    const auto &d = store.d;
    const PreparedWrite taken = std::move(write);
    if (!taken.m_batch) {
        StoreWrite outcome;
        outcome.error = taken.m_error;
        return outcome;
    }
    return d->commitPrepared(std::nullopt, resultKey, taken.m_batch, meta);
}

StoreWrite StoreLayers::commitOptimistic(Store &store, quint64 layerId, const QString &resultKey,
                                         PreparedWrite &&write, const Meta &meta)
{
    const auto &d = store.d;
    const PreparedWrite taken = std::move(write);
    if (!taken.m_batch) {
        StoreWrite outcome;
        outcome.error = taken.m_error;
        return outcome;
    }
    return d->commitPrepared(layerId, resultKey, taken.m_batch, meta);
}

ChangeSet StoreLayers::removeOptimistic(Store &store, quint64 layerId)
{
    const auto &d = store.d;
    ChangeSet changes;
    const auto it = d->layers.find(layerId);
    if (it == d->layers.end())
        return changes;
    const std::vector<StorePrivate::LayerBatch> removed = std::move(it->second);
    d->layers.erase(it);
    for (const StorePrivate::LayerBatch &layer : removed)
        d->recomputeLayersFor(*layer.batch, layer.resultKey, changes);
    return changes;
}

ChangeSet StoreLayers::redateOptimistic(Store &store, quint64 layerId, qint64 date)
{
    const auto &d = store.d;
    ChangeSet changes;
    const auto it = d->layers.find(layerId);
    if (it == d->layers.end())
        return changes;
    for (StorePrivate::LayerBatch &layer : it->second) {
        layer.meta.date = date;
        d->recomputeLayersFor(*layer.batch, layer.resultKey, changes);
    }
    return changes;
}

QList<quint64> Store::optimisticLayers() const
{
    QList<quint64> ids;
    for (const auto &[id, batches] : d->layers)
        ids.append(id);
    return ids;
}

Denormalized Store::denormalize(const QString &resultKey, const Schema &schema, const Params &args)
{
    Q_UNUSED(args); // results hold normalized references; arguments identified them when written
    return d->readResult(resultKey, schema);
}

Denormalized Store::query(const Schema &schema, const Params &args)
{
    return d->query(schema, args);
}

ChangeSet Store::invalidateResult(const QString &resultKey)
{
    ChangeSet changes;
    const bool had = d->results.remove(resultKey) > 0;
    const bool hadOverride = d->resultOverrides.remove(resultKey) > 0;
    d->retireResultView(resultKey);
    if (had || hadOverride)
        changes.results.insert(resultKey);
    return changes;
}

ChangeSet Store::removeEntity(const EntityRef &ref)
{
    ChangeSet changes;
    StorePrivate::EntityTable *table = d->findEntityTable(ref.key);
    const qint64 slot = table ? table->find(ref.pk) : -1;
    if (slot < 0)
        return changes;
    const NodeRef shownBefore = NodeRef::share(table->effective(quint32(slot)));
    table->slots[slot].node = {};
    table->slots[slot].deleted = false;
    if (!d->layers.empty())
        d->recomputeEntityOverride(table->id, quint32(slot), changes);
    if (shownBefore.get() != table->effective(quint32(slot)))
        d->entityChanged(table->id, quint32(slot), changes);
    return changes;
}

ChangeSet Store::reset()
{
    ChangeSet changes;
    for (auto it = d->results.cbegin(); it != d->results.cend(); ++it)
        changes.results.insert(it.key());
    for (auto it = d->resultOverrides.cbegin(); it != d->resultOverrides.cend(); ++it)
        changes.results.insert(it.key());
    for (const auto &table : d->entityTables) {
        for (quint32 slot = 0; slot < table->slots.size(); ++slot) {
            if (table->effective(slot))
                EntityRefSetAccess::add(changes.entities, table->key, table->slots[slot].pk);
        }
    }
    for (const auto &table : d->collectionTables) {
        for (quint32 slot = 0; slot < table->slots.size(); ++slot) {
            if (table->effective(slot))
                changes.entities.insert(EntityRef {table->key, table->slots[slot].argsKey});
        }
    }
    d->clearMemo();
    d->layers.clear();
    d->results.clear();
    d->resultOverrides.clear();
    d->collectionTables.clear();
    d->collectionTableIds.clear();
    d->entityTables.clear();
    d->entityTableIds.clear();
    d->resetAt = QDateTime::currentMSecsSinceEpoch();
    return changes;
}

qint64 Store::resetAt() const
{
    return d->resetAt;
}

bool Store::hasResult(const QString &resultKey) const
{
    return d->effectiveResult(resultKey) != nullptr;
}

Meta Store::resultMeta(const QString &resultKey) const
{
    return d->results.value(resultKey).meta;
}

void Store::setResultMeta(const QString &resultKey, const Meta &meta)
{
    const auto it = d->results.find(resultKey);
    if (it != d->results.end())
        it->meta = meta;
}

QStringList Store::resultKeys() const
{
    QStringList keys = d->results.keys();
    for (auto it = d->resultOverrides.cbegin(); it != d->resultOverrides.cend(); ++it) {
        if (!d->results.contains(it.key()))
            keys.append(it.key());
    }
    keys.sort();
    return keys;
}

std::optional<QJsonObject> Store::entity(const EntityRef &ref) const
{
    const StorePrivate::EntityTable *table = d->findEntityTable(ref.key);
    const qint64 slot = table ? table->find(ref.pk) : -1;
    if (slot < 0 || !table->slots[slot].node)
        return std::nullopt;
    Value object;
    object.type = ValueType::Object;
    object.node = const_cast<Node *>(table->slots[slot].node.get());
    return toJsonValue(object, nullptr, d->refRenderer()).toObject();
}

Meta Store::entityMeta(const EntityRef &ref) const
{
    const StorePrivate::EntityTable *table = d->findEntityTable(ref.key);
    const qint64 slot = table ? table->find(ref.pk) : -1;
    if (slot < 0 || !table->slots[slot].meta)
        return {};
    return table->slots[slot].meta->meta;
}

qsizetype Store::entityCount(const QString &key) const
{
    qsizetype count = 0;
    for (const auto &table : d->entityTables) {
        if (key.isEmpty() || table->key == key)
            count += table->count();
    }
    return count;
}

} // namespace DataClient
