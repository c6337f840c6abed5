// Normalizing collections (push, unshift, remove, pages, nested lists) and Invalidate.
#include "normalizer_p.h"

#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/schema_p.h>

#include <QtCore/QJsonObject>

#include <atomic>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {
// Reading ahead pays once a list's pk index is well past the L2 cache (1 MB per core here):
// measured (docs/performance.md): at 100k todos (a 1 MB index) it cost a tenth,
// at 1M (8 MB) it saved a third.
constexpr size_t RealReadAheadFrom = 2 * 1024 * 1024;
std::atomic<size_t> s_readAheadFrom {RealReadAheadFrom}; // lowered by tests
std::atomic<quint64> s_readAheadStarts {0}; // lists that started reading ahead part way

// What one entity of a nested table (an author) adds to the bytes a list reads at random before
// it reads ahead: each repeat reads its index entry, its slot (40 bytes), its staged write and
// the record it is compared with (about 200 bytes for an author with an address). A list of 100k todos with
// 10k authors has an index under the threshold but 2.5 MB of those: read ahead, it took 29 ms
// instead of 38–44 (docs/performance.md).
constexpr size_t NestedEntityBytes = 256;

//! Where a list under the threshold checks whether its nested entities took it past: items 1,
//! 2, 4, ... 512, then every 1024 (a few cheap sums, early enough for a list of 100k).
bool isReadAheadCheckpoint(quint32 item)
{
    return item != 0 && ((item & (item - 1)) == 0 || (item & 1023) == 0);
}

//! prefetchNode() for the node \a value holds, if any.
void prefetchLines(const Value &value, int lines)
{
    if (value.isObject() || value.isArray())
        prefetchNode(value.node, lines);
}
//! The same for the objects and lists \a value holds (an author, its address: small nodes).
void prefetchChildren(const Value &value)
{
    if (!value.isObject())
        return;
    for (quint32 i = 0; i < value.node->count; ++i)
        prefetchLines(value.node->at(i), 2);
}
} // namespace

void setReadAheadFromForTesting(size_t indexBytes)
{
    s_readAheadFrom.store(indexBytes ? indexBytes : RealReadAheadFrom, std::memory_order_relaxed);
}

quint64 readAheadStartsForTesting()
{
    return s_readAheadStarts.load(std::memory_order_relaxed);
}

size_t Normalizer::randomReadBytes(const EntityTable &itemTable) const
{
    size_t bytes = itemTable.indexBytes();
    for (const auto &table : m_batch.local.entities) {
        if (table.get() != &itemTable)
            bytes += table->slots.size() * NestedEntityBytes;
    }
    return bytes;
}

void Normalizer::startReadingAhead(const EntityTable &itemTable)
{
    s_readAheadStarts.fetch_add(1, std::memory_order_relaxed);
    m_readAhead = true;
    // The records staged so far are noted as if read ahead from the start, so that repeats of
    // the authors met before now are recognised by fingerprint too (keptRecord() reads the same
    // records).
    for (quint32 table = 0; table < m_batch.staged.size(); ++table) {
        if (table == itemTable.id || (table < m_kept.size() && !m_kept[table].empty()))
            continue;
        if (m_kept.size() <= table)
            m_kept.resize(table + 1);
        std::vector<Kept> &kept = m_kept[table];
        kept.resize(m_batch.staged[table].size());
        for (quint32 slot = 0; slot < kept.size(); ++slot)
            kept[slot].record = stagedRecord(table, slot);
    }
}

void Normalizer::visitCollection(const Value &value, const Node *owner, const Schema &schema,
                                 const Path &path, const Parent &parent, int depth,
                                 NodeBuilder &out)
{
    const SchemaPrivate *c = SchemaPrivate::get(schema);
    const EntitySchema &item = c->entity;
    if (item.isNull())
        fail(schema.key(), path, u"a Collection of an Entity schema"_s, u"another schema"_s);
    const Schema::CollectionMode mode = c->mode;
    EntityTable &itemTable = m_batch.local.entityTable(item.key());
    const quint32 table = m_batch.local.collectionTable(schema.key(), itemTable.id);

    CollectionWrite write;
    write.table = table;
    write.collection = schema;
    const bool addsToStored = mode == Schema::CollectionMode::Push
        || mode == Schema::CollectionMode::Unshift || mode == Schema::CollectionMode::Remove
        || mode == Schema::CollectionMode::Move;
    if (addsToStored) {
        // The response is the created (or removed) entity, or a list of them.
        write.args = m_args;
        if (value.isObject()) {
            NodeRef record;
            write.items.append(entity(value, owner, item, path, parent, depth + 1, &record).second);
            write.itemNodes.append(record);
            out.appendValue(
                Value::makeRef(ValueType::EntityRef, itemTable.id, write.items.last(), true));
        } else if (value.isArray()) {
            NodeBuilder refs;
            for (quint32 i = 0; i < value.node->count; ++i) {
                const Path at {&path, {}, qsizetype(i)};
                NodeRef record;
                write.items.append(
                    entity(value.node->at(i), value.node, item, at, parent, depth + 1, &record)
                        .second);
                write.itemNodes.append(record);
                refs.appendValue(
                    Value::makeRef(ValueType::EntityRef, itemTable.id, write.items.last(), true));
            }
            out.appendNode(refs.finishArray());
        } else {
            fail(item.key(), path, u"the created entity (an object) or a list of them"_s,
                 describe(value, owner));
        }
        m_batch.collections.push_back(std::move(write));
        return;
    }

    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    if (!value.isArray())
        fail(schema.key(), path, u"an array"_s, describe(value, owner));
    // Identity: the call's arguments, or for a collection nested in an entity, its parent.
    write.args = parent.node ? c->collectionType->nestedArguments(
                     parent.entity->key(), parent.pk.toString(), objectJson(parent.node))
                             : m_args;
    const QString argsKey = Collection::argumentsKey(write.args);
    const Node *array = value.node;
    write.items.reserve(array->count);
    itemTable.reserve(array->count);
    m_batch.entities.reserve(m_batch.entities.size() + array->count);
    // An index past the caches (a list of more than 131 072 entities): every new pk's probe
    // would wait for memory, so the entries of the item a few places ahead are asked for
    // first. Smaller lists skip this: there, reading each pk twice costs more than it saves,
    // unless their nested entities (many distinct authors) take them past the caches: that is
    // checked at items 1, 2, 4, ... 512 and then every 1024.
    // Finding an item's pk reads its parsed node and its author's, which in a list of 1M are
    // not in the caches either (perf: the read-ahead waited on them), so those are asked for
    // in two steps before: the item's node 3 * Ahead items ahead, the nodes it holds 2 * Ahead.
    constexpr quint32 Ahead = 8;
    const size_t readAheadFrom = s_readAheadFrom.load(std::memory_order_relaxed);
    bool prefetch = itemTable.indexBytes() >= readAheadFrom;
    const bool readingAhead = std::exchange(m_readAhead, m_readAhead || prefetch);
    for (quint32 i = 0; i < array->count; ++i) {
        if (!prefetch && isReadAheadCheckpoint(i) && randomReadBytes(itemTable) >= readAheadFrom) {
            prefetch = true;
            if (!m_readAhead)
                startReadingAhead(itemTable);
        }
        if (prefetch) {
            if (i + 3 * Ahead < array->count)
                prefetchLines(array->at(i + 3 * Ahead), 3);
            if (i + 2 * Ahead < array->count)
                prefetchChildren(array->at(i + 2 * Ahead));
            if (i + Ahead < array->count)
                prefetchSlot(array->at(i + Ahead), item, itemTable);
        }
        const Path at {&path, {}, qsizetype(i)};
        write.items.append(entity(array->at(i), array, item, at, parent, depth + 1).second);
    }
    m_readAhead = readingAhead;
    write.slot = m_batch.local.collectionSlot(table, argsKey, write.args);
    out.appendValue(Value::makeRef(ValueType::CollectionRef, table, quint32(write.slot), true));
    m_batch.collections.push_back(std::move(write));
}

void Normalizer::visitInvalidate(const Value &value, const Node *owner, const Schema &schema,
                                 const Path &path, NodeBuilder &out)
{
    const EntitySchema &entity = SchemaPrivate::get(schema)->entity;
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(entity);
    QString pk;
    if (value.isString() || value.isNumber()) {
        pk = pkOf(value, owner); // a bare pk string counts as the entity it names
    } else if (value.isObject() && s && !s->pkFunction) {
        // Read in place: a BigInteger pk keeps its digits (a QJsonObject would hold a double).
        const Value *field = value.node->field(QStringView(s->pkField));
        pk = field ? pkOf(*field, value.node) : QString();
    } else if (value.isObject()) {
        pk = entity.pk(toJsonValue(value, owner).toObject());
    }
    if (pk.isEmpty()) {
        fail(s ? s->key : QString(), path,
             u"the primary key (a string) or an object with the primary key field \"%1\""_s.arg(
                 s ? s->pkField : QString()),
             describe(value, owner));
    }
    EntityTable &table = m_batch.local.entityTable(s->key);
    const quint32 slot = slotFor(table, pk, path);
    stage(table, slot, {}, entity, true);
    out.appendValue(Value::makeRef(ValueType::EntityRef, table.id, slot, true));
}

} // namespace DataClient::detail
