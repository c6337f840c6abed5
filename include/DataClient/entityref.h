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
        return qHashMulti(seed, ref.key, ref.pk);
    }
};

} // namespace DataClient
