// Re-filtering (docs/collections.md): stored collections follow their entities. A committed
// change that makes an entity stop fitting a collection's arguments takes it out of that list; one
// that makes it start fitting puts it in (appended, or where the collection's order says). Only
// transitions act: a row the server put in a list that the client would not judge as fitting
// stays, and an update that changes no watched field moves nothing. Optimistic layers re-filter
// their own copy of the items (layers.cpp), so removing a layer puts every row back exactly.
#include "normalizer_p.h"

#include <DataClient/private/schema_p.h>

#include <algorithm>

namespace DataClient {

using namespace detail;

namespace {

const Collection &typeOf(const StorePrivate::CollectionTable &table)
{
    static const Collection plain;
    return table.type ? *table.type : plain;
}

bool fieldDiffers(const Node *before, const Node *after, const QString &field)
{
    const Value *was = before->field(QStringView(field));
    const Value *now = after->field(QStringView(field));
    if (!was || !now)
        return was != now;
    return !valuesEqual(*was, before, *now, after);
}

} // namespace

bool StorePrivate::watchedFieldChanged(CollectionTable &table, const Node *before,
                                       const Node *after)
{
    if (!before || !after || !typeOf(table).followsChanges())
        return false; // a new or deleted entity changed no field
    const QStringList &fields = table.watchedFields();
    return std::any_of(fields.cbegin(), fields.cend(),
                       [&](const QString &field) { return fieldDiffers(before, after, field); });
}

bool StorePrivate::refilterItems(const CollectionTable &table, const Params &args, quint32 slot,
                                 const QJsonObject &before, const QJsonObject &after,
                                 const RecordOf &record, QList<quint32> *items) const
{
    using Fit = Collection::Fit;
    const Collection &type = typeOf(table);
    const Fit was = type.fits(args, before);
    const Fit now = type.fits(args, after);
    const qsizetype at = items->indexOf(slot);
    if (at >= 0 && now == Fit::DoesNotBelong && was != Fit::DoesNotBelong) {
        items->removeAt(at);
        return true;
    }
    const bool joins = at < 0 && now == Fit::Belongs && was != Fit::Belongs;
    const bool ordered = type.isOrdered(args);
    if (!joins && !(at >= 0 && ordered))
        return false;
    QList<quint32> others = *items;
    if (at >= 0)
        others.removeAt(at);
    qsizetype position = others.size();
    if (ordered) {
        // The first row the entity comes before (the rows are in order, so a binary search).
        const auto found
            = std::upper_bound(others.cbegin(), others.cend(), slot, [&](quint32, quint32 row) {
                  const Node *node = record(row);
                  return node && type.lessThan(args, after, objectJson(node));
              });
        position = found - others.cbegin();
    }
    if (position == at)
        return false;
    others.insert(position, slot);
    *items = std::move(others);
    return true;
}

void StorePrivate::refilterCommitted(const std::vector<ChangedEntity> &changed, const MetaRef &meta,
                                     ChangeSet &changes)
{
    for (const auto &table : collectionTables) {
        bool any = false;
        for (const ChangedEntity &entity : changed) {
            if (entity.table == table->itemTable
                && watchedFieldChanged(*table, entity.before.get(),
                                       entityTables[entity.table]->slots[entity.slot].node.get())) {
                any = true;
                break;
            }
        }
        if (!any)
            continue;
        const EntityTable &items = *entityTables[table->itemTable];
        const RecordOf committed = [&](quint32 row) { return items.slots[row].node.get(); };
        for (const ChangedEntity &entity : changed) {
            const Node *after = items.slots[entity.slot].node.get();
            if (entity.table != table->itemTable
                || !watchedFieldChanged(*table, entity.before.get(), after))
                continue;
            const QJsonObject was = objectJson(entity.before.get());
            const QJsonObject now = objectJson(after);
            for (quint32 index = 0; index < table->slots.size(); ++index) {
                CollectionSlot &collection = table->slots[index];
                if (!collection.exists)
                    continue;
                QList<quint32> moved = collection.items;
                if (!refilterItems(*table, collection.args, entity.slot, was, now, committed,
                                   &moved))
                    continue;
                const std::optional<QList<quint32>> shownBefore = effectiveItems(*table, index);
                collection.items = std::move(moved);
                // The list as of this change: an answer for it that started earlier loses.
                if (!collection.meta || collection.meta->meta.date <= meta->meta.date)
                    collection.meta = meta;
                if (!layers.empty())
                    recomputeCollectionOverride(table->id, index, changes);
                if (shownBefore != effectiveItems(*table, index))
                    collectionChanged(table->id, index, changes);
            }
        }
    }
}

} // namespace DataClient
