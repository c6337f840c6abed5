// EntityRefSet internals: refs recorded by the store as (entity key, compact pk) runs per table,
// expanded into EntityRefs (two QStrings each) only when someone reads them one by one.
#pragma once

#include <DataClient/entityrefset.h>

#include "compactkey_p.h"

#include <QtCore/QMutex>
#include <QtCore/QStringList>

#include <vector>

namespace DataClient::detail {

//! Keys come from the store's tables, so equal keys usually share their data: pointers first.
inline bool sameKey(const QString &a, const QString &b)
{
    return a.constData() == b.constData() || a == b;
}

struct EntityRefSetData
{
    //! Pks of one entity key not yet made into EntityRefs.
    struct Pending
    {
        QString key;
        std::vector<CompactKey> pks;
    };

    EntityRefSetData() = default;
    //! A copy of \a other's refs (expanded), for a set about to change.
    explicit EntityRefSetData(const EntityRefSetData &other)
        : refs(other.expanded()), keys(other.keys)
    { }

    const QSet<EntityRef> &expanded() const
    {
        const QMutexLocker lock(&mutex);
        if (!pending.empty())
            expand();
        return refs;
    }

    mutable QMutex mutex; // guards the expansion (const readers may share this data)
    mutable QSet<EntityRef> refs;
    mutable std::vector<Pending> pending;
    QStringList keys; // distinct, of refs and pending (a few): empty exactly when the set is

    void addKey(const QString &key)
    {
        for (const QString &k : std::as_const(keys)) {
            if (sameKey(k, key))
                return;
        }
        keys.append(key);
    }

private:
    void expand() const;
};

struct EntityRefSetAccess
{
    //! Adds (\a key, \a pk) without making a QString of the pk yet.
    static void add(EntityRefSet &set, const QString &key, const CompactKey &pk)
    {
        // The common case, a run of one table's entities: append to the last run.
        EntityRefSetData *d = set.d.get();
        if (d && set.d.use_count() == 1 && !d->pending.empty()
            && d->pending.back().key.constData() == key.constData()) {
            d->pending.back().pks.push_back(pk);
            return;
        }
        addSlow(set, key, pk);
    }
    static void addSlow(EntityRefSet &set, const QString &key, const CompactKey &pk);
};

} // namespace DataClient::detail
