// EntityRef: names one stored entity (or stored collection) by key and primary key.
#pragma once

#include <QtCore/QHashFunctions>
#include <QtCore/QString>

namespace DataClient {

//! (entity key, pk), e.g. {"Todo", "5"}. A stored collection is {"[Todo]", R"({"userId":"1"})"}.
struct EntityRef
{
    QString key;
    QString pk;

    friend bool operator==(const EntityRef &a, const EntityRef &b)
    {
        return a.key == b.key && a.pk == b.pk;
    }
    friend bool operator!=(const EntityRef &a, const EntityRef &b) { return !(a == b); }
    friend size_t qHash(const EntityRef &ref, size_t seed = 0) noexcept
    {
        // The pk decides; the key adds its length and first letter only (a write of 10k
        // entities hashes 10k refs, and the few keys differ in those anyway).
        const size_t key = ref.key.isEmpty()
            ? 0
            : size_t(ref.key.front().unicode()) * 31 + size_t(ref.key.size());
        return qHash(ref.pk, seed) ^ (key * 0x9E3779B97F4A7C15ULL);
    }
};

} // namespace DataClient
