// The store's tables: entities by (key, pk), collections by (key, arguments), results by key.
// Entities and collections are addressed by dense slot numbers, so normalized references and
// list items are 4-byte integers. An entity slot that garbage collection emptied and that nothing
// refers to any more is released and taken by the next new pk (EntityTable::release()), so a
// table's size follows its live entities, not every pk it ever held.
#pragma once

#include <DataClient/collection.h>
#include <DataClient/meta.h>
#include <DataClient/params.h>
#include <DataClient/private/node_p.h>
#include <DataClient/private/testexport_p.h>

#include "compactkey_p.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QSharedData>

#include <atomic>
#include <memory>
#include <vector>

namespace DataClient::detail {

//! Meta shared by every entity one write touched (10k entities, one allocation).
struct MetaBlock : QSharedData
{
    Meta meta;
};
using MetaRef = QExplicitlySharedDataPointer<MetaBlock>;

struct EntitySlot
{
    EntitySlot() = default;
    //! Built in place (emplace_back): a key made on the stack and copied in as 16 bytes stalled
    //! store forwarding (perf).
    explicit EntitySlot(QStringView key) : pk(key) { }

    CompactKey pk;
    NodeRef node; // committed record; null when absent or deleted
    MetaRef meta; // of the last write (for a deleted entity: of the delete)
    bool deleted = false;
    bool released = false; // free for the next new pk (EntityTable::release()); pk empty
};

//! What optimistic layers make of one entity, above the committed slot.
struct EntityOverride
{
    NodeRef node;
    bool deleted = false;
};

//! Lowers EntityTable::capacity() (0: back to the real one), so that tests can reach it.
DATACLIENT_TEST_EXPORT void setEntityCapacityForTesting(quint32 capacity);

class DATACLIENT_TEST_EXPORT EntityTable
{
public:
    explicit EntityTable(const QString &key, quint32 id) : key(key), id(id) { }

    //! The slot of \a pk, or -1.
    qint64 find(QStringView pk) const;
    //! The slot of the first index entry whose hash bits are \a pk's, or -1, without reading
    //! the slot (that read waited on memory: 58 % of find() in a list of 1M, perf): about one
    //! guess in 64 is another entity's slot. For a caller that checks the slot by other means
    //! (Normalizer::keptRepeat(): a fingerprint that covers the pk).
    qint64 guess(QStringView pk) const;
    //! The slot of \a pk, created empty when new. Writes check hasRoomFor() first: a table
    //! past capacity() stops the program.
    quint32 findOrAdd(QStringView pk);
    //! How many entities of one key a table can hold: slot numbers share 32-bit index entries
    //! with hash bits (about 67 million).
    static quint32 capacity() { return s_capacity.load(std::memory_order_relaxed); }
    //! Whether \a more new entities fit (checked for every entity a write adds: inline).
    bool hasRoomFor(size_t more) const { return liveSlots() + more <= capacity(); }
    //! Room for \a more new slots (a list of 10k entities grows the table once). The slot
    //! vector grows geometrically: a write of 50 new entities into a table of 100k does not
    //! copy the table.
    void reserve(size_t more);
    //! Slots that hold a pk (the others are released, waiting for a new pk).
    size_t liveSlots() const { return slots.size() - m_released.size(); }
    size_t releasedSlots() const { return m_released.size(); }
    //! Frees \a dead (slots without record, meta or delete, that nothing refers to any more):
    //! their pks are forgotten (find() no longer names them) and the next new pks take them.
    //! Rebuilds the pk index (shrunk when it became mostly empty).
    void release(const std::vector<quint32> &dead);
    //! Starts loading the index entry a probe for \a pk reads first (a list longer than the
    //! caches: see Normalizer::visitCollection()).
    void prefetch(QStringView pk) const
    {
        if (m_index.empty())
            return;
        const quint32 *entry = &m_index[CompactKey::hash(pk) & (m_index.size() - 1)];
        // GCC 12 drops a prefetch whose address comes out of a loop (the hash) as dead code:
        // the empty asm makes the address a used value (checked in the disassembly).
        asm volatile("" : : "r"(entry));
        __builtin_prefetch(entry);
    }
    size_t indexBytes() const { return m_index.size() * sizeof(quint32); }
    //! Takes over \a from's slots and index when this table has none yet (the first write of
    //! an entity key): then \a from's slot numbers are this table's. False if not empty.
    bool adoptIfEmpty(EntityTable &from);

    const Node *effective(quint32 slot) const
    {
        if (!overrides.isEmpty()) {
            const auto it = overrides.constFind(slot);
            if (it != overrides.cend())
                return it->deleted ? nullptr : it->node.get();
        }
        return slots[slot].node.get();
    }
    qsizetype count() const; // committed, present entities
    //! The pk index (Store::memoryUsage() counts its block).
    const std::vector<quint32> &index() const { return m_index; }
    //! The released slots (Store::memoryUsage() counts their block).
    const std::vector<quint32> &released() const { return m_released; }

    QString key;
    quint32 id;
    std::vector<EntitySlot> slots;
    QHash<quint32, EntityOverride> overrides;
    //! Empty slots that the last release found still referred to (garbage collection counts
    //! only the others towards the next release).
    size_t pinnedEmptySlots = 0;

private:
    //! Where \a pk is in the index: its slot (-1 if absent), the index position it is at or
    //! would go to, and the hash bits its entry carries. The index must not be empty.
    struct Probe
    {
        qint64 slot;
        size_t position;
        quint32 tag;
    };
    template<bool ComparePk = true> Probe probe(QStringView pk) const;
    void grow();
    //! Fills an index of \a size entries with every slot that holds a pk.
    void rebuildIndex(size_t size);
    friend void setEntityCapacityForTesting(quint32 capacity);
    static std::atomic<quint32> s_capacity; // lowered by tests; read by workers preparing writes
    std::vector<quint32> m_index; // open addressing: slot + 1 and hash bits (0 = empty)
    std::vector<quint32> m_released; // released slots, the last released taken first
};

struct CollectionSlot
{
    QString argsKey;
    Params args;
    QList<quint32> items; // slots of the item table
    MetaRef meta;
    bool exists = false;
};

struct CollectionOverride
{
    QList<quint32> items;
    bool exists = false;
};

class CollectionTable
{
public:
    CollectionTable(const QString &key, quint32 id, quint32 itemTable)
        : key(key), id(id), itemTable(itemTable)
    { }
    qint64 find(const QString &argsKey) const { return index.value(argsKey, -1); }
    quint32 findOrAdd(const QString &argsKey, const Params &args);
    //! Items shown (committed, or what the optimistic layers make of them); nullptr if absent.
    const QList<quint32> *effective(quint32 slot) const
    {
        if (!overrides.isEmpty()) {
            const auto it = overrides.constFind(slot);
            if (it != overrides.cend())
                return it->exists ? &it->items : nullptr;
        }
        return slots[slot].exists ? &slots[slot].items : nullptr;
    }

    //! The fields a change of which can move an entity between this table's collections
    //! (Collection::filterFields() of every stored collection's arguments), cached until a
    //! collection is added or the customization changes.
    const QStringList &watchedFields();

    QString key; // "[Todo]"
    quint32 id;
    quint32 itemTable;
    //! The customization of the last write (re-filtering asks it); null: the default.
    std::shared_ptr<const Collection> type;
    std::vector<CollectionSlot> slots;
    QHash<QString, qint64> index;
    QHash<quint32, CollectionOverride> overrides;

private:
    QStringList m_watched;
    size_t m_watchedSlots = 0; // slots m_watched covers
    const Collection *m_watchedType = nullptr;
};

struct ResultSlot
{
    NodeRef holder; // one-element array holding the normalized value
    Meta meta;
};

} // namespace DataClient::detail
