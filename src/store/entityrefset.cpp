#include "entityrefset_p.h"

namespace DataClient {

using namespace detail;

void EntityRefSetData::expand() const
{
    qsizetype more = 0;
    for (const Pending &run : pending)
        more += qsizetype(run.pks.size());
    refs.reserve(refs.size() + more);
    for (const Pending &run : pending) {
        for (const CompactKey &pk : run.pks)
            refs.insert(EntityRef {run.key, pk.toString()});
    }
    pending.clear();
}

void EntityRefSetAccess::addSlow(EntityRefSet &set, const QString &key, const CompactKey &pk)
{
    EntityRefSetData *d = set.detach();
    for (auto run = d->pending.rbegin(); run != d->pending.rend(); ++run) {
        if (sameKey(run->key, key)) {
            run->pks.push_back(pk);
            return;
        }
    }
    d->pending.push_back(EntityRefSetData::Pending {key, {pk}});
    d->addKey(key);
}

EntityRefSet::EntityRefSet() = default;
EntityRefSet::EntityRefSet(const EntityRefSet &other) = default;
EntityRefSet::EntityRefSet(EntityRefSet &&other) noexcept = default;
EntityRefSet &EntityRefSet::operator=(const EntityRefSet &other) = default;
EntityRefSet &EntityRefSet::operator=(EntityRefSet &&other) noexcept = default;
EntityRefSet::~EntityRefSet() = default;

EntityRefSet::EntityRefSet(const QSet<EntityRef> &refs)
{
    for (const EntityRef &ref : refs)
        insert(ref);
}

EntityRefSet::EntityRefSet(std::initializer_list<EntityRef> refs)
{
    for (const EntityRef &ref : refs)
        insert(ref);
}

EntityRefSetData *EntityRefSet::detach()
{
    if (!d)
        d = std::make_shared<EntityRefSetData>();
    else if (d.use_count() > 1)
        d = std::make_shared<EntityRefSetData>(*d);
    return d.get();
}

bool EntityRefSet::isEmpty() const
{
    return !d || d->keys.isEmpty();
}

bool EntityRefSet::containsKey(QStringView key) const
{
    if (!d)
        return false;
    for (const QString &k : d->keys) {
        if (k == key)
            return true;
    }
    return false;
}

QSet<QString> EntityRefSet::keys() const
{
    return d ? QSet<QString>(d->keys.cbegin(), d->keys.cend()) : QSet<QString>();
}

void EntityRefSet::insert(const EntityRef &ref)
{
    EntityRefSetData *data = detach();
    data->refs.insert(ref);
    data->addKey(ref.key);
}

EntityRefSet &EntityRefSet::unite(const EntityRefSet &other)
{
    if (!other.d || other.d == d)
        return *this;
    if (!d) {
        d = other.d; // share: nothing to merge into
        return *this;
    }
    EntityRefSetData *data = detach();
    {
        const QMutexLocker lock(&other.d->mutex);
        data->refs.unite(other.d->refs);
        data->pending.insert(data->pending.end(), other.d->pending.cbegin(),
                             other.d->pending.cend());
    }
    for (const QString &key : std::as_const(other.d->keys))
        data->addKey(key);
    return *this;
}

void EntityRefSet::clear()
{
    d.reset();
}

const QSet<EntityRef> &EntityRefSet::toSet() const
{
    static const QSet<EntityRef> none;
    return d ? d->expanded() : none;
}

} // namespace DataClient
