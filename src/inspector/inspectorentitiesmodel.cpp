#include <DataClient/inspectorentitiesmodel.h>

#include <DataClient/controller.h>
#include <DataClient/store.h>

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
    m_pending.clear();
    m_newTypes.clear();
    if (controller) {
        const Store &store = controller->store();
        for (const QString &key : store.entityKeys()) {
            Type type;
            type.key = key;
            type.id = m_nextTypeId++;
            fill(type);
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
    return row < type.size() ? createIndex(row, column, type.id) : QModelIndex();
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
    return m_types.at(parent.row()).size();
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
                return QStringLiteral("%1 entities").arg(type.size());
            default:
                return {};
            }
        }
        switch (role) {
        case TypeRole:
            return type.key;
        case CountRole:
            return type.size();
        default:
            return {};
        }
    }
    const int typeRow = rowOfTypeId(index.internalId());
    if (typeRow < 0)
        return {};
    const Type &type = m_types.at(typeRow);
    if (!read(type))
        return {}; // shown again whole in the next event-loop turn
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
    static_assert(std::size(names) == ColumnCount, "one header per column");
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
    const int entity = rowOf(m_types.at(row), pk);
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
        if (!read(from))
            continue;
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

int InspectorEntitiesModel::rowOfTypeId(quintptr id) const
{
    for (int row = 0; row < m_types.size(); ++row) {
        if (m_types.at(row).id == id)
            return row;
    }
    return -1;
}

} // namespace DataClient
