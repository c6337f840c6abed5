// EntityRefSet: the entities a store write changed, as a set of EntityRefs built lazily.
#pragma once

#include <DataClient/entityref.h>
#include <DataClient/global.h>

#include <QtCore/QList>
#include <QtCore/QSet>

#include <initializer_list>
#include <memory>

namespace DataClient {

namespace detail {
struct EntityRefSetData;
struct EntityRefSetAccess;
} // namespace detail

/*!
    A set of EntityRefs with the QSet API the views use (contains, size, iteration, unite,
    conversion to QSet<EntityRef>). A write of 10k entities does not make 10k pk strings: the
    store records (entity key, compact pk) per table, and the EntityRefs are built the first time
    the set is read element by element. isEmpty() and containsKey() never build them.

    Implicitly shared; reading one set from several threads at once is safe (the one-time
    expansion is locked), writing it is not (like QSet).
*/
class DATACLIENT_STORE_EXPORT EntityRefSet
{
public:
    using value_type = EntityRef;
    using const_iterator = QSet<EntityRef>::const_iterator;
    using iterator = const_iterator;

    EntityRefSet();
    EntityRefSet(const QSet<EntityRef> &refs); // NOLINT(google-explicit-constructor): as QSet did
    EntityRefSet(std::initializer_list<EntityRef> refs);
    EntityRefSet(const EntityRefSet &other);
    EntityRefSet(EntityRefSet &&other) noexcept;
    EntityRefSet &operator=(const EntityRefSet &other);
    EntityRefSet &operator=(EntityRefSet &&other) noexcept;
    ~EntityRefSet();

    bool isEmpty() const;
    bool empty() const { return isEmpty(); }
    qsizetype size() const { return toSet().size(); }
    qsizetype count() const { return size(); }
    bool contains(const EntityRef &ref) const { return toSet().contains(ref); }
    bool intersects(const QSet<EntityRef> &other) const { return toSet().intersects(other); }
    //! Whether any entity (or collection) of \a key is in the set, without building pks.
    bool containsKey(QStringView key) const;
    //! The distinct entity keys in the set ("Todo", "[Todo]"...), without building pks.
    QSet<QString> keys() const;

    const_iterator begin() const { return toSet().cbegin(); }
    const_iterator end() const { return toSet().cend(); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    const_iterator constBegin() const { return begin(); }
    const_iterator constEnd() const { return end(); }
    QList<EntityRef> values() const { return toSet().values(); }

    void insert(const EntityRef &ref);
    EntityRefSet &unite(const EntityRefSet &other);
    void clear();

    //! Every ref as a QSet (built on first use, then shared by the copies of this set).
    const QSet<EntityRef> &toSet() const;
    // NOLINTNEXTLINE(google-explicit-constructor): a drop-in for QSet
    operator const QSet<EntityRef> &() const { return toSet(); }

    friend bool operator==(const EntityRefSet &a, const EntityRefSet &b)
    {
        return a.d == b.d || a.toSet() == b.toSet();
    }
    friend bool operator==(const EntityRefSet &a, const QSet<EntityRef> &b)
    {
        return a.toSet() == b;
    }

private:
    friend struct detail::EntityRefSetAccess;
    detail::EntityRefSetData *detach();
    std::shared_ptr<detail::EntityRefSetData> d; // null when empty
};

} // namespace DataClient
