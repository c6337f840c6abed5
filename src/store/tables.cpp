#include "tables_p.h"

namespace DataClient::detail {

qint64 EntityTable::find(QStringView pk) const
{
    if (m_index.empty())
        return -1;
    const size_t mask = m_index.size() - 1;
    for (size_t i = CompactKey::hash(pk) & mask;; i = (i + 1) & mask) {
        const quint32 entry = m_index[i];
        if (entry == 0)
            return -1;
        if (slots[entry - 1].pk.equals(pk))
            return entry - 1;
    }
}

quint32 EntityTable::findOrAdd(QStringView pk)
{
    if ((slots.size() + 1) * 2 > m_index.size())
        grow();
    const size_t mask = m_index.size() - 1;
    size_t i = CompactKey::hash(pk) & mask;
    for (;; i = (i + 1) & mask) {
        const quint32 entry = m_index[i];
        if (entry == 0)
            break;
        if (slots[entry - 1].pk.equals(pk))
            return entry - 1;
    }
    const quint32 slot = quint32(slots.size());
    slots.emplace_back(pk);
    m_index[i] = slot + 1;
    return slot;
}

void EntityTable::reserve(size_t more)
{
    slots.reserve(slots.size() + more);
    while ((slots.size() + more) * 2 > m_index.size())
        grow();
}

bool EntityTable::adoptIfEmpty(EntityTable &from)
{
    if (!slots.empty())
        return false;
    slots = std::move(from.slots);
    m_index = std::move(from.m_index);
    from.slots.clear();
    from.m_index.clear();
    return true;
}

void EntityTable::grow()
{
    const size_t capacity = std::max<size_t>(16, m_index.size() * 2);
    m_index.assign(capacity, 0);
    const size_t mask = capacity - 1;
    for (quint32 s = 0; s < slots.size(); ++s) {
        size_t i = slots[s].pk.hash() & mask;
        while (m_index[i] != 0)
            i = (i + 1) & mask;
        m_index[i] = s + 1;
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
