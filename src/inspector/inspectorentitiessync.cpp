// How InspectorEntitiesModel follows the store: the changes of an event-loop turn are kept as
// they come (shared sets, no pk read), and caught up in the next turn with the smallest signals.
// The cost stays with what changed: an edit of shown entities reads only their rows, a type
// filled at once (a first page of 10k) is one insertion without hashing a pk.
#include <DataClient/changeset.h>
#include <DataClient/controller.h>
#include <DataClient/inspectorentitiesmodel.h>
#include <DataClient/store.h>

#include "rangesignals_p.h"

#include <utility>

namespace DataClient {

namespace {
//! Beyond this many changed entities of one type, every row of it is said changed (one run).
constexpr qsizetype BulkChange = 4096;
} // namespace

void InspectorEntitiesModel::onChanged(const ChangeSet &changes)
{
    // Many writes in one event-loop turn (a page, a replayed outbox) make one refresh.
    if (!changes.entities.isEmpty()) {
        m_pending.append(changes.entities);
        // Rows nothing has looked at yet are shown again at once: their pks, read later, could
        // not be those of the rows shown before this change.
        for (int row = 0; row < m_types.size(); ++row) {
            if (m_types.at(row).unread >= 0 && changes.entities.containsKey(m_types.at(row).key))
                showAgain(row);
        }
    }
    scheduleRefresh();
}

void InspectorEntitiesModel::fill(Type &type) const
{
    const Store &store = m_controller->store();
    // Without optimistic layers the entities shown are the committed ones: counted without
    // making a pk string (10k of them cost a write of 10k entities a tenth more).
    if (store.optimisticLayers().isEmpty()) {
        type.unread = store.entityCount(type.key);
        type.pks.clear();
    } else {
        type.pks = store.entityPks(type.key);
        type.unread = -1;
    }
    type.indexed = false;
}

void InspectorEntitiesModel::showAgain(int typeRow)
{
    Type &type = m_types[typeRow];
    const QModelIndex parent = createIndex(typeRow, 0, quintptr(0));
    if (type.size() > 0) {
        beginRemoveRows(parent, 0, type.size() - 1);
        type.unread = -1;
        type.pks.clear();
        endRemoveRows();
    }
    Type filled = type;
    fill(filled);
    if (filled.size() > 0) {
        beginInsertRows(parent, 0, filled.size() - 1);
        type = std::move(filled);
        endInsertRows();
    }
    const QModelIndex typeIndex = createIndex(typeRow, Fields, quintptr(0));
    Q_EMIT dataChanged(typeIndex, typeIndex, {Qt::DisplayRole, CountRole});
}

bool InspectorEntitiesModel::read(const Type &type) const
{
    if (type.unread < 0)
        return true;
    if (!m_controller)
        return false;
    type.pks = m_controller->store().entityPks(type.key);
    if (type.pks.size() != type.unread) { // (a store that counts otherwise: never shown wrong)
        type.pks.clear();
        return false;
    }
    type.unread = -1;
    type.indexed = false;
    return true;
}

void InspectorEntitiesModel::scheduleRefresh()
{
    if (m_refreshScheduled)
        return;
    m_refreshScheduled = true;
    QMetaObject::invokeMethod(this, &InspectorEntitiesModel::refresh, Qt::QueuedConnection);
}

void InspectorEntitiesModel::refresh()
{
    m_refreshScheduled = false;
    const QList<EntityRefSet> pending = std::exchange(m_pending, {});
    if (!m_controller)
        return;
    syncTypes();
    QSet<QString> dirtyTypes = std::exchange(m_newTypes, {});
    for (const EntityRefSet &changed : pending) {
        for (const QString &key : changed.keys()) {
            if (!key.startsWith(u'[')) // a collection: not a row here
                dirtyTypes.insert(key);
        }
    }
    for (int row = 0; row < m_types.size(); ++row) {
        const QString key = m_types.at(row).key;
        if (!dirtyTypes.contains(key))
            continue;
        const Type &type = m_types.at(row);
        if (type.unread >= 0)
            continue; // shown again when it changed (onChanged())
        if (type.size() == 0) {
            syncEntities(row, {}, false);
            continue;
        }
        // The pks changed (made only now, and only for a type that had rows).
        QSet<QString> pks;
        bool bulk = false;
        for (const EntityRefSet &changed : pending) {
            if (bulk || !changed.containsKey(key))
                continue;
            for (const EntityRef &ref : changed) {
                if (ref.key == key)
                    pks.insert(ref.pk);
            }
            bulk = pks.size() > BulkChange;
        }
        if (bulk || !updateInPlace(row, pks))
            syncEntities(row, pks, bulk);
    }
}

bool InspectorEntitiesModel::updateInPlace(int typeRow, const QSet<QString> &pks)
{
    // An edit (set(), an answer, a guess) of entities shown before and still shown: only their
    // rows change. Anything else (an entity new or gone) reads the type's pks whole.
    const Type &type = m_types.at(typeRow);
    if (!read(type))
        return false;
    const Store &store = m_controller->store();
    QList<int> changed;
    changed.reserve(pks.size());
    for (const QString &pk : pks) {
        const int row = rowOf(type, pk);
        const bool shown = !store.preview({type.key, pk}, 1).isEmpty();
        if (row >= 0 && shown)
            changed.append(row);
        else if (row >= 0 || shown)
            return false;
        // else: shown neither before nor now (a deleted entity written again): no row
    }
    emitChangedRows(type, std::move(changed));
    return true;
}

void InspectorEntitiesModel::syncTypes()
{
    const QStringList keys = m_controller->store().entityKeys(); // sorted, as m_types is
    QStringList shown;
    for (const Type &type : std::as_const(m_types))
        shown.append(type.key);
    detail::syncSortedRows(
        shown, keys,
        [this](int row) {
            beginRemoveRows({}, row, row);
            m_types.removeAt(row);
            endRemoveRows();
        },
        [this](int row, const QString &key) {
            beginInsertRows({}, row, row);
            Type type;
            type.key = key;
            type.id = m_nextTypeId++;
            m_types.insert(row, std::move(type));
            endInsertRows();
            m_newTypes.insert(key); // its entities next
        });
}

void InspectorEntitiesModel::syncEntities(int typeRow, const QSet<QString> &dirty, bool bulk)
{
    Type &type = m_types[typeRow];
    const QModelIndex parent = createIndex(typeRow, 0, quintptr(0));
    const QModelIndex typeIndex = createIndex(typeRow, Fields, quintptr(0));
    if (type.size() == 0) {
        // A type filled at once (a first page): one insertion, its pks read when looked at.
        showAgain(typeRow);
        return;
    }
    const QStringList now = m_controller->store().entityPks(type.key);
    if (now == type.pks) {
        // A page written again over the same entities: no row moves, no pk hashed.
        if (bulk) {
            Q_EMIT dataChanged(createIndex(0, 0, type.id),
                               createIndex(int(now.size()) - 1, ColumnCount - 1, type.id));
        } else {
            QList<int> changed;
            for (const QString &pk : dirty) {
                if (const int row = rowOf(type, pk); row >= 0)
                    changed.append(row);
            }
            emitChangedRows(type, std::move(changed));
        }
        return;
    }
    // Entities keep their order (the store's slots); new ones take any place (a freed slot).
    const QSet<QString> present(now.cbegin(), now.cend());
    for (int row = int(type.pks.size()) - 1; row >= 0;) {
        if (present.contains(type.pks.at(row))) {
            --row;
            continue;
        }
        int first = row;
        while (first > 0 && !present.contains(type.pks.at(first - 1)))
            --first;
        beginRemoveRows(parent, first, row);
        type.pks.remove(first, row - first + 1);
        type.indexed = false;
        endRemoveRows();
        row = first - 1;
    }
    const QSet<QString> kept(type.pks.cbegin(), type.pks.cend());
    QStringList keptInOrder;
    for (const QString &pk : now) {
        if (kept.contains(pk))
            keptInOrder.append(pk);
    }
    if (keptInOrder != type.pks && !type.pks.isEmpty()) {
        // An entity dropped and stored again in another slot within one turn: the rows are
        // not in the store's order any more; show them again (two signals).
        beginRemoveRows(parent, 0, int(type.pks.size()) - 1);
        type.pks.clear();
        type.indexed = false;
        endRemoveRows();
    }
    for (int row = 0; row < now.size();) {
        if (row < type.pks.size() && type.pks.at(row) == now.at(row)) {
            ++row;
            continue;
        }
        int last = row;
        while (last + 1 < now.size()
               && !(row < type.pks.size() && type.pks.at(row) == now.at(last + 1)))
            ++last;
        beginInsertRows(parent, row, last);
        for (int i = row; i <= last; ++i)
            type.pks.insert(i, now.at(i));
        type.indexed = false;
        endInsertRows();
        row = last + 1;
    }
    Q_EMIT dataChanged(typeIndex, typeIndex, {Qt::DisplayRole, CountRole});
    // The changed entities that were there before and still are: dataChanged over each run.
    QList<int> changed;
    if (bulk) {
        for (int row = 0; row < type.pks.size(); ++row) {
            if (kept.contains(type.pks.at(row)))
                changed.append(row);
        }
    } else {
        for (const QString &pk : dirty) {
            const int row = rowOf(type, pk);
            if (row >= 0 && kept.contains(pk))
                changed.append(row);
        }
    }
    emitChangedRows(type, std::move(changed));
}

void InspectorEntitiesModel::emitChangedRows(const Type &type, QList<int> rows)
{
    detail::emitRuns(std::move(rows), [&](int first, int last) {
        Q_EMIT dataChanged(createIndex(first, 0, type.id),
                           createIndex(last, ColumnCount - 1, type.id));
    });
}

int InspectorEntitiesModel::rowOf(const Type &type, const QString &pk) const
{
    if (!read(type))
        return -1;
    // Built when first needed after the rows moved, not on every write: a bulk write of 10k
    // entities pays no hash of 10k pks unless something looks one up.
    if (!type.indexed) {
        type.rows.clear();
        type.rows.reserve(type.pks.size());
        for (int row = 0; row < type.pks.size(); ++row)
            type.rows.insert(type.pks.at(row), row);
        type.indexed = true;
    }
    return type.rows.value(pk, -1);
}

} // namespace DataClient
