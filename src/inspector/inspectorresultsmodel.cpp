#include <DataClient/inspectorresultsmodel.h>

#include <DataClient/changeset.h>
#include <DataClient/controller.h>
#include <DataClient/private/controllerinspection_p.h>
#include <DataClient/store.h>

#include "rangesignals_p.h"

namespace DataClient {

namespace {
QString statusName(ExpiryStatus status)
{
    switch (status) {
    case ExpiryStatus::Valid:
        return QStringLiteral("valid");
    case ExpiryStatus::Stale:
        return QStringLiteral("stale");
    case ExpiryStatus::Invalid:
        return QStringLiteral("invalid");
    }
    return {};
}
} // namespace

InspectorResultsModel::InspectorResultsModel(QObject *parent) : QAbstractTableModel(parent) { }
InspectorResultsModel::~InspectorResultsModel() = default;

void InspectorResultsModel::setController(Controller *controller)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        disconnect(connection);
    m_connections.clear();
    beginResetModel();
    m_controller = controller;
    m_keys = controller ? detail::inspectedKeys(controller) : QStringList();
    m_dirty.clear();
    m_bytes.clear();
    if (controller) {
        m_connections.append(
            connect(controller, &Controller::changed, this, [this](const ChangeSet &changes) {
                for (const QString &key : changes.results)
                    markDirty(key);
            }));
        m_connections.append(connect(controller, &Controller::fetchStateChanged, this,
                                     &InspectorResultsModel::markDirty));
    }
    endResetModel();
}

int InspectorResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

int InspectorResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InspectorResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || !m_controller)
        return {};
    const QString &key = m_keys.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Key:
            role = KeyRole;
            break;
        case Status:
            role = StatusRole;
            break;
        case Age: {
            const qint64 age = data(index, AgeRole).toLongLong();
            return age < 0 ? QVariant() : QVariant(QStringLiteral("%1 s").arg(age / 1000));
        }
        case Error:
            role = ErrorRole;
            break;
        case Loading:
            return data(index, LoadingRole).toBool() ? QStringLiteral("loading") : QString();
        case Entities:
            role = EntitiesRole;
            break;
        case Bytes: {
            const qint64 bytes = m_bytes.value(key, -1);
            return bytes < 0 ? QVariant() : QVariant(bytes);
        }
        case Watchers: {
            const int viewers = data(index, ViewersRole).toInt();
            const int subscribers = data(index, SubscribersRole).toInt();
            return subscribers ? QStringLiteral("%1 + %2 polling").arg(viewers).arg(subscribers)
                               : QString::number(viewers);
        }
        case Preview:
            role = PreviewRole;
            break;
        default:
            return {};
        }
    }
    const Store &store = m_controller->store();
    switch (role) {
    case KeyRole:
        return key;
    case StatusRole:
        return statusName(detail::inspectKey(m_controller, key).status);
    case AgeRole: {
        const qint64 fetchedAt = store.resultMeta(key).fetchedAt;
        return fetchedAt > 0 ? m_controller->now() - fetchedAt : qint64(-1);
    }
    case ErrorRole: {
        const auto error = detail::inspectKey(m_controller, key).error;
        return error ? error->message() : QString();
    }
    case LoadingRole:
        return detail::inspectKey(m_controller, key).loading > 0;
    case EntitiesRole:
        return int(store.resultEntities(key).size());
    case BytesRole:
        return m_bytes.value(key, -1);
    case ViewersRole:
        return detail::inspectKey(m_controller, key).viewers;
    case SubscribersRole:
        return detail::inspectKey(m_controller, key).subscribers;
    case PreviewRole:
        return store.resultPreview(key, PreviewChars);
    case SummaryRole: {
        const detail::KeyInspection state = detail::inspectKey(m_controller, key);
        QString line = key + u' ' + statusName(state.status);
        if (state.loading)
            line += QStringLiteral(", loading");
        if (state.error)
            line += QStringLiteral(", error %1").arg(state.error->status());
        return line + QStringLiteral(", %1 entities").arg(store.resultEntities(key).size());
    }
    default:
        return {};
    }
}

QVariant InspectorResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[]
        = {"Key", "Status", "Age", "Error", "Loading", "Entities", "Bytes", "Watchers", "Answer"};
    static_assert(std::size(names) == ColumnCount, "one header per column");
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

QHash<int, QByteArray> InspectorResultsModel::roleNames() const
{
    return {{KeyRole, "key"},         {StatusRole, "status"},   {AgeRole, "age"},
            {ErrorRole, "error"},     {LoadingRole, "loading"}, {EntitiesRole, "entities"},
            {BytesRole, "bytes"},     {ViewersRole, "viewers"}, {SubscribersRole, "subscribers"},
            {PreviewRole, "preview"}, {SummaryRole, "summary"}};
}

int InspectorResultsModel::rowOf(const QString &key) const
{
    const auto it = std::lower_bound(m_keys.cbegin(), m_keys.cend(), key);
    return it != m_keys.cend() && *it == key ? int(it - m_keys.cbegin()) : -1;
}

void InspectorResultsModel::setAnswerBytes(const QString &key, qint64 bytes)
{
    m_bytes.insert(key, bytes);
    markDirty(key);
}

void InspectorResultsModel::markDirty(const QString &key)
{
    m_dirty.insert(key);
    scheduleRefresh();
}

void InspectorResultsModel::scheduleRefresh()
{
    if (m_refreshScheduled)
        return;
    m_refreshScheduled = true;
    QMetaObject::invokeMethod(this, &InspectorResultsModel::refresh, Qt::QueuedConnection);
}

void InspectorResultsModel::refresh()
{
    m_refreshScheduled = false;
    if (!m_controller)
        return;
    const QStringList wanted = detail::inspectedKeys(m_controller);
    const QSet<QString> before(m_keys.cbegin(), m_keys.cend());
    detail::syncSortedRows(
        QStringList(m_keys), wanted,
        [this](int row) {
            beginRemoveRows({}, row, row);
            m_keys.removeAt(row);
            endRemoveRows();
        },
        [this](int row, const QString &key) {
            beginInsertRows({}, row, row);
            m_keys.insert(row, key);
            endInsertRows();
        });
    QList<int> changed;
    for (const QString &key : std::as_const(m_dirty)) {
        const int row = rowOf(key);
        if (row >= 0 && before.contains(key))
            changed.append(row);
    }
    m_dirty.clear();
    detail::emitRuns(changed, [this](int first, int last) {
        Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
    });
}

} // namespace DataClient
