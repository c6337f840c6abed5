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
        return a.pk == b.pk && a.key == b.key; // pks differ more often than keys
    }
    friend bool operator!=(const EntityRef &a, const EntityRef &b) { return !(a == b); }
    friend size_t qHash(const EntityRef &ref, size_t seed = 0) noexcept
    {
        // The key only adds its length and first letter (cheap; the few keys differ in those).
        const size_t key = ref.key.isEmpty()
            ? 0
            : size_t(ref.key.front().unicode()) * 31 + size_t(ref.key.size());
        return qHashMulti(seed, ref.pk, key); // qHashMulti mixes: a bare string hash clusters
    }
};

} // namespace DataClient
