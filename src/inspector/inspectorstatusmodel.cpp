#include <DataClient/inspectorstatusmodel.h>

#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/inspectorrequestsmodel.h>
#include <DataClient/outbox.h>
#include <DataClient/store.h>

#include <QtCore/QLocale>

namespace DataClient {

namespace {
const char *const rowNames[]
    = {"controller",       "online",        "requests in flight", "entity types",
       "entities",         "results",       "optimistic layers",  "outbox",
       "memory used",      "memory budget", "garbage collection", "persistence",
       "recorded requests"};
static_assert(std::size(rowNames) == InspectorStatusModel::RowCount);

QString bytes(qint64 count)
{
    return QLocale::c().formattedDataSize(count, 1, QLocale::DataSizeTraditionalFormat);
}
} // namespace

InspectorStatusModel::InspectorStatusModel(InspectorRequestsModel *requests, QObject *parent)
    : QAbstractTableModel(parent), m_requests(requests)
{
    m_values = compute();
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
            connect(controller, &Controller::changed, this, refresh),
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
        return m_values.value(index.row());
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
    values[MemoryRow] = bytes(store.memoryUsage());
    values[MemoryBudgetRow]
        = c->memoryBudgetBytes() > 0 ? bytes(c->memoryBudgetBytes()) : QStringLiteral("none");
    values[GcRow] = c->isGcEnabled()
        ? QStringLiteral("on, grace %1 s").arg(c->gcGracePeriodMs() / 1000)
        : QStringLiteral("off");
    values[PersistenceRow] = c->persistence().isEmpty()
        ? QStringLiteral("off")
        : QStringLiteral("%1, every %2 ms").arg(c->persistence()).arg(c->persistIntervalMs());
    return values;
}

} // namespace DataClient
