#include <DataClient/inspectorrequestsmodel.h>

#include <DataClient/changeset.h>
#include <DataClient/manager.h>
#include <DataClient/networkerror.h>

namespace DataClient {

InspectorRequestsModel::InspectorRequestsModel(QObject *parent) : QAbstractTableModel(parent) { }
InspectorRequestsModel::~InspectorRequestsModel() = default;

int InspectorRequestsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int InspectorRequestsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InspectorRequestsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Method:
            role = MethodRole;
            break;
        case Url:
            role = UrlRole;
            break;
        case Status:
            role = HttpStatusRole;
            break;
        case Attempts:
            role = AttemptsRole;
            break;
        case Duration:
            return row.durationMs < 0 ? QVariant()
                                      : QVariant(QStringLiteral("%1 ms").arg(row.durationMs));
        case Bytes:
            role = BytesRole;
            break;
        case KeysWritten:
            return row.keysWritten.join(QStringLiteral(", "));
        case State:
            role = StateRole;
            break;
        case Error:
            role = ErrorRole;
            break;
        default:
            return {};
        }
    }
    switch (role) {
    case MethodRole:
        return QString::fromLatin1(row.method);
    case UrlRole:
        return row.url.toString();
    case HttpStatusRole:
        return row.status;
    case AttemptsRole:
        return row.attempts;
    case DurationRole:
        return row.durationMs;
    case BytesRole:
        return row.bytes;
    case NotModifiedRole:
        return row.state == RowState::NotModified;
    case KeysWrittenRole:
        return row.keysWritten;
    case EntitiesWrittenRole:
        return int(row.entitiesWritten.size()); // the set's pks are made only now
    case StateRole:
        return stateName(row.state);
    case ErrorRole:
        return row.error;
    case KeyRole:
        return row.key;
    case SummaryRole:
        return summary(row);
    default:
        return {};
    }
}

QVariant InspectorRequestsModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[] = {"Method", "URL",          "Status", "Attempts", "Duration",
                                        "Bytes",  "Keys written", "State",  "Error"};
    static_assert(std::size(names) == ColumnCount, "one header per column");
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

QHash<int, QByteArray> InspectorRequestsModel::roleNames() const
{
    return {{MethodRole, "method"},
            {UrlRole, "url"},
            {HttpStatusRole, "httpStatus"},
            {AttemptsRole, "attempts"},
            {DurationRole, "duration"},
            {BytesRole, "bytes"},
            {NotModifiedRole, "notModified"},
            {KeysWrittenRole, "keysWritten"},
            {EntitiesWrittenRole, "entitiesWritten"},
            {StateRole, "state"},
            {ErrorRole, "error"},
            {KeyRole, "key"},
            {SummaryRole, "summary"}};
}

void InspectorRequestsModel::setHistoryLimit(int limit)
{
    m_historyLimit = qMax(0, limit);
    trimHistory();
}

int InspectorRequestsModel::inFlight() const
{
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(),
                             [](const Row &row) { return row.state == RowState::InFlight; }));
}

void InspectorRequestsModel::clear()
{
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
    Q_EMIT countChanged();
}

void InspectorRequestsModel::started(const ManagedRequest &request)
{
    rowFor(request);
}

int InspectorRequestsModel::rowFor(const ManagedRequest &request)
{
    // A request already in flight when the inspector attached shows from its next step on.
    const int existing = rowOf(request.id());
    if (existing >= 0)
        return existing;
    Row row;
    row.id = request.id();
    row.method = request.method();
    row.url = request.url();
    row.key = request.key();
    row.timer.start();
    const int at = int(m_rows.size());
    beginInsertRows({}, at, at);
    m_rows.append(std::move(row));
    endInsertRows();
    Q_EMIT countChanged();
    return at;
}

void InspectorRequestsModel::attempt(const ManagedRequest &request)
{
    const int row = rowFor(request);
    m_rows[row].attempts = request.attempt();
    rowChanged(row);
}

void InspectorRequestsModel::answered(const ManagedRequest &request)
{
    const int row = rowFor(request);
    Row &r = m_rows[row];
    r.status = request.status();
    r.bytes = request.bytesReceived();
    r.attempts = qMax(r.attempts, request.attempt());
    // A 304 the HTTP validators take over ends here: neither committed nor failed.
    if (r.status == 304)
        finish(row, RowState::NotModified);
    else
        rowChanged(row);
}

void InspectorRequestsModel::attemptFailed(const ManagedRequest &request, const NetworkError &error)
{
    const int row = rowFor(request);
    m_rows[row].error = error.message();
    rowChanged(row);
}

void InspectorRequestsModel::committed(const ManagedRequest &request, const ChangeSet &changes)
{
    const int row = rowFor(request);
    Row &r = m_rows[row];
    r.keysWritten = QStringList(changes.results.cbegin(), changes.results.cend());
    r.keysWritten.sort();
    r.entitiesWritten = changes.entities; // shared, no pk made
    r.error.clear();
    const QString key = r.key;
    const qint64 bytes = r.bytes;
    finish(row, RowState::Done);
    if (!key.isEmpty())
        Q_EMIT answerStored(key, bytes);
}

void InspectorRequestsModel::failed(const ManagedRequest &request, const NetworkError &error)
{
    const int row = rowFor(request);
    m_rows[row].error = error.message();
    finish(row, RowState::Failed);
}

void InspectorRequestsModel::storeReset()
{
    // Requests in flight end canceled: their answers are dropped.
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].state == RowState::InFlight)
            finish(row, RowState::Canceled);
    }
}

int InspectorRequestsModel::rowOf(quint64 id) const
{
    // The rows still changing are the recent ones: look from the end.
    for (qsizetype row = m_rows.size() - 1; row >= 0; --row) {
        if (m_rows[row].id == id)
            return int(row);
    }
    return -1;
}

void InspectorRequestsModel::finish(int row, RowState state)
{
    Row &r = m_rows[row];
    if (r.state != RowState::InFlight)
        return;
    r.state = state;
    r.durationMs = r.timer.elapsed();
    rowChanged(row);
    Q_EMIT countChanged(); // inFlight
    trimHistory();
}

void InspectorRequestsModel::rowChanged(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void InspectorRequestsModel::trimHistory()
{
    qsizetype finished = std::count_if(m_rows.cbegin(), m_rows.cend(), [](const Row &row) {
        return row.state != RowState::InFlight;
    });
    bool removed = false;
    for (int row = 0; finished > m_historyLimit && row < m_rows.size();) {
        if (m_rows[row].state == RowState::InFlight) {
            ++row;
            continue;
        }
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
        --finished;
        removed = true;
    }
    if (removed)
        Q_EMIT countChanged();
}

QString InspectorRequestsModel::stateName(RowState state)
{
    switch (state) {
    case RowState::InFlight:
        return QStringLiteral("in flight");
    case RowState::Done:
        return QStringLiteral("done");
    case RowState::NotModified:
        return QStringLiteral("not modified");
    case RowState::Failed:
        return QStringLiteral("failed");
    case RowState::Canceled:
        return QStringLiteral("canceled");
    }
    return {};
}

QString InspectorRequestsModel::summary(const Row &row) const
{
    QString line = QStringLiteral("%1 %2").arg(QString::fromLatin1(row.method), row.url.toString());
    if (row.status)
        line += QStringLiteral(" %1").arg(row.status);
    if (row.attempts > 1)
        line += QStringLiteral(" (%1 attempts)").arg(row.attempts);
    if (row.durationMs >= 0)
        line += QStringLiteral(" %1 ms").arg(row.durationMs);
    if (row.state != RowState::Done)
        line += QStringLiteral(" [%1]").arg(stateName(row.state));
    return line;
}

} // namespace DataClient
