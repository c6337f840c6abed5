#include <DataClient/inspectortimelinemodel.h>

#include <DataClient/controller.h>
#include <DataClient/manager.h>
#include <DataClient/private/controllerinspection_p.h>

#include <QtCore/QDateTime>

#include <iterator>

namespace DataClient {

using detail::ChangeOrigin;

namespace {
QString originName(int origin)
{
    switch (ChangeOrigin(origin)) {
    case ChangeOrigin::Answer:
        return QStringLiteral("answer");
    case ChangeOrigin::Write:
        return QStringLiteral("write"); // set(), setResponse(), remove()
    case ChangeOrigin::Invalidation:
        return QStringLiteral("invalidation");
    case ChangeOrigin::Reset:
        return QStringLiteral("reset");
    case ChangeOrigin::Push:
        return QStringLiteral("push");
    case ChangeOrigin::GarbageCollection:
        return QStringLiteral("garbage collection");
    case ChangeOrigin::Hydration:
        return QStringLiteral("read from disk");
    case ChangeOrigin::Dropped:
        return QStringLiteral("dropped");
    case ChangeOrigin::Optimistic:
        return QStringLiteral("optimistic guess");
    case ChangeOrigin::Rollback:
        return QStringLiteral("rollback");
    case ChangeOrigin::Other:
        break;
    }
    return QStringLiteral("change");
}

//! The first \a max of \a names, then "and N more" when there are more (\a total).
QStringList cut(QStringList names, qsizetype total, qsizetype max)
{
    if (total > max) {
        names = names.mid(0, max);
        names.append(QStringLiteral("and %1 more").arg(total - max));
    }
    return names;
}
} // namespace

InspectorTimelineModel::InspectorTimelineModel(QObject *parent) : QAbstractTableModel(parent) { }
InspectorTimelineModel::~InspectorTimelineModel() = default;

void InspectorTimelineModel::setController(Controller *controller)
{
    disconnect(m_changed);
    const bool hadRows = !m_rows.isEmpty();
    beginResetModel();
    m_controller = controller;
    m_rows.clear();
    m_requests.clear();
    endResetModel();
    if (hadRows)
        Q_EMIT countChanged();
    if (controller) {
        m_changed
            = connect(controller, &Controller::changed, this, &InspectorTimelineModel::onChanged);
    }
}

void InspectorTimelineModel::setLimit(int limit)
{
    m_limit = qMax(0, limit);
    trim();
}

void InspectorTimelineModel::requestSeen(const ManagedRequest &request, bool finished)
{
    if (m_requests.size() > 4096)
        m_requests.clear(); // requests never finished (given up): their changes go unnamed
    m_requests.insert(request.id(), {request.method(), request.url()});
    if (!finished)
        return;
    // Its last change (its answer, its rollback) is emitted right after this step: forgotten
    // in the next event-loop turn.
    m_finished.append(request.id());
    if (m_finished.size() > 1)
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            for (const quint64 id : std::as_const(m_finished))
                m_requests.remove(id);
            m_finished.clear();
        },
        Qt::QueuedConnection);
}

void InspectorTimelineModel::onChanged(const ChangeSet &changes)
{
    if (!m_controller || m_limit == 0)
        return;
    Row row;
    row.at = QDateTime::currentMSecsSinceEpoch();
    quint64 request = 0;
    row.origin = int(detail::changeOrigin(m_controller, &request));
    if (const auto it = m_requests.constFind(request); request != 0 && it != m_requests.cend()) {
        row.requestId = request;
        row.method = it->first;
        row.url = it->second;
    }
    row.changes = changes; // shared: no pk is read here
    const int at = int(m_rows.size());
    beginInsertRows({}, at, at);
    m_rows.append(std::move(row));
    endInsertRows();
    trim();
    Q_EMIT countChanged();
}

void InspectorTimelineModel::trim()
{
    const int excess = int(m_rows.size()) - m_limit;
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_rows.remove(0, excess);
    endRemoveRows();
    Q_EMIT countChanged();
}

int InspectorTimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int InspectorTimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList InspectorTimelineModel::entityNames(const Row &row) const
{
    QStringList names;
    qsizetype total = 0;
    for (const EntityRef &ref : row.changes.entities) {
        if (ref.key.startsWith(u'['))
            continue; // a collection (a list's rows): its key in results says which
        if (++total <= MaxNames)
            names.append(ref.key + u':' + ref.pk);
    }
    names.sort();
    return cut(names, total, MaxNames);
}

QStringList InspectorTimelineModel::resultNames(const Row &row) const
{
    QStringList names;
    for (const QString &key : row.changes.results) {
        if (names.size() < MaxNames)
            names.append(key);
    }
    names.sort();
    return cut(names, row.changes.results.size(), MaxNames);
}

QString InspectorTimelineModel::summary(const Row &row) const
{
    QString text = QDateTime::fromMSecsSinceEpoch(row.at).toString(QStringLiteral("HH:mm:ss.zzz"))
        + u' ' + originName(row.origin);
    if (row.requestId != 0)
        text += u' ' + QString::fromLatin1(row.method) + u' ' + row.url.toDisplayString();
    const QStringList entities = entityNames(row);
    const QStringList results = resultNames(row);
    text += QStringLiteral(": ") + (entities + results).join(QStringLiteral(", "));
    return text;
}

QVariant InspectorTimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Time:
            return QDateTime::fromMSecsSinceEpoch(row.at).toString(QStringLiteral("HH:mm:ss.zzz"));
        case Origin:
            return originName(row.origin);
        case Request:
            return row.requestId == 0
                ? QString()
                : QString::fromLatin1(row.method) + u' ' + row.url.toDisplayString();
        case Entities:
            return entityNames(row).join(QStringLiteral(", "));
        case Results:
            return resultNames(row).join(QStringLiteral(", "));
        default:
            return {};
        }
    }
    switch (role) {
    case TimeRole:
        return QDateTime::fromMSecsSinceEpoch(row.at);
    case OriginRole:
        return originName(row.origin);
    case RequestIdRole:
        return row.requestId;
    case MethodRole:
        return QString::fromLatin1(row.method);
    case UrlRole:
        return row.url.toDisplayString();
    case EntitiesRole:
        return entityNames(row);
    case EntityCountRole:
        return int(row.changes.entities.size());
    case ResultsRole:
        return resultNames(row);
    case SummaryRole:
        return summary(row);
    default:
        return {};
    }
}

QVariant InspectorTimelineModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[] = {"Time", "Origin", "Request", "Entities", "Results"};
    static_assert(std::size(names) == ColumnCount, "one header per column");
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

QHash<int, QByteArray> InspectorTimelineModel::roleNames() const
{
    return {{TimeRole, "time"},
            {OriginRole, "origin"},
            {RequestIdRole, "requestId"},
            {MethodRole, "method"},
            {UrlRole, "url"},
            {EntitiesRole, "entities"},
            {EntityCountRole, "entityCount"},
            {ResultsRole, "results"},
            {SummaryRole, "summary"}};
}

} // namespace DataClient
