// Views over whole entity tables (tableviews_p.h): All, Query, unique-field indexes.
#include "reader_p.h"

#include <DataClient/private/numbertext_p.h>
#include <DataClient/private/variantof_p.h>

#include "logging_p.h"

#include <algorithm>

namespace DataClient {

using namespace detail;

namespace detail {

bool TableView::attach(StorePrivate &store)
{
    if (table != NoTable)
        return true;
    const EntityTable *found = store.findEntityTable(entity.key());
    if (!found)
        return false;
    table = found->id;
    store.entityViews(table, entity).slotWatchers.append(this);
    full = true;
    return true;
}

QVariant AllView::read(StorePrivate &store, const Schema::AllOrder &order)
{
    if (!attach(store) || (!full && changedSlots.empty()))
        return value;
    // The Records are the memo's: only the changed entities are read again.
    const EntityTable &entities = *store.entityTables[table];
    Reader reader(store, nullptr);
    QList<Record> records;
    records.reserve(qsizetype(entities.slots.size()));
    for (quint32 slot = 0; slot < entities.slots.size(); ++slot) {
        if (!entities.effective(slot))
            continue;
        Record record = reader.entity(table, slot, entity, Dependent(), false);
        if (!record.isNull())
            records.append(std::move(record));
    }
    if (order)
        std::stable_sort(records.begin(), records.end(), order);
    QVariantList list;
    list.reserve(records.size());
    for (Record &record : records)
        list.append(variantOf(std::move(record)));
    value = list;
    full = false;
    changedSlots.clear();
    ++generation;
    return value;
}

QVariant CountView::read(StorePrivate &store, const Schema::QueryWhere &where)
{
    if (!attach(store))
        return qint64(0);
    if (!full && changedSlots.empty())
        return count;
    const EntityTable &entities = *store.entityTables[table];
    Reader reader(store, nullptr);
    const qint64 before = count;
    auto evaluate = [&](quint32 slot) {
        if (counted.size() <= slot)
            counted.resize(std::max<size_t>(entities.slots.size(), slot + 1), 0);
        qint8 now = 0;
        if (slot < entities.slots.size() && entities.effective(slot)) {
            const Record record = reader.entity(table, slot, entity, Dependent(), false);
            now = !record.isNull() && where(record) ? 1 : 0;
        }
        count += now - counted[slot];
        counted[slot] = now;
    };
    if (full) {
        counted.assign(entities.slots.size(), 0);
        count = 0;
        for (quint32 slot = 0; slot < entities.slots.size(); ++slot)
            evaluate(slot);
    } else {
        // Only the entities that changed are tested again (a slot listed twice: once).
        std::sort(changedSlots.begin(), changedSlots.end());
        changedSlots.erase(std::unique(changedSlots.begin(), changedSlots.end()),
                           changedSlots.end());
        for (quint32 slot : changedSlots)
            evaluate(slot);
    }
    full = false;
    changedSlots.clear();
    if (count != before || generation == 0)
        ++generation;
    return count;
}

qint64 IndexView::find(StorePrivate &store, const QString &value)
{
    if (!attach(store))
        return -1;
    const EntityTable &entities = *store.entityTables[table];
    auto reindex = [&](quint32 slot) {
        if (valueOf.size() <= slot)
            valueOf.resize(std::max<size_t>(entities.slots.size(), slot + 1));
        QString &old = valueOf[slot];
        if (!old.isEmpty()) {
            const auto it = slotOf.constFind(old);
            if (it != slotOf.cend() && it.value() == slot)
                slotOf.erase(it);
            old.clear();
        }
        const Node *node = slot < entities.slots.size() ? entities.effective(slot) : nullptr;
        const Value *field = node ? node->field(QStringView(this->field)) : nullptr;
        if (!field)
            return;
        old = pkText(*field, node);
        if (!old.isEmpty())
            slotOf.insert(old, slot); // unique: a later holder of the value wins
    };
    if (full) {
        slotOf.clear();
        valueOf.assign(entities.slots.size(), QString());
        for (quint32 slot = 0; slot < entities.slots.size(); ++slot)
            reindex(slot);
    } else {
        for (quint32 slot : changedSlots)
            reindex(slot);
    }
    full = false;
    changedSlots.clear();
    const auto found = slotOf.constFind(value);
    return found == slotOf.cend() ? -1 : qint64(found.value());
}

} // namespace detail

namespace {
// The view of (\a identity, \a name), made when new; it keeps \a keep (its schema) alive.
template<typename View, typename... Args>
View &tableView(StorePrivate &store, const Schema &keep, const void *identity, const QString &name,
                Args &&...args)
{
    const QPair<const void *, QString> key(identity, name);
    if (TableView *found = store.tableViewIndex.value(key))
        return static_cast<View &>(*found);
    store.tableViewStore.push_back(std::make_unique<View>(std::forward<Args>(args)...));
    auto &view = static_cast<View &>(*store.tableViewStore.back());
    view.schema = keep;
    store.tableViewIndex.insert(key, &view);
    return view;
}
} // namespace

std::pair<QVariant, quint64> StorePrivate::readTableView(const Schema &schema)
{
    // Views are found by the schema's definition (its shared data, kept alive by the view).
    const void *identity = SchemaPrivate::get(schema);
    if (schema.kind() == Schema::Kind::All) {
        auto &view = tableView<AllView>(*this, schema, identity, {}, schema.entitySchema());
        const QVariant value = view.read(*this, schema.allOrder());
        return {value, view.generation};
    }
    if (schema.kind() != Schema::Kind::Query)
        return {};
    if (const Schema::QueryWhere where = schema.queryWhere()) {
        auto &view = tableView<CountView>(*this, schema, identity, {}, schema.entitySchema());
        const QVariant value = view.read(*this, where);
        return {value, view.generation};
    }
    auto &view = tableView<QueryView>(*this, schema, identity, {}, schema.entitySchema());
    const Schema input = schema.itemSchema();
    if (input.kind() != Schema::Kind::All && input.kind() != Schema::Kind::Query) {
        qCWarning(lcStore) << "Schema::query: the input must be an All or a Query schema, not"
                           << input.key();
        return {};
    }
    const auto [inputValue, inputGeneration] = readTableView(input);
    if (!view.computed || inputGeneration != view.inputGeneration) {
        const QVariant value
            = schema.queryCompute() ? schema.queryCompute()(inputValue) : inputValue;
        if (!view.computed || value != view.value)
            ++view.generation;
        view.value = value;
        view.inputGeneration = inputGeneration;
        view.computed = true;
    }
    return {view.value, view.generation};
}

qint64 StorePrivate::findByIndex(const EntitySchema &entity, const QString &field,
                                 const QString &value)
{
    auto &view = tableView<IndexView>(*this, Schema(), EntitySchemaPrivate::get(entity), field,
                                      entity, field);
    return view.find(*this, value);
}

} // namespace DataClient
