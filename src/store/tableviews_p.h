// Views over a whole entity table, kept up to date entity by entity: the list of an All schema,
// a Query (a count kept per entity, or a computation over its input) and the index of a unique
// field (EntitySchema::withIndexes()). Each watches the EntityViews of its table (memo_p.h), so
// that it hears of every changed entity, also of one changed through an entity it embeds.
#pragma once

#include "memo_p.h"

#include <DataClient/schema.h>

#include <QtCore/QHash>
#include <QtCore/QVariant>

#include <climits>
#include <vector>

namespace DataClient {
class StorePrivate;
}

namespace DataClient::detail {

class TableView : public SlotWatcher
{
public:
    explicit TableView(const EntitySchema &entity) : entity(entity) { }
    void slotChanged(quint32 slot) override
    {
        if (full)
            return;
        if (changedSlots.size() >= MaxChanged) { // many: going over the whole table is cheaper
            full = true;
            changedSlots.clear();
            return;
        }
        changedSlots.push_back(slot);
    }
    //! Starts watching the table once it exists; false while it does not.
    bool attach(StorePrivate &store);

    static constexpr size_t MaxChanged = 4096;
    static constexpr quint32 NoTable = UINT_MAX;
    EntitySchema entity;
    Schema schema; // the All or Query it was made for: kept, so its address is not reused
    quint32 table = NoTable;
    bool full = true; // everything to (re)read
    std::vector<quint32> changedSlots; // else: the slots changed since the last read
    quint64 generation = 0; // changes whenever the value does
};

//! The list of Schema::all().
class AllView : public TableView
{
public:
    using TableView::TableView;
    QVariant read(StorePrivate &store, const Schema::AllOrder &order);
    QVariant value = QVariantList();
};

//! Schema::queryCount(): whether each entity counts, and how many do.
class CountView : public TableView
{
public:
    using TableView::TableView;
    QVariant read(StorePrivate &store, const Schema::QueryWhere &where);
    std::vector<qint8> counted; // by slot
    qint64 count = 0;
};

//! Schema::query(): the value computed from its input's, kept until the input's changes.
class QueryView : public TableView
{
public:
    using TableView::TableView;
    QVariant value;
    quint64 inputGeneration = 0;
    bool computed = false;
};

//! A unique field's index: value -> slot.
class IndexView : public TableView
{
public:
    IndexView(const EntitySchema &entity, const QString &field)
        : TableView(entity), field(field) { }
    qint64 find(StorePrivate &store, const QString &value);
    QString field;
    QHash<QString, quint32> slotOf;
    std::vector<QString> valueOf; // by slot: the value it is indexed under
};

} // namespace DataClient::detail
