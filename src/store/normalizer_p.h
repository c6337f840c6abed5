// Normalizer: walks a response with its Schema and stages entity, collection and result writes
// into a WriteBatch. Throws SchemaError on bad input; the store is not touched until commit.
#pragma once

#include <DataClient/private/entityschema_p.h>
#include <DataClient/schemaerror.h>

#include "storeprivate_p.h"

#include <QtCore/QVarLengthArray>

#include <memory>

namespace DataClient::detail {

//! Deeper schema nesting than this is an error (a hostile or broken payload).
constexpr int MaxNormalizeDepth = 256;

//! The pk index size (bytes) from which normalizing a list reads ahead
//! (Normalizer::visitCollection()); tests lower it to reach that path with short lists. 0: back
//! to the real one.
DATACLIENT_TEST_EXPORT void setReadAheadFromForTesting(size_t indexBytes);
//! How many lists started reading ahead part way (their nested entities grew past the caches).
DATACLIENT_TEST_EXPORT quint64 readAheadStartsForTesting();

//! Starts loading the first \a lines cache lines of \a node (its header, values and the start
//! of its blob), for the read-ahead of long lists.
inline void prefetchNode(const Node *node, int lines)
{
    const char *at = reinterpret_cast<const char *>(node);
    asm volatile("" : : "r"(at)); // kept by GCC 12 (see EntityTable::prefetch())
    for (int line = 0; line < lines; ++line)
        __builtin_prefetch(at + line * 64);
}

class Normalizer
{
public:
    //! Normalizes into \a batch and its local tables only: no store is touched, so this may run
    //! on any thread (StorePrivate::resolve() maps the batch onto the store when committing).
    //! \a layer: the write goes into an optimistic layer, the only place placeholder keys
    //! (isPlaceholderKey()) are accepted; a server's answer never carries one.
    Normalizer(const Params &args, WriteBatch &batch, bool layer = false)
        : m_args(args), m_batch(batch), m_layer(layer)
    { }
    //! Normalizes the value held by \a holder; the normalized value goes to batch.result.
    void run(const Node *holder, const Schema &schema);
    //! Throws a SchemaError when fromJsonValue() marked \a holder (an object wider than
    //! MaxObjectKeys somewhere in it).
    void refuseTooManyKeys(const Node *holder, const QString &entityKey) const;

    //! A position in the response, rendered only for error messages.
    struct Path
    {
        const Path *parent = nullptr;
        QStringView field;
        qsizetype index = -1;
        QString render() const;
    };

private:
    //! Throws a SchemaError naming the fields of \a schema's pk that \a object lacks: a pk
    //! function would otherwise compute a pk from their absence (a gadget's default "0").
    void refuseMissingPkFields(const EntitySchema &schema, const QJsonObject &object,
                               const Path &path) const;

    struct Parent
    {
        const Node *node = nullptr; // enclosing object
        const EntitySchema *entity = nullptr;
        QStringView pk;
    };

    void visit(const Value &value, const Node *owner, const Schema &schema, const Path &path,
               const Parent &parent, int depth, NodeBuilder &out);
    void visitEntity(const Value &value, const Node *owner, const Schema &schema, const Path &path,
                     const Parent &parent, int depth, NodeBuilder &out);
    void visitArray(const Value &value, const Node *owner, const Schema &schema, const Path &path,
                    const Parent &parent, int depth, NodeBuilder &out);
    void visitObject(const Value &value, const Node *owner, const Schema &schema, const Path &path,
                     const Parent &parent, int depth, NodeBuilder &out);
    void visitCollection(const Value &value, const Node *owner, const Schema &schema,
                         const Path &path, const Parent &parent, int depth, NodeBuilder &out);
    void visitInvalidate(const Value &value, const Node *owner, const Schema &schema,
                         const Path &path, NodeBuilder &out);
    void visitUnion(const Value &value, const Node *owner, const Schema &schema, const Path &path,
                    const Parent &parent, int depth, NodeBuilder &out);
    void visitValues(const Value &value, const Node *owner, const Schema &schema, const Path &path,
                     const Parent &parent, int depth, NodeBuilder &out);
    //! The member of \a spec that \a value is (its type field, or the pick function), or a
    //! SchemaError naming the value and the known types.
    int unionMember(const UnionSpec &spec, const Value &value, const Node *owner, const Path &path,
                    const Parent &parent) const;
    //! An item of a Collection of a Union: stages the member entity and the hidden item entity
    //! \a item (EntitySchemaPrivate::unionSpec) referring to it; returns the latter's table and
    //! slot.
    std::pair<quint32, quint32> unionItem(const Value &value, const Node *owner,
                                          const EntitySchema &item, const Path &path,
                                          const Parent &parent, int depth, NodeRef *record);
    //! What to do with objects of one shape for one entity schema, worked out once per write
    //! (field positions of the pk, the nested schemas and the deserialized fields).
    struct Plan
    {
        const void *schema = nullptr;
        const Shape *shape = nullptr;
        EntityTable *table = nullptr;
        int pkIndex = -1;
        QVarLengthArray<std::pair<int, Schema>, 4> nested;
        QVarLengthArray<std::pair<int, Deserializer>, 4> deserializers;
    };
    const Plan &plan(const EntitySchema &schema, const Shape *shape)
    {
        // Inline for the two plans of a list of entities with a nested one (todo, author,
        // todo...): found in place, no reordering.
        const void *s = EntitySchemaPrivate::get(schema);
        for (Plan *recent : {m_recentPlans[0], m_recentPlans[1]}) {
            if (recent && recent->schema == s && recent->shape == shape)
                return *recent;
        }
        return planOfOthers(schema, shape);
    }
    const Plan &planOfOthers(const EntitySchema &schema, const Shape *shape);
    NodeBuilder &builderAt(int depth);

    //! Normalizes one entity object and stages it; returns its table and slot.
    std::pair<quint32, quint32> entity(const Value &value, const Node *owner,
                                       const EntitySchema &schema, const Path &path,
                                       const Parent &parent, int depth, NodeRef *record = nullptr);
    //! Stages the leaf entity \a object (no nested schema: kept as the server sent it) as
    //! \a pk of \a table, unless it repeats what is staged there; returns its table and slot.
    //! \a ReadingAhead: a repeat is recognised by its fingerprint first (m_kept).
    template<bool ReadingAhead>
    std::pair<quint32, quint32> keepLeaf(EntityTable &table, QStringView pk, const Node *object,
                                         const EntitySchema &schema, const Path &path,
                                         NodeRef *record);
    //! Starts loading the index entries finding the slots of the entity \a value and of the
    //! entities nested in it will read first (not for a leaf entity kept while reading ahead:
    //! keepLeaf() recognises its repeats by fingerprint).
    void prefetchSlot(const Value &value, const EntitySchema &schema, const EntityTable &table);
    //! The bytes a list of \a itemTable reads at random so far: its pk index and what the
    //! nested entities staged in the batch add (visitCollection() reads ahead from 2 MB).
    size_t randomReadBytes(const EntityTable &itemTable) const;
    //! Reads ahead from here on in a list that did not (m_readAhead, m_kept).
    void startReadingAhead(const EntityTable &itemTable);
    //! Keeps m_kept right for (\a table, \a slot) where it has room for it. The fingerprint is
    //! forgotten: a merged record is no copy of what was hashed (noteFingerprint()).
    void noteKept(quint32 table, quint32 slot, const Node *record)
    {
        if (table < m_kept.size() && slot < m_kept[table].size())
            m_kept[table][slot] = {record, {}};
    }
    //! Notes \a fingerprint for (\a table, \a slot) if \a record (equal to what it was hashed
    //! from) is still the record kept there.
    void noteFingerprint(quint32 table, quint32 slot, const Node *record,
                         const NodeFingerprint &fingerprint)
    {
        if (table < m_kept.size() && slot < m_kept[table].size()
            && m_kept[table][slot].record == record)
            m_kept[table][slot].fingerprint = fingerprint;
    }
    //! While reading ahead: the slot of \a object's entity in \a table if it repeats what is
    //! kept there (its \a fingerprint is the one noted), else -1.
    qint64 keptRepeat(const EntityTable &table, QStringView pk, const Node *object,
                      const NodeFingerprint &fingerprint) const;
    void stage(EntityTable &table, quint32 slot, NodeRef node, const EntitySchema &schema,
               bool invalidate);
    //! The write staged for (\a table, \a slot) of the local tables, or nullptr.
    const EntityWrite *stagedWrite(quint32 table, quint32 slot) const;
    //! The record staged for an entity kept as the server sent it (no nested schema), unless
    //! it was an invalidation: what a repeat of it (an author of many todos) is compared with.
    const Node *keptRecord(quint32 table, quint32 slot) const;
    //! The record of the write staged for (\a table, \a slot), null for none or an
    //! invalidation: what keptRecord() falls back to, and what startReadingAhead() notes.
    const Node *stagedRecord(quint32 table, quint32 slot) const;
    [[noreturn]] void fail(const QString &entityKey, const Path &path, const QString &expected,
                           const QString &found) const;
    //! The slot of \a pk in \a table (created when new), or a failure when the table is full.
    quint32 slotFor(EntityTable &table, QStringView pk, const Path &path) const
    {
        if (Q_UNLIKELY(!table.hasRoomFor(1)))
            return slotInFullTable(table, pk, path);
        return table.findOrAdd(pk);
    }
    quint32 slotInFullTable(EntityTable &table, QStringView pk, const Path &path) const;

    const Params &m_args;
    WriteBatch &m_batch;
    bool m_layer = false;
    QHash<QPair<const void *, const void *>, Plan *> m_plans; // once there are more than 8
    std::vector<std::unique_ptr<Plan>> m_planStore;
    Plan *m_recentPlans[4] = {}; // most recently used first: todo, author, todo, author...
    const void *m_lastKeptSchema = nullptr;
    std::vector<std::unique_ptr<NodeBuilder>> m_builders; // one per depth, reused
    //! The shapes of the hidden union items ({"<member name>": ref}), by (union, member).
    std::vector<std::pair<std::pair<const void *, int>, ShapeRef>> m_unionShapes;
    //! Reading ahead in a long list (visitCollection()): the records of kept entities are
    //! noted in m_kept, with their fingerprints once known, so that a repeat is recognised there.
    bool m_readAhead = false;
    //! What is kept for one entity staged while reading ahead: its keptRecord() and, once noted
    //! (when it is staged, or a repeat was found equal to it), the fingerprint of an object
    //! equal to it.
    struct Kept
    {
        const Node *record = nullptr;
        NodeFingerprint fingerprint;
    };
    //! [table][slot] -> Kept (null record: look in the batch). A repeat of an author is
    //! recognised by its 24 bytes here, found through its index entry, instead of its slot
    //! (40 bytes) and first record (about 200, in lines scattered over the 32 MB of a 1M-todo
    //! batch): 10k authors take 240 KB, in the L2 cache.
    std::vector<std::vector<Kept>> m_kept;
};

QJsonObject objectJson(const Node *object);
//! The pk string of a JSON value ("5" for 5), empty when it cannot be a pk.
QString pkOf(const Value &value, const Node *owner);

} // namespace DataClient::detail
