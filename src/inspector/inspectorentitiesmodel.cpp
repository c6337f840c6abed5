#include <DataClient/inspectorentitiesmodel.h>

#include <DataClient/changeset.h>
#include <DataClient/controller.h>
#include <DataClient/store.h>

#include "rangesignals_p.h"

namespace DataClient {

namespace {
QString refName(const EntityRef &ref)
{
    return ref.key + u':' + ref.pk;
}
} // namespace

InspectorEntitiesModel::InspectorEntitiesModel(QObject *parent) : QAbstractItemModel(parent) { }
InspectorEntitiesModel::~InspectorEntitiesModel() = default;

void InspectorEntitiesModel::setController(Controller *controller)
{
    disconnect(m_changed);
    beginResetModel();
    m_controller = controller;
    m_types.clear();
    m_dirtyTypes.clear();
    m_dirtyEntities.clear();
    m_allDirty = false;
    if (controller) {
        const Store &store = controller->store();
        for (const QString &key : store.entityKeys()) {
            Type type;
            type.key = key;
            type.id = m_nextTypeId++;
            type.pks = store.entityPks(key);
            reindex(type);
            m_types.append(std::move(type));
        }
        m_changed
            = connect(controller, &Controller::changed, this, &InspectorEntitiesModel::onChanged);
    }
    endResetModel();
}

QModelIndex InspectorEntitiesModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < m_types.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= m_types.size())
        return {};
    const Type &type = m_types.at(parent.row());
    return row < type.pks.size() ? createIndex(row, column, type.id) : QModelIndex();
}

QModelIndex InspectorEntitiesModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    const int row = rowOfTypeId(child.internalId());
    return row < 0 ? QModelIndex() : createIndex(row, 0, quintptr(0));
}

int InspectorEntitiesModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_types.size());
    if (parent.internalId() != 0 || parent.column() != 0 || parent.row() >= m_types.size())
        return 0;
    return int(m_types.at(parent.row()).pks.size());
}

int InspectorEntitiesModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant InspectorEntitiesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_controller)
        return {};
    if (index.internalId() == 0) {
        const Type &type = m_types.at(index.row());
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case Name:
                return type.key;
            case Fields:
                return QStringLiteral("%1 entities").arg(type.pks.size());
            default:
                return {};
            }
        }
        switch (role) {
        case TypeRole:
            return type.key;
        case CountRole:
            return int(type.pks.size());
        default:
            return {};
        }
    }
    const int typeRow = rowOfTypeId(index.internalId());
    if (typeRow < 0)
        return {};
    const Type &type = m_types.at(typeRow);
    const EntityRef ref {type.key, type.pks.at(index.row())};
    const Store &store = m_controller->store();
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Name:
            role = PkRole;
            break;
        case Fields:
            role = FieldsRole;
            break;
        case References:
            return data(index, ReferencesRole).toStringList().join(QStringLiteral(", "));
        case State:
            return store.isOptimistic(ref) ? QStringLiteral("optimistic") : QString();
        default:
            return {};
        }
    }
    switch (role) {
    case TypeRole:
        return type.key;
    case PkRole:
        return ref.pk;
    case FieldsRole:
        return store.preview(ref, PreviewChars);
    case ReferencesRole: {
        QStringList names;
        for (const EntityRef &to : store.references(ref))
            names.append(refName(to));
        return names;
    }
    case OptimisticRole:
        return store.isOptimistic(ref);
    default:
        return {};
    }
}

QVariant InspectorEntitiesModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    static const char *const names[] = {"Type / pk", "Fields", "References", "State"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

QHash<int, QByteArray> InspectorEntitiesModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert({{TypeRole, "type"},
                  {PkRole, "pk"},
                  {FieldsRole, "fields"},
                  {ReferencesRole, "references"},
                  {OptimisticRole, "optimistic"},
                  {CountRole, "count"}});
    return names;
}

QModelIndex InspectorEntitiesModel::entityIndex(const QString &type, const QString &pk) const
{
    const int row = typeRow(type);
    if (row < 0)
        return {};
    const int entity = m_types.at(row).rows.value(pk, -1);
    return entity < 0 ? QModelIndex() : createIndex(entity, 0, m_types.at(row).id);
}

int InspectorEntitiesModel::typeRow(const QString &type) const
{
    for (int row = 0; row < m_types.size(); ++row) {
        if (m_types.at(row).key == type)
            return row;
    }
    return -1;
}

QStringList InspectorEntitiesModel::referencedBy(const QString &type, const QString &pk) const
{
    QStringList by;
    if (!m_controller)
        return by;
    const Store &store = m_controller->store();
    const EntityRef target {type, pk};
    for (const Type &from : m_types) {
        for (const QString &fromPk : from.pks) {
            const EntityRef ref {from.key, fromPk};
            if (store.references(ref).contains(target))
                by.append(refName(ref));
        }
    }
    return by;
}

QStringList InspectorEntitiesModel::shownIn(const QString &type, const QString &pk) const
{
    QStringList keys;
    if (!m_controller)
        return keys;
    const Store &store = m_controller->store();
    const EntityRef target {type, pk};
    for (const QString &key : store.resultKeys()) {
        if (store.resultEntities(key).contains(target))
            keys.append(key);
    }
    return keys;
}

void InspectorEntitiesModel::onChanged(const ChangeSet &changes)
{
    // Many writes in one event-loop turn (a page, a replayed outbox) make one refresh.
    if (!m_allDirty) {
        if (changes.entities.size() > 4096) {
            m_allDirty = true; // a bulk write: every type is compared whole anyway
            m_dirtyEntities.clear();
        } else {
            for (const EntityRef &ref : changes.entities) {
                if (ref.key.startsWith(u'['))
                    continue; // a collection: not a row here
                m_dirtyTypes.insert(ref.key);
                m_dirtyEntities[ref.key].insert(ref.pk);
            }
        }
    }
    scheduleRefresh();
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
    if (!m_controller)
        return;
    syncTypes();
    for (int row = 0; row < m_types.size(); ++row) {
        if (m_allDirty || m_dirtyTypes.contains(m_types.at(row).key))
            syncEntities(row);
    }
    m_dirtyTypes.clear();
    m_dirtyEntities.clear();
    m_allDirty = false;
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
            m_dirtyTypes.insert(key); // its entities next
        });
}

void InspectorEntitiesModel::syncEntities(int typeRow)
{
    Type &type = m_types[typeRow];
    const QModelIndex parent = createIndex(typeRow, 0, quintptr(0));
    const QStringList now = m_controller->store().entityPks(type.key);
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
        endInsertRows();
        row = last + 1;
    }
    reindex(type);
    const QModelIndex typeIndex = createIndex(typeRow, Fields, quintptr(0));
    Q_EMIT dataChanged(typeIndex, typeIndex, {Qt::DisplayRole, CountRole});
    // The changed entities that were there before and still are: dataChanged over each run.
    QList<int> changed;
    if (m_allDirty) {
        for (int row = 0; row < type.pks.size(); ++row) {
            if (kept.contains(type.pks.at(row)))
                changed.append(row);
        }
    } else {
        for (const QString &pk : m_dirtyEntities.value(type.key)) {
            const int row = type.rows.value(pk, -1);
            if (row >= 0 && kept.contains(pk))
                changed.append(row);
        }
    }
    detail::emitRuns(changed, [&](int first, int last) {
        Q_EMIT dataChanged(createIndex(first, 0, type.id),
                           createIndex(last, ColumnCount - 1, type.id));
    });
}

void InspectorEntitiesModel::reindex(Type &type)
{
    type.rows.clear();
    type.rows.reserve(type.pks.size());
    for (int row = 0; row < type.pks.size(); ++row)
        type.rows.insert(type.pks.at(row), row);
}

int InspectorEntitiesModel::rowOfTypeId(quintptr id) const
{
    for (int row = 0; row < m_types.size(); ++row) {
        if (m_types.at(row).id == id)
            return row;
    }
    return -1;
}

} // namespace DataClient
