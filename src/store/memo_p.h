// Memoized denormalization: views of entities, lists and results, with reverse
// dependencies so a write invalidates exactly what shows the changed data. A warm read is a
// flag check; one changed entity in a 10k list re-reads one row.
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/denormalized.h>
#include <DataClient/record.h>
#include <DataClient/schema.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QVarLengthArray>

#include <vector>

namespace DataClient::detail {

class EntityViews;
class ListView;
class ResultView;

//! Who must be told when a view changes: an entity view (views, slot), a list, or a result
//! (view, generation: a retired result view ignores stale notifications).
struct Dependent
{
    enum Kind : quint32 { EntityViewKind, ListKind, ResultKind };
    void *target = nullptr;
    quint32 slot = 0; // EntityViewKind: the slot; ResultKind: the generation
    Kind kind = EntityViewKind;
    friend bool operator==(const Dependent &a, const Dependent &b)
    {
        return a.target == b.target && a.slot == b.slot && a.kind == b.kind;
    }
};

//! Collects what an invalidation reaches, for the ChangeSet of the write.
struct Invalidation
{
    ChangeSet *changes = nullptr;
};

void notify(const Dependent &dependent, Invalidation &context);

//! Told about every invalidated slot of the EntityViews it watches (the views over a whole
//! entity table: All, counting Queries, unique-field indexes; tableviews_p.h).
class SlotWatcher
{
public:
    virtual ~SlotWatcher() = default;
    virtual void slotChanged(quint32 slot) = 0;
};

//! The Records of one entity table read with one EntitySchema.
class EntityViews
{
public:
    EntityViews(quint32 table, const EntitySchema &schema) : table(table), schema(schema) { }
    void invalidate(quint32 slot, Invalidation &context);
    void addEmbedder(quint32 slot, const Dependent &dependent);

    quint32 table;
    EntitySchema schema;
    std::vector<Record> views; // by slot; null = not cached
    //! By slot: who embeds that entity's Record (sized on first use: only embedded tables pay).
    std::vector<QList<Dependent>> embedders;
    QList<ListView *> watchers; // lists of this table's entities (told about every slot)
    QList<SlotWatcher *> slotWatchers; // views over the whole table (told about every slot)
};

//! A list of entities (a stored collection) as read with one item schema.
class ListView
{
public:
    ListView() = default;
    ~ListView();
    ListView(const ListView &) = delete;
    ListView &operator=(const ListView &) = delete;
    void itemChanged(quint32 slot, Invalidation &context);
    void markDirty(Invalidation &context, bool structural);
    void addParent(const Dependent &dependent);

    quint32 collectionTable = 0;
    quint32 collectionSlot = 0;
    EntityViews *items = nullptr;
    QList<quint32> rowSlots; // the slot shown in each row (missing entities are dropped)
    //! By slot: its row in rowSlots, or NoRow / SeveralRows (a list may hold an entity twice):
    //! a changed entity's row is found without scanning N rows.
    std::vector<qint32> rowOf;
    static constexpr qint32 NoRow = -1;
    static constexpr qint32 SeveralRows = -2;
    //! The value whose list patch (listpatch_p.h) is recorded; forgotten when the value changes.
    const void *patched = nullptr;
    std::vector<bool> members; // by slot: in the stored list (shown or missing)
    QVariant value; // a RowList of Records (chunked from RowList::ChunkedFrom rows)
    QVarLengthArray<quint32, 8> dirtySlots;
    bool dirty = true;
    bool structural = true;
    QList<Dependent> parents;
};

//! The memoized read of one result key.
class ResultView
{
public:
    void markDirty(Invalidation &context);

    QString key;
    quint32 generation = 0;
    Schema schema;
    bool dirty = true;
    Denormalized value;
};

} // namespace DataClient::detail
