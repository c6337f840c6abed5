// Invalidation of memoized views: a write marks exactly the views that show what it changed
// (reverse dependencies), and collects the result keys they belong to for the ChangeSet.
#include "storeprivate_p.h"

#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/listpatch_p.h>
#include <DataClient/private/rowlist_p.h>

#include <QtCore/QMutex>

#include <atomic>

namespace DataClient {

using namespace detail;

namespace detail {

// More dirty rows than this and a list re-reads every row instead of patching them one by one.
constexpr qsizetype MaxPatchedRows = 64;

void notify(const Dependent &dependent, Invalidation &context)
{
    switch (dependent.kind) {
    case Dependent::EntityViewKind:
        static_cast<EntityViews *>(dependent.target)->invalidate(dependent.slot, context);
        break;
    case Dependent::ListKind:
        static_cast<ListView *>(dependent.target)->markDirty(context, true);
        break;
    case Dependent::ResultKind: {
        auto *result = static_cast<ResultView *>(dependent.target);
        if (result->generation == dependent.slot)
            result->markDirty(context);
        break;
    }
    }
}

void EntityViews::invalidate(quint32 slot, Invalidation &context)
{
    if (slot < views.size())
        views[slot] = Record();
    const QList<Dependent> dependents
        = slot < embedders.size() ? std::exchange(embedders[slot], {}) : QList<Dependent>();
    for (const Dependent &dependent : dependents)
        notify(dependent, context);
    for (ListView *list : std::as_const(watchers))
        list->itemChanged(slot, context);
    for (SlotWatcher *watcher : std::as_const(slotWatchers))
        watcher->slotChanged(slot);
}

void EntityViews::addEmbedder(quint32 slot, const Dependent &dependent)
{
    if (embedders.size() <= slot)
        embedders.resize(slot + 1 + slot / 2);
    QList<Dependent> &list = embedders[slot];
    if (list.isEmpty())
        list.reserve(4); // an author of a few todos: one allocation, not three
    else if (list.contains(dependent))
        return;
    list.append(dependent);
}

namespace {

// The list patches of every store's list views, by the patched list's identity. An entry holds its
// list, so the address cannot be reused while the entry exists; a view forgets its entry when
// its value changes or it goes (one entry per view: the last patch only).
struct ListPatches
{
    QMutex mutex;
    QHash<const void *, std::pair<RowList, ListPatch>> byList;
    std::atomic<quint64> clock {1};
};

ListPatches &listPatches()
{
    static ListPatches patches;
    return patches;
}

} // namespace

quint64 listPatchClock()
{
    return listPatches().clock.load(std::memory_order_relaxed);
}

std::optional<ListPatch> listPatchOf(const RowList &to)
{
    ListPatches &patches = listPatches();
    QMutexLocker lock(&patches.mutex);
    const auto it = patches.byList.constFind(RowListInternals::identity(to));
    if (it == patches.byList.cend() || !it->first.isSharedWith(to))
        return std::nullopt;
    return it->second;
}

void recordListPatch(const RowList &to, const void *from, QList<qsizetype> rows)
{
    ListPatches &patches = listPatches();
    const quint64 made = patches.clock.fetch_add(1, std::memory_order_relaxed) + 1;
    QMutexLocker lock(&patches.mutex);
    patches.byList.insert(RowListInternals::identity(to),
                          {to, ListPatch {from, made, std::move(rows)}});
}

void forgetListPatch(const void *to)
{
    ListPatches &patches = listPatches();
    RowList list; // released after the lock (a list's last reference may free N rows)
    {
        QMutexLocker lock(&patches.mutex);
        const auto it = patches.byList.find(to);
        if (it == patches.byList.end())
            return;
        list = std::move(it->first);
        patches.byList.erase(it);
    }
}

ListView::~ListView()
{
    if (patched)
        forgetListPatch(patched);
}

void ListView::itemChanged(quint32 slot, Invalidation &context)
{
    if (dirty && structural)
        return;
    if (!dirty && (slot >= members.size() || !members[slot]))
        return; // not in this list
    if (!structural) {
        if (dirtySlots.size() >= MaxPatchedRows)
            structural = true;
        else if (!dirtySlots.contains(slot))
            dirtySlots.append(slot);
    }
    markDirty(context, false);
}

void ListView::markDirty(Invalidation &context, bool wholeList)
{
    if (wholeList)
        structural = true;
    if (dirty)
        return;
    dirty = true;
    const QList<Dependent> dependents = std::exchange(parents, {});
    for (const Dependent &dependent : dependents)
        notify(dependent, context);
}

void ListView::addParent(const Dependent &dependent)
{
    if (!parents.contains(dependent))
        parents.append(dependent);
}

void ResultView::markDirty(Invalidation &context)
{
    if (dirty)
        return;
    dirty = true;
    if (context.changes)
        context.changes->results.insert(key);
}

} // namespace detail

void StorePrivate::entityChanged(quint32 table, quint32 slot, ChangeSet &changes)
{
    const EntityTable &entities = *entityTables[table];
    EntityRefSetAccess::add(changes.entities, entities.key, entities.slots[slot].pk);
    if (entityViewsByTable.size() <= table)
        return;
    Invalidation context {&changes};
    // By index, not a copy of the list per changed entity: a view made meanwhile is appended.
    for (size_t i = 0; i < entityViewsByTable[table].size(); ++i)
        entityViewsByTable[table][i]->invalidate(slot, context);
}

void StorePrivate::collectionChanged(quint32 table, quint32 slot, ChangeSet &changes)
{
    const CollectionTable &collections = *collectionTables[table];
    changes.entities.insert(EntityRef {collections.key, collections.slots[slot].argsKey});
    Invalidation context {&changes};
    const quint64 key = (quint64(table) << 32) | slot;
    for (auto it = listViewsByCollection.constFind(key);
         it != listViewsByCollection.cend() && it.key() == key; ++it)
        (*it)->markDirty(context, true);
}

void StorePrivate::resultChanged(const QString &key, ChangeSet &changes)
{
    changes.results.insert(key);
    if (ResultView *view = resultViewIndex.value(key)) {
        Invalidation context {&changes};
        view->markDirty(context);
    }
}

EntityViews &StorePrivate::entityViews(quint32 table, const EntitySchema &schema)
{
    const QPair<quint32, const void *> key(table, EntitySchemaPrivate::get(schema));
    if (EntityViews *views = entityViewIndex.value(key))
        return *views;
    entityViewStore.push_back(std::make_unique<EntityViews>(table, schema));
    EntityViews *views = entityViewStore.back().get();
    entityViewIndex.insert(key, views);
    if (entityViewsByTable.size() <= table)
        entityViewsByTable.resize(table + 1);
    entityViewsByTable[table].push_back(views);
    return *views;
}

ListView &StorePrivate::listView(quint32 collectionTable, quint32 slot,
                                 const EntitySchema &itemSchema)
{
    const quint64 collection = (quint64(collectionTable) << 32) | slot;
    const QPair<quint64, const void *> key(collection, EntitySchemaPrivate::get(itemSchema));
    if (ListView *list = listViewIndex.value(key))
        return *list;
    listViewStore.push_back(std::make_unique<ListView>());
    ListView *list = listViewStore.back().get();
    list->collectionTable = collectionTable;
    list->collectionSlot = slot;
    list->items = &entityViews(collectionTables[collectionTable]->itemTable, itemSchema);
    list->items->watchers.append(list);
    listViewIndex.insert(key, list);
    listViewsByCollection.insert(collection, list);
    return *list;
}

ResultView &StorePrivate::resultView(const QString &key)
{
    if (ResultView *view = resultViewIndex.value(key))
        return *view;
    ResultView *view = nullptr;
    if (!freeResultViews.empty()) {
        view = freeResultViews.back();
        freeResultViews.pop_back();
    } else {
        resultViewStore.push_back(std::make_unique<ResultView>());
        view = resultViewStore.back().get();
    }
    view->key = key;
    view->dirty = true;
    resultViewIndex.insert(key, view);
    return *view;
}

void StorePrivate::retireResultView(const QString &key)
{
    ResultView *view = resultViewIndex.take(key);
    if (!view)
        return;
    ++view->generation; // dependents registered for the old key become stale
    view->key.clear();
    view->schema = Schema();
    view->value = Denormalized();
    view->dirty = true;
    freeResultViews.push_back(view);
}

void StorePrivate::clearMemo()
{
    tableViewIndex.clear(); // they watch the entity views cleared below
    tableViewStore.clear();
    entityViewIndex.clear();
    entityViewsByTable.clear();
    listViewIndex.clear();
    listViewsByCollection.clear();
    resultViewIndex.clear();
    freeResultViews.clear();
    listViewStore.clear();
    entityViewStore.clear();
    resultViewStore.clear();
}

} // namespace DataClient
