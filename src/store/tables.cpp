#include "tables_p.h"

#include <algorithm>
#include <atomic>
#include <functional>

namespace DataClient::detail {

// An index entry is the slot + 1 in its low bits and a few bits of the pk's hash above them:
// a probe only reads a slot's pk (a cache miss in a large table) when those bits match.
namespace {
constexpr int SlotBits = 26;
constexpr quint32 SlotMask = (quint32(1) << SlotBits) - 1;
quint32 tagOf(size_t hash)
{
    return quint32(hash >> (64 - (32 - SlotBits))) << SlotBits;
}
constexpr quint32 RealCapacity = SlotMask - 1; // entries store slot + 1
} // namespace

std::atomic<quint32> EntityTable::s_capacity {RealCapacity};

void setEntityCapacityForTesting(quint32 capacity)
{
    EntityTable::s_capacity.store(capacity ? std::min(capacity, RealCapacity) : RealCapacity,
                                  std::memory_order_relaxed);
}

// ComparePk false: the first entry with pk's hash bits, its pk not read (guess()).
template<bool ComparePk> inline EntityTable::Probe EntityTable::probe(QStringView pk) const
{
    const size_t mask = m_index.size() - 1;
    const size_t hash = CompactKey::hash(pk);
    const quint32 tag = tagOf(hash);
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const quint32 entry = m_index[i];
        if (entry == 0)
            return {-1, i, tag};
        if ((entry & ~SlotMask) == tag
            && (!ComparePk || slots[(entry & SlotMask) - 1].pk.equals(pk)))
            return {qint64(entry & SlotMask) - 1, i, tag};
    }
}

qint64 EntityTable::find(QStringView pk) const
{
    return m_index.empty() ? -1 : probe(pk).slot;
}

qint64 EntityTable::guess(QStringView pk) const
{
    return m_index.empty() ? -1 : probe<false>(pk).slot;
}

quint32 EntityTable::findOrAdd(QStringView pk)
{
    if ((liveSlots() + 1) * 2 > m_index.size())
        grow();
    const Probe found = probe(pk);
    if (found.slot >= 0)
        return quint32(found.slot);
    quint32 slot;
    if (!m_released.empty()) {
        slot = m_released.back();
        m_released.pop_back();
        EntitySlot &reused = slots[slot];
        reused.pk = CompactKey(pk);
        reused.released = false;
    } else {
        slot = quint32(slots.size());
        if (slot >= RealCapacity) // writes check hasRoomFor() before they get here
            qFatal("DataClient: more than %u entities of one key", RealCapacity);
        slots.emplace_back(pk);
    }
    m_index[found.position] = (slot + 1) | found.tag;
    return slot;
}

void EntityTable::reserve(size_t more)
{
    const size_t appended = more > m_released.size() ? more - m_released.size() : 0;
    // 1.5x, not 2x: a table that grew in ten writes of 10k keeps at most half again its size
    // (2x left 60k empty slots behind 100k entities, 2.4 MB).
    if (slots.size() + appended > slots.capacity())
        slots.reserve(std::max(slots.size() + appended, slots.capacity() * 3 / 2));
    while ((liveSlots() + more) * 2 > m_index.size())
        grow();
}

void EntityTable::release(const std::vector<quint32> &dead)
{
    if (dead.empty())
        return;
    // The dead slots that end the table (most of them when a pass drops most of a table) are
    // cut off at once, without being listed as released. Garbage collection lists \a dead in
    // ascending order; another order only misses this shortcut.
    size_t listed = dead.size();
    while (listed > 0 && dead[listed - 1] + 1 == slots.size()) {
        Q_ASSERT(!slots.back().node && !slots.back().meta && !slots.back().deleted);
        slots.pop_back();
        --listed;
    }
    for (size_t d = 0; d < listed; ++d) {
        const quint32 slot = dead[d];
        EntitySlot &entity = slots[slot];
        Q_ASSERT(!entity.released && !entity.node && !entity.meta && !entity.deleted);
        entity.pk = CompactKey();
        entity.released = true;
    }
    // Descending, so that the lowest is taken first and the table stays dense at its start;
    // released slots at its end go (the slot vector ends at the last slot in use). Garbage
    // collection lists \a dead in ascending order: a merge, not a sort (99k slots at once).
    const size_t before = m_released.size();
    m_released.insert(m_released.end(), dead.rend() - qsizetype(listed), dead.rend());
    if (!std::is_sorted(m_released.begin() + qsizetype(before), m_released.end(), std::greater<>()))
        std::sort(m_released.begin() + qsizetype(before), m_released.end(), std::greater<>());
    std::inplace_merge(m_released.begin(), m_released.begin() + qsizetype(before), m_released.end(),
                       std::greater<>());
    size_t trailing = 0;
    while (trailing < m_released.size() && m_released[trailing] + 1 == slots.size()) {
        slots.pop_back();
        ++trailing;
    }
    m_released.erase(m_released.begin(), m_released.begin() + qsizetype(trailing));
    // A table that lost most of its slots gives their memory back.
    if (slots.size() * 4 < slots.capacity())
        slots.shrink_to_fit();
    if (m_released.size() * 4 < m_released.capacity())
        m_released.shrink_to_fit();
    // Half full at most after the rebuild, as findOrAdd() keeps it; an index eight times larger
    // than its pks needs shrinks.
    size_t size = m_index.size();
    while (size > 16 && liveSlots() * 8 < size)
        size /= 2;
    rebuildIndex(size);
}

bool EntityTable::adoptIfEmpty(EntityTable &from)
{
    if (!slots.empty())
        return false;
    slots = std::move(from.slots);
    m_index = std::move(from.m_index);
    m_released = std::move(from.m_released);
    from.slots.clear();
    from.m_index.clear();
    from.m_released.clear();
    return true;
}

void EntityTable::grow()
{
    rebuildIndex(std::max<size_t>(16, m_index.size() * 2));
}

void EntityTable::rebuildIndex(size_t size)
{
    m_index.assign(size, 0);
    const size_t mask = size - 1;
    for (quint32 s = 0; s < slots.size(); ++s) {
        if (slots[s].released)
            continue;
        const size_t hash = slots[s].pk.hash();
        size_t i = hash & mask;
        while (m_index[i] != 0)
            i = (i + 1) & mask;
        m_index[i] = (s + 1) | tagOf(hash);
    }
}

qsizetype EntityTable::count() const
{
    qsizetype n = 0;
    for (const EntitySlot &slot : slots)
        n += slot.node ? 1 : 0;
    return n;
}

quint32 CollectionTable::findOrAdd(const QString &argsKey, const Params &args)
{
    const qint64 existing = find(argsKey);
    if (existing >= 0)
        return quint32(existing);
    const quint32 slot = quint32(slots.size());
    CollectionSlot created;
    created.argsKey = argsKey;
    created.args = args;
    slots.push_back(std::move(created));
    index.insert(argsKey, slot);
    return slot;
}

} // namespace DataClient::detail

namespace DataClient::detail {

const QStringList &CollectionTable::watchedFields()
{
    static const Collection plain;
    const Collection &collection = type ? *type : plain;
    if (m_watchedSlots == slots.size() && m_watchedType == &collection)
        return m_watched;
    m_watched.clear();
    for (const CollectionSlot &slot : slots) {
        const QStringList fields = collection.filterFields(slot.args);
        for (const QString &field : fields) {
            if (!m_watched.contains(field))
                m_watched.append(field);
        }
    }
    m_watchedSlots = slots.size();
    m_watchedType = &collection;
    return m_watched;
}

} // namespace DataClient::detail
