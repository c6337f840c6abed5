#include <DataClient/inspectorstatusmodel.h>

#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/inspectorrequestsmodel.h>
#include <DataClient/outbox.h>
#include <DataClient/private/controllerinspection_p.h>
#include <DataClient/store.h>

#include <QtCore/QDateTime>
#include <QtCore/QLocale>

namespace DataClient {

namespace {
const char *const rowNames[]
    = {"controller",         "online",        "requests in flight", "entity types",
       "entities",           "results",       "optimistic layers",  "outbox",
       "memory used",        "memory budget", "garbage collection", "last collection",
       "collection dropped", "persistence",   "recorded requests"};
static_assert(std::size(rowNames) == InspectorStatusModel::RowCount);

//! "12:00:01: 2 results, 40 entities, 1 collection dropped" (or "none yet").
QString passText(const detail::GcPass &pass)
{
    if (pass.at == 0)
        return QStringLiteral("none yet");
    return QStringLiteral("%1: %2 results, %3 entities, %4 collections dropped")
        .arg(QDateTime::fromMSecsSinceEpoch(pass.at).toString(QStringLiteral("HH:mm:ss")))
        .arg(pass.results)
        .arg(pass.entities)
        .arg(pass.collections);
}

//! The names the pass dropped, the first GcPass::MaxNames of each kind, or "nothing".
QString droppedText(const detail::GcPass &pass)
{
    QStringList names = pass.resultKeys;
    if (pass.results > pass.resultKeys.size())
        names.append(
            QStringLiteral("and %1 more results").arg(pass.results - pass.resultKeys.size()));
    names += pass.entityNames;
    if (pass.entities > pass.entityNames.size())
        names.append(
            QStringLiteral("and %1 more entities").arg(pass.entities - pass.entityNames.size()));
    return names.isEmpty() ? QStringLiteral("nothing") : names.join(QStringLiteral(", "));
}

QString bytes(qint64 count)
{
    return QLocale::c().formattedDataSize(count, 1, QLocale::DataSizeTraditionalFormat);
}
} // namespace

InspectorStatusModel::InspectorStatusModel(InspectorRequestsModel *requests, QObject *parent)
    : QAbstractTableModel(parent), m_requests(requests)
{
    m_values = compute();
    m_memoryTimer.setSingleShot(true);
    m_memoryTimer.setInterval(MemoryIntervalMs);
    connect(&m_memoryTimer, &QTimer::timeout, this, &InspectorStatusModel::memoryMayHaveChanged);
    connect(requests, &InspectorRequestsModel::countChanged, this,
            &InspectorStatusModel::scheduleRefresh);
}

InspectorStatusModel::~InspectorStatusModel() = default;

void InspectorStatusModel::setController(Controller *controller)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        disconnect(connection);
    m_connections.clear();
    m_controller = controller;
    if (controller) {
        const auto refresh = [this] { scheduleRefresh(); };
        m_connections = {
            connect(controller, &Controller::changed, this,
                    [this] {
                        scheduleRefresh();
                        if (!m_memoryTimer.isActive())
                            m_memoryTimer.start();
                    }),
            connect(controller, &Controller::fetchStateChanged, this, refresh),
            connect(controller, &Controller::onlineChanged, this, refresh),
            connect(controller, &Controller::gcEnabledChanged, this, refresh),
            connect(controller, &Controller::gcGracePeriodMsChanged, this, refresh),
            connect(controller, &Controller::memoryBudgetBytesChanged, this, refresh),
            connect(controller, &Controller::persistenceChanged, this, refresh),
            connect(controller->outbox(), &Outbox::countChanged, this, refresh),
        };
    }
    refresh(); // at once: attaching shows the values
    m_memoryTimer.stop();
    m_memoryStale = true;
    Q_EMIT dataChanged(index(MemoryRow, Value), index(MemoryRow, Value));
}

int InspectorStatusModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : RowCount;
}

int InspectorStatusModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InspectorStatusModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::DisplayRole)
        role = index.column() == Name ? NameRole : ValueRole;
    switch (role) {
    case NameRole:
        return QString::fromLatin1(rowNames[index.row()]);
    case ValueRole:
        return value(Row(index.row()));
    default:
        return {};
    }
}

QVariant InspectorStatusModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return section == Name ? QStringLiteral("Name") : QStringLiteral("Value");
}

QHash<int, QByteArray> InspectorStatusModel::roleNames() const
{
    return {{NameRole, "name"}, {ValueRole, "value"}};
}

void InspectorStatusModel::scheduleRefresh()
{
    if (m_refreshScheduled)
        return;
    m_refreshScheduled = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_refreshScheduled = false;
            refresh();
        },
        Qt::QueuedConnection);
}

void InspectorStatusModel::refresh()
{
    const QStringList values = compute();
    for (int row = 0; row < RowCount; ++row) {
        if (values.at(row) != m_values.value(row)) {
            m_values[row] = values.at(row);
            Q_EMIT dataChanged(index(row, Value), index(row, Value));
        }
    }
}

QString InspectorStatusModel::value(Row row) const
{
    return row == MemoryRow ? memoryText() : m_values.value(row);
}

QString InspectorStatusModel::memoryText() const
{
    m_memoryLookedAt = true;
    if (m_memoryStale) {
        m_memory = m_controller ? bytes(m_controller->store().memoryUsage()) : QString();
        m_memoryStale = false;
    }
    return m_memory;
}

void InspectorStatusModel::memoryMayHaveChanged()
{
    // Store::memoryUsage() walks the whole store: it is read again at most every
    // MemoryIntervalMs while writes go on, and only when the row was looked at since (else it is
    // read when it is next looked at).
    m_memoryStale = true;
    if (!m_memoryLookedAt || !m_controller)
        return;
    const QString before = m_memory;
    memoryText();
    m_memoryLookedAt = false;
    if (m_memory != before)
        Q_EMIT dataChanged(index(MemoryRow, Value), index(MemoryRow, Value));
}

QStringList InspectorStatusModel::compute() const
{
    QStringList values(RowCount);
    values[RecordedRow] = QString::number(m_requests->rowCount());
    values[InFlightRow] = QString::number(m_requests->inFlight());
    const Controller *c = m_controller;
    if (!c) {
        values[ControllerRow] = QStringLiteral("no controller");
        return values;
    }
    values[ControllerRow] = c->objectName().isEmpty()
        ? QStringLiteral("Controller 0x%1").arg(quintptr(c), 0, 16)
        : c->objectName();
    const bool system = c->connectivity() == Connectivity::system();
    values[OnlineRow] = QStringLiteral("%1 (%2)").arg(
        c->isOnline() ? QStringLiteral("online") : QStringLiteral("offline"),
        system ? QStringLiteral("system network") : QStringLiteral("manual switch"));
    const Store &store = c->store();
    values[EntityTypesRow] = QString::number(store.entityKeys().size());
    values[EntitiesRow] = QString::number(store.entityCount());
    values[ResultsRow] = QString::number(store.resultKeys().size());
    values[OptimisticLayersRow] = QString::number(store.optimisticLayers().size());
    values[OutboxRow] = QString::number(c->outbox()->count());
    // MemoryRow: memoryText(), read when looked at (a walk of the whole store).
    values[MemoryBudgetRow]
        = c->memoryBudgetBytes() > 0 ? bytes(c->memoryBudgetBytes()) : QStringLiteral("none");
    values[GcRow] = c->isGcEnabled()
        ? QStringLiteral("on, grace %1 s").arg(c->gcGracePeriodMs() / 1000)
        : QStringLiteral("off");
    const detail::GcPass pass = detail::lastGcPass(c);
    values[GcLastPassRow] = passText(pass);
    values[GcDroppedRow] = pass.at == 0 ? QString() : droppedText(pass);
    values[PersistenceRow] = c->persistence().isEmpty()
        ? QStringLiteral("off")
        : QStringLiteral("%1, every %2 ms").arg(c->persistence()).arg(c->persistIntervalMs());
    return values;
}

} // namespace DataClient
