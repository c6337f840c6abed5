// Normalizing one entity: its pk, deduplication within the write (a repeat recognised by its
// fingerprint while reading ahead) and staging its record in the write batch (the rest of the
// walk and the read plans: normalizer.cpp).
#include "normalizer_p.h"

#include <DataClient/private/deserializer_p.h>
#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/schema_p.h>
#include <DataClient/placeholderkey.h>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {
// The pk of a JSON value as text, without allocating for numbers and short strings. Inline:
// a call for each todo and each author saved and restored six registers (callgrind).
[[gnu::always_inline]] inline QStringView pkView(const Value &value, const Node *owner,
                                                 char16_t *buffer, qsizetype capacity,
                                                 QString *storage)
{
    if (value.type == ValueType::Integer) {
        const qint64 n = value.integer;
        quint64 u = n < 0 ? 0 - quint64(n) : quint64(n); // qint64's minimum too
        qsizetype at = capacity;
        // Two digits per division: every todo and every author has its pk made here, twice
        // while a long list is read ahead (callgrind: 9 % of s.normalize.100k's instructions).
        static constexpr char Pairs[] = "00010203040506070809101112131415161718192021222324"
                                        "25262728293031323334353637383940414243444546474849"
                                        "50515253545556575859606162636465666768697071727374"
                                        "75767778798081828384858687888990919293949596979899";
        while (u >= 10) {
            const unsigned pair = unsigned(u % 100) * 2;
            u /= 100;
            buffer[--at] = char16_t(Pairs[pair + 1]);
            buffer[--at] = char16_t(Pairs[pair]);
        }
        if (u > 0 || at == capacity)
            buffer[--at] = char16_t(u'0' + u);
        if (n < 0)
            buffer[--at] = u'-';
        return QStringView(buffer + at, capacity - at);
    } else if (value.inBlob() && !value.utf16 && value.string.length <= capacity) {
        // Latin-1 text: a string, or a BigInteger's digits
        const QLatin1StringView text = owner->latin1(value);
        for (qsizetype i = 0; i < text.size(); ++i)
            buffer[i] = char16_t(static_cast<unsigned char>(text.data()[i]));
        return QStringView(buffer, text.size());
    } else if (value.type == ValueType::String && value.utf16) {
        return owner->utf16(value);
    }
    *storage = pkOf(value, owner);
    return *storage;
}
} // namespace

void Normalizer::prefetchSlot(const Value &value, const EntitySchema &schema,
                              const EntityTable &table)
{
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(schema);
    if (!s || s->process || s->pkFunction || !value.isObject())
        return;
    const Plan &p = plan(schema, value.node->shape);
    if (p.pkIndex < 0)
        return;
    char16_t buffer[64];
    QString storage;
    table.prefetch(pkView(value.node->at(p.pkIndex), value.node, buffer, 64, &storage));
    for (const auto &[index, nestedSchema] : p.nested) {
        const Value &field = value.node->at(index);
        if (nestedSchema.kind() == Schema::Kind::Entity && field.isObject()) {
            const EntitySchema &nested = SchemaPrivate::get(nestedSchema)->entity;
            const Plan &nestedPlan = plan(nested, field.node->shape);
            // A leaf entity (an author) kept while reading ahead: a repeat is recognised by
            // its fingerprint, from 24 bytes per author that stay in the caches, so nothing is
            // asked for. Looking it up and asking for its record here cost the 1M list 8 % more
            // than it saved once the fingerprints came; asking for the nodes it holds (which
            // the fingerprint reads) made no difference (docs/performance.md).
            if (nestedPlan.nested.isEmpty() && nestedPlan.table->id < m_kept.size())
                continue;
            prefetchSlot(field, nested, *nestedPlan.table);
        }
    }
}

// Inline: a call for each author cost 30 instructions each (callgrind, todos-10k).
template<bool ReadingAhead>
[[gnu::always_inline]] inline std::pair<quint32, quint32>
Normalizer::keepLeaf(EntityTable &table, QStringView pk, const Node *object,
                     const EntitySchema &schema, const Path &path, NodeRef *record)
{
    // The same entity again in this response with the same fields (an author shared by many
    // todos) is a no-op.
    NodeFingerprint fingerprint;
    if constexpr (ReadingAhead) {
        // In a long list the authors' slots and records are out of the caches between two
        // repeats of one (docs/performance.md): a repeat is recognised by its bytes.
        fingerprint = nodeFingerprint(object);
        const qint64 repeat = keptRepeat(table, pk, object, fingerprint);
        if (repeat >= 0) {
            if (record)
                *record = NodeRef::share(m_kept[table.id][size_t(repeat)].record);
            return {table.id, quint32(repeat)};
        }
    }
    const quint32 slot = slotFor(table, pk, path);
    const Node *earlier = keptRecord(table.id, slot);
    if (earlier && nodesEqual(earlier, object)) {
        if (record)
            *record = NodeRef::share(earlier);
        if constexpr (ReadingAhead) // what is equal to this object is equal to the record
            noteFingerprint(table.id, slot, earlier, fingerprint);
        return {table.id, slot};
    }
    // Kept: copied out of the parse's arena (one author must not pin the whole answer).
    NodeRef shared = detached(object);
    const Node *copy = shared.get();
    if (record)
        *record = shared;
    if constexpr (ReadingAhead) {
        if (m_kept.size() <= table.id)
            m_kept.resize(table.id + 1);
        std::vector<Kept> &kept = m_kept[table.id];
        if (kept.size() <= slot)
            kept.resize(std::max<size_t>(table.slots.capacity(), slot + 1));
    }
    stage(table, slot, std::move(shared), schema, false);
    if constexpr (ReadingAhead) // a copy has the object's bytes (its child nodes copied alike)
        noteFingerprint(table.id, slot, copy, fingerprint);
    return {table.id, slot};
}

std::pair<quint32, quint32> Normalizer::entity(const Value &input, const Node *owner,
                                               const EntitySchema &schema, const Path &path,
                                               const Parent &parent, int depth, NodeRef *record)
{
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(schema);
    if (!s)
        fail(QString(), path, u"an entity schema"_s, u"a null EntitySchema"_s);
    if (Q_UNLIKELY(s->unionSpec))
        return unionItem(input, owner, schema, path, parent, depth, record);
    if (!input.isObject()) {
        fail(s->key, path,
             s->pkField.isEmpty() ? u"an object"_s
                                  : u"an object with a primary key field \"%1\""_s.arg(s->pkField),
             describe(input, owner));
    }
    const Node *object = input.node;
    NodeRef processedHolder;
    if (s->process) {
        const QJsonObject processed
            = s->process(objectJson(object),
                         parent.node ? QJsonValue(objectJson(parent.node)) : QJsonValue(), m_args);
        processedHolder = fromJsonValue(processed);
        refuseTooManyKeys(processedHolder.get(), s->key);
        object = processedHolder->at(0).node;
    }
    const Plan &p = plan(schema, object->shape);

    char16_t buffer[64];
    QString pkStorage;
    QStringView pk;
    if (s->pkFunction) {
        Value objectValue;
        objectValue.type = ValueType::Object;
        objectValue.node = const_cast<Node *>(object);
        const QJsonObject json = objectJson(object);
        refuseMissingPkFields(schema, json, path);
        pkStorage = s->pkFunction(json);
        pk = pkStorage;
        if (pk.isEmpty())
            fail(s->key, path, u"a non-empty primary key (from its pk function)"_s,
                 u"an empty one in "_s + describe(objectValue, nullptr));
    } else {
        const Value *field = p.pkIndex >= 0 ? &object->at(p.pkIndex) : nullptr;
        if (field)
            pk = pkView(*field, object, buffer, 64, &pkStorage);
        if (pk.isEmpty()) {
            const Path at {&path, s->pkField};
            fail(s->key, at, u"a non-empty primary key (a string or a number)"_s,
                 field ? describe(*field, object) : u"nothing"_s);
        }
    }
    // Placeholder keys are the library's own key space: refused from anyone else, so a server's
    // pk can never be mistaken for (or replace) a row still waiting for its create's answer.
    if (!m_layer && isPlaceholderKey(pk)) {
        fail(s->key, s->pkFunction ? path : Path {&path, s->pkField},
             u"a primary key that does not start with U+0001 (reserved for placeholder keys)"_s,
             u"\"%1\""_s.arg(pk.mid(1)));
    }

    if (s->validate) {
        // Before anything of the record is staged: a refusal leaves the store unchanged.
        const QString refused = s->validate(objectJson(object));
        if (!refused.isEmpty()) {
            const Value *field = object->field(QStringView(refused));
            fail(s->key, Path {&path, refused},
                 u"a value of \"%1\" that the entity's validate hook accepts"_s.arg(refused),
                 field ? describe(*field, object) : u"nothing"_s);
        }
    }
    for (const auto &[index, deserializer] : p.deserializers) {
        if (!accepts(deserializer, object->at(index), object)) {
            const Path at {&path, object->shape->key(index)};
            fail(s->key, at, deserializer.expected(), describe(object->at(index), object));
        }
    }

    EntityTable &table = *p.table;
    if (p.nested.isEmpty()) {
        // Nothing to replace: keep the server's object as is.
        return m_readAhead ? keepLeaf<true>(table, pk, object, schema, path, record)
                           : keepLeaf<false>(table, pk, object, schema, path, record);
    }

    // The record keeps references in place of the nested values: copy the object in one piece
    // (its strings stay where they are) and replace the nested fields in the copy.
    quint64 nulled = 0;
    for (const auto &nested : p.nested) {
        if (nested.first < 64)
            nulled |= quint64(1) << nested.first;
    }
    // Copied out of the parse's arena on the way: the fields kept as they came (an address
    // object, a list of tags) become heap copies, the nested ones are about to be replaced.
    NodeRef normalized = NodeRef::adopt(Node::copyOf(object, nulled, true));
    Node *copy = const_cast<Node *>(normalized.get()); // ours alone until staged
    const Parent here {object, &schema, pk};
    bool needsRebuild = false;
    bool visited = false; // a field replaced by what visit() made: may hold the input's nodes
    for (const auto &[index, nestedSchema] : p.nested) {
        const Path at {&path, object->shape->key(index)};
        const Value &field = object->at(index);
        if (nestedSchema.kind() == Schema::Kind::Entity) {
            // The common case (a nested entity), without the builder: a reference or null.
            if (depth + 1 > MaxNormalizeDepth)
                fail(nestedSchema.key(), at,
                     u"at most %1 levels of nesting"_s.arg(MaxNormalizeDepth), u"deeper nesting"_s);
            if (field.isNullish()) {
                copy->replaceWithRef(quint32(index), ValueType::Null, 0, 0, false);
                continue;
            }
            const auto [nestedTable, nestedSlot] = entity(
                field, object, SchemaPrivate::get(nestedSchema)->entity, at, here, depth + 1);
            copy->replaceWithRef(quint32(index), ValueType::EntityRef, nestedTable, nestedSlot,
                                 true);
            continue;
        }
        NodeBuilder &scratch = builderAt(depth);
        scratch.clear();
        visit(field, object, nestedSchema, at, here, depth + 1, scratch);
        const Value value = scratch.takeSingle();
        if (value.inBlob()) {
            needsRebuild = true; // a nested None schema kept a string: rebuild below
            break;
        }
        copy->replace(quint32(index), value);
        visited = true;
    }
    if (needsRebuild) {
        normalized = {};
        NodeBuilder builder;
        builder.reserve(object->count, object->blobSize);
        for (quint32 i = 0; i < object->count; ++i) {
            const auto nested = std::find_if(p.nested.cbegin(), p.nested.cend(),
                                             [&](const auto &n) { return n.first == int(i); });
            if (nested == p.nested.cend()) {
                builder.append(object->at(i), object);
                continue;
            }
            const Path at {&path, object->shape->key(i)};
            visit(object->at(i), object, nested->second, at, here, depth + 1, builder);
        }
        normalized = builder.finishObject(object->shape);
    }
    if (needsRebuild || visited) // ours alone until staged: copied out of the arena in place
        const_cast<Node *>(normalized.get())->detachChildren();

    const quint32 slot = slotFor(table, pk, path);
    if (record)
        *record = normalized;
    stage(table, slot, std::move(normalized), schema, false);
    return {table.id, slot};
}

const Node *Normalizer::keptRecord(quint32 table, quint32 slot) const
{
    if (table < m_kept.size() && slot < m_kept[table].size() && m_kept[table][slot].record)
        return m_kept[table][slot].record;
    return stagedRecord(table, slot);
}

qint64 Normalizer::keptRepeat(const EntityTable &table, QStringView pk, const Node *object,
                              const NodeFingerprint &fingerprint) const
{
    if (table.id >= m_kept.size())
        return -1;
    const std::vector<Kept> &kept = m_kept[table.id];
    // The likely slot is enough: the fingerprint covers the object's bytes, pk included (or
    // what a pk function reads), so another entity's record cannot match it.
    const qint64 slot = table.guess(pk);
    if (slot < 0 || size_t(slot) >= kept.size() || !kept[size_t(slot)].record
        || kept[size_t(slot)].fingerprint != fingerprint)
        return -1;
    Q_ASSERT(table.find(pk) == slot && nodesEqual(kept[size_t(slot)].record, object));
    return slot;
}

const Node *Normalizer::stagedRecord(quint32 table, quint32 slot) const
{
    const EntityWrite *write = stagedWrite(table, slot);
    return write && !write->invalidate ? write->node.get() : nullptr;
}

const EntityWrite *Normalizer::stagedWrite(quint32 table, quint32 slot) const
{
    if (m_batch.staged.size() <= table)
        return nullptr;
    const std::vector<quint32> &staged = m_batch.staged[table];
    if (staged.size() <= slot || staged[slot] == 0)
        return nullptr;
    return &m_batch.entities[staged[slot] - 1];
}

void Normalizer::stage(EntityTable &table, quint32 slot, NodeRef node, const EntitySchema &schema,
                       bool invalidate)
{
    if (m_batch.staged.size() <= table.id)
        m_batch.staged.resize(table.id + 1);
    std::vector<quint32> &staged = m_batch.staged[table.id];
    if (staged.size() <= slot) {
        // Sized like the table's capacity (a list's count, reserved): growing one by one
        // zero-filled a slot per entity and stalled the read just after (perf).
        staged.resize(std::max<size_t>(table.slots.capacity(), slot + 1), 0);
    }
    if (staged[slot] != 0) {
        // The same entity again in one response: the later occurrence merges over the earlier.
        EntityWrite &earlier = m_batch.entities[staged[slot] - 1];
        if (invalidate || earlier.invalidate) {
            earlier.node = std::move(node);
            earlier.invalidate = invalidate;
        } else if (!nodesEqual(earlier.node.get(), node.get())) {
            earlier.node = StorePrivate::mergeRecords(EntitySchemaPrivate::get(schema),
                                                      earlier.node, node, true);
        }
        noteKept(table.id, slot, earlier.invalidate ? nullptr : earlier.node.get());
        return;
    }
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(schema);
    if (m_lastKeptSchema != s) {
        if (!m_batch.schemas.contains(schema))
            m_batch.schemas.append(schema);
        m_lastKeptSchema = s;
    }
    noteKept(table.id, slot, invalidate ? nullptr : node.get());
    m_batch.entities.push_back(EntityWrite {table.id, slot, std::move(node), s, invalidate});
    staged[slot] = quint32(m_batch.entities.size());
}

} // namespace DataClient::detail
