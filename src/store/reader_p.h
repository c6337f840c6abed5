// Reader: one read of results back from the store (denormalize). Entities become Records with
// their nested entities resolved, memoized per (entity table, schema) with reverse dependencies
// (memo_p.h). Cycles between entities are cut: an entity already being read higher up appears as
// a Record whose nested fields are null; views below such a cut depend on the context and are not
// memoized. Entities and values: reader.cpp; lists (read, patched, rebuilt): readerlist.cpp; the
// Store's entry points: denormalizer.cpp.
#pragma once

#include "storeprivate_p.h"

#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/record_p.h>
#include <DataClient/private/schema_p.h>

#include <QtCore/QVarLengthArray>

#include <algorithm>
#include <climits>

namespace DataClient::detail {

constexpr int MaxDenormalizeDepth = 64;

class Reader
{
public:
    Reader(StorePrivate &store, QList<EntityRef> *missing) : m_store(store), m_missing(missing) { }

    QVariant value(const Value &v, const Node *owner, const Schema &schema,
                   const Dependent &parent);
    Record entity(quint32 table, quint32 slot, const EntitySchema &schema, const Dependent &parent,
                  bool reportMissing);
    QVariant list(ListView &view);

private:
    // Union and Values (readerunion.cpp)
    //! The member entity \a v refers to, read with its member's schema (its table names it).
    Record unionMember(const Value &v, const UnionSpec &spec, const Dependent &parent,
                       bool reportMissing);
    //! A list of union items (missing entities dropped, as in any list of entities).
    QVariant unionList(const Value &v, const UnionSpec &spec, const Dependent &parent);
    //! The hidden item entity of a Collection of a Union (EntitySchemaPrivate::unionSpec) at
    //! \a slot: shown as the member entity it refers to, memoized as \a views' view.
    Record unionItem(EntityViews &views, quint32 slot, const Node *node, const EntitySchema &schema,
                     bool reportMissing);
    QVariant values(const Value &v, const Node *owner, const Schema &item, const Dependent &parent);

    //! Replaces the rows of view.dirtySlots in the view's list; false when it must be re-read.
    bool patchRows(ListView &view);
    void rebuildRows(ListView &view, const QList<quint32> *items);
    const CollectionTable &collections(const ListView &view) const
    {
        return *m_store.collectionTables[view.collectionTable];
    }

    QVariant raw(const Value &v, const Node *owner) const
    {
        return toVariant(v, owner, m_store.refRenderer());
    }
    Record stub(const Node *node, const EntitySchema &schema, bool pending)
    {
        const auto *s = EntitySchemaPrivate::get(schema);
        auto *d = new RecordPrivate(node, schema, planFor(s, node->shape));
        d->pending = pending;
        for (qsizetype i = 0; i < s->nested.size(); ++i)
            d->nested.append(QVariant::fromValue(nullptr));
        return RecordPrivate::make(d);
    }

    //! The schema's field plan for \a shape, remembered for the next rows of the same shape.
    const FieldPlan *planFor(const EntitySchemaPrivate *schema, const Shape *shape)
    {
        if (!shape)
            return nullptr;
        for (const RecentPlan &recent : m_recentPlans) {
            if (recent.schema == schema && recent.shape == shape)
                return recent.plan;
        }
        const FieldPlan *plan = schema->fieldPlan(shape);
        std::move_backward(m_recentPlans, m_recentPlans + 3, m_recentPlans + 4);
        m_recentPlans[0] = {schema, shape, plan};
        return plan;
    }

    EntityViews &viewsOf(quint32 table, const EntitySchema &schema)
    {
        const void *key = EntitySchemaPrivate::get(schema);
        for (auto &[t, k, views] : m_recentViews) {
            if (views && t == table && k == key)
                return *views;
        }
        EntityViews &views = m_store.entityViews(table, schema);
        std::move_backward(m_recentViews, m_recentViews + 3, m_recentViews + 4);
        m_recentViews[0] = {table, key, &views};
        return views;
    }

    StorePrivate &m_store;
    QList<EntityRef> *m_missing;
    struct RecentViews
    {
        quint32 table = 0;
        const void *schema = nullptr;
        EntityViews *views = nullptr;
    };
    RecentViews m_recentViews[4];
    struct RecentPlan
    {
        const EntitySchemaPrivate *schema = nullptr;
        const Shape *shape = nullptr;
        const FieldPlan *plan = nullptr;
    };
    RecentPlan m_recentPlans[4];
    QVarLengthArray<std::pair<quint32, quint32>, 16> m_path; // entities being read
    int m_lowestCut = INT_MAX; // shallowest m_path index a cut referred to
};

} // namespace DataClient::detail
