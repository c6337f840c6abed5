#include <DataClient/storeinspector.h>

#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/inspectorentitiesmodel.h>
#include <DataClient/inspectorrequestsmodel.h>
#include <DataClient/inspectorresultsmodel.h>
#include <DataClient/inspectorstatusmodel.h>
#include <DataClient/inspectortimelinemodel.h>
#include <DataClient/outbox.h>
#include <DataClient/private/controllerinspection_p.h>
#include <DataClient/record.h>
#include <DataClient/restendpoint.h>
#include <DataClient/store.h>

#include "logging_p.h"
#include "requestrecorder_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <limits>

namespace DataClient {

namespace {
//! A denormalized value as JSON: Records (entities) as objects, row lists as arrays.
QJsonValue toJson(const QVariant &value)
{
    const QMetaType type = value.metaType();
    if (type == QMetaType::fromType<Record>() || type == QMetaType::fromType<QVariantMap>()) {
        QJsonObject object;
        const QVariantMap map = value.toMap();
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            object.insert(it.key(), toJson(it.value()));
        return object;
    }
    if (type != QMetaType::fromType<QString>() && type != QMetaType::fromType<QByteArray>()
        && value.canConvert<QVariantList>()) {
        QJsonArray array;
        for (const QVariant &item : value.toList())
            array.append(toJson(item));
        return array;
    }
    return QJsonValue::fromVariant(value);
}
} // namespace

StoreInspector::StoreInspector(QObject *parent)
    : QObject(parent),
      m_entities(std::make_unique<InspectorEntitiesModel>()),
      m_results(std::make_unique<InspectorResultsModel>()),
      m_requests(std::make_unique<InspectorRequestsModel>()),
      m_timeline(std::make_unique<InspectorTimelineModel>())
{
    m_timeline->setLimit(m_requests->historyLimit());
    m_status = std::make_unique<InspectorStatusModel>(m_requests.get());
    connect(m_requests.get(), &InspectorRequestsModel::answerStored, m_results.get(),
            &InspectorResultsModel::setAnswerBytes);
    connect(m_requests.get(), &InspectorRequestsModel::countChanged, this,
            &StoreInspector::updateStatusText);
    updateStatusText();
}

StoreInspector::~StoreInspector()
{
    detach();
}

Controller *StoreInspector::controller() const
{
    return m_controller;
}

void StoreInspector::setController(Controller *controller)
{
    if (controller == m_controller)
        return;
    detach();
    if (controller)
        attach(controller);
    Q_EMIT controllerChanged();
    Q_EMIT onlineChanged();
    updateStatusText();
}

void StoreInspector::attach(Controller *controller)
{
    m_controller = controller;
    // Recording starts now, not before: a Controller nobody inspects has no manager of ours.
    m_recorder = std::make_unique<detail::RequestRecorder>(m_requests.get(), m_timeline.get());
    controller->addManager(m_recorder.get());
    m_timeline->setController(controller);
    m_entities->setController(controller);
    m_results->setController(controller);
    m_status->setController(controller);
    const auto update = [this] { updateStatusText(); };
    m_connections = {
        connect(controller, &QObject::destroyed, this, &StoreInspector::controllerDestroyed),
        connect(controller, &Controller::onlineChanged, this, &StoreInspector::onlineChanged),
        connect(controller, &Controller::changed, this, update),
    };
}

void StoreInspector::detach()
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        disconnect(connection);
    m_connections.clear();
    if (m_controller) {
        if (m_recorder)
            m_controller->removeManager(m_recorder.get());
        // The manual switch goes back to the source it replaced (the Controller must not keep
        // a Connectivity the inspector deletes).
        if (m_manualConnectivity && m_controller->connectivity() == m_manualConnectivity.get())
            m_controller->setConnectivity(m_replacedConnectivity);
    }
    m_recorder.reset();
    m_manualConnectivity.reset();
    m_replacedConnectivity.clear();
    m_controller.clear();
    m_entities->setController(nullptr);
    m_results->setController(nullptr);
    m_status->setController(nullptr);
    m_timeline->setController(nullptr);
    m_requests->clear();
}

void StoreInspector::controllerDestroyed()
{
    // Its managers are gone with it: nothing to unregister, only to forget.
    qCDebug(lcInspector) << "the inspected Controller was destroyed";
    m_controller.clear();
    detach();
    Q_EMIT controllerChanged();
    Q_EMIT onlineChanged();
    updateStatusText();
}

QString StoreInspector::statusText() const
{
    return m_statusText;
}

void StoreInspector::updateStatusText()
{
    QString text;
    if (!m_controller) {
        text = QStringLiteral("no controller");
    } else {
        const Store &store = m_controller->store();
        text = QStringLiteral("%1 entity types, %2 entities, %3 results, %4 in flight")
                   .arg(store.entityKeys().size())
                   .arg(store.entityCount())
                   .arg(m_results->rowCount())
                   .arg(m_requests->inFlight());
    }
    if (text != m_statusText) {
        m_statusText = text;
        Q_EMIT statusTextChanged();
    }
}

QAbstractItemModel *StoreInspector::entities() const
{
    return m_entities.get();
}
QAbstractItemModel *StoreInspector::results() const
{
    return m_results.get();
}
QAbstractItemModel *StoreInspector::requests() const
{
    return m_requests.get();
}
QAbstractItemModel *StoreInspector::status() const
{
    return m_status.get();
}
QAbstractItemModel *StoreInspector::timeline() const
{
    return m_timeline.get();
}
QAbstractItemModel *StoreInspector::outbox() const
{
    return m_controller ? m_controller->outbox() : nullptr;
}

int StoreInspector::historyLimit() const
{
    return m_requests->historyLimit();
}

void StoreInspector::setHistoryLimit(int limit)
{
    if (limit < 0) {
        qCWarning(lcInspector) << "StoreInspector::setHistoryLimit(" << limit
                               << "): a count of requests, 0 or more, was expected; kept"
                               << historyLimit();
        return;
    }
    if (limit == historyLimit())
        return;
    m_requests->setHistoryLimit(limit);
    m_timeline->setLimit(limit);
    Q_EMIT historyLimitChanged();
}

bool StoreInspector::isOnline() const
{
    return m_controller && m_controller->isOnline();
}

void StoreInspector::setOnline(bool online)
{
    if (!m_controller) {
        refuse("setOnline", QStringLiteral("no controller is attached"));
        return;
    }
    Connectivity *current = m_controller->connectivity();
    if (current == Connectivity::system() || !current) {
        // The system's network cannot be switched: a manual source of the inspector's stands in
        // until it detaches.
        m_manualConnectivity = std::make_unique<Connectivity>();
        m_manualConnectivity->setOnline(m_controller->isOnline());
        m_replacedConnectivity = current;
        m_controller->setConnectivity(m_manualConnectivity.get());
        current = m_manualConnectivity.get();
    }
    current->setOnline(online);
}

bool StoreInspector::refuse(const char *action, const QString &why)
{
    qCWarning(lcInspector).noquote() << QStringLiteral("StoreInspector::%1(): %2; nothing done")
                                            .arg(QLatin1StringView(action), why);
    return false;
}

bool StoreInspector::invalidate(const QString &key)
{
    if (!m_controller)
        return refuse("invalidate", QStringLiteral("no controller is attached"));
    if (!detail::inspectedKeys(m_controller).contains(key))
        return refuse("invalidate", QStringLiteral("the Controller knows no key \"%1\"").arg(key));
    m_controller->invalidateAll([&key](const QString &candidate) { return candidate == key; });
    return true;
}

bool StoreInspector::expire(const QString &key)
{
    if (!m_controller)
        return refuse("expire", QStringLiteral("no controller is attached"));
    if (!detail::inspectedKeys(m_controller).contains(key))
        return refuse("expire", QStringLiteral("the Controller knows no key \"%1\"").arg(key));
    m_controller->expireAll([&key](const QString &candidate) { return candidate == key; });
    return true;
}

bool StoreInspector::refetch(const QString &key)
{
    if (!m_controller)
        return refuse("refetch", QStringLiteral("no controller is attached"));
    detail::KeyInspection state = detail::inspectKey(m_controller, key);
    if (!state.endpoint && m_recorder)
        std::tie(state.endpoint, state.params) = m_recorder->reader(key);
    if (!state.endpoint) {
        return refuse("refetch",
                      QStringLiteral("no view, poll or request since the inspector attached read "
                                     "\"%1\", so its endpoint is unknown (invalidate() it: the "
                                     "next view that reads it fetches it)")
                          .arg(key));
    }
    m_controller->fetch(state.endpoint, state.params);
    return true;
}

bool StoreInspector::dropEntity(const QString &type, const QString &pk)
{
    if (!m_controller)
        return refuse("dropEntity", QStringLiteral("no controller is attached"));
    if (!detail::dropEntity(m_controller, {type, pk}))
        return refuse("dropEntity", QStringLiteral("the store shows no %1 \"%2\"").arg(type, pk));
    return true;
}

bool StoreInspector::resetStore()
{
    if (!m_controller)
        return refuse("resetStore", QStringLiteral("no controller is attached"));
    m_controller->resetEntireStore();
    return true;
}

QString StoreInspector::entityJson(const QString &type, const QString &pk) const
{
    if (!m_controller)
        return {};
    const std::optional<QJsonObject> entity = m_controller->store().shownEntity({type, pk});
    return entity ? QString::fromUtf8(QJsonDocument(*entity).toJson(QJsonDocument::Indented))
                  : QString();
}

QString StoreInspector::answerJson(const QString &key) const
{
    if (!m_controller || !m_controller->store().hasResult(key))
        return {};
    detail::KeyInspection state = detail::inspectKey(m_controller, key);
    if (!state.endpoint && m_recorder)
        std::tie(state.endpoint, state.params) = m_recorder->reader(key);
    if (state.endpoint) {
        const QJsonValue value
            = toJson(m_controller->getResponse(state.endpoint, state.params).data);
        QJsonDocument document
            = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
        if (value.isArray() || value.isObject())
            return QString::fromUtf8(document.toJson(QJsonDocument::Indented));
    }
    // Without the endpoint: the normalized answer (nested entities as their pks), whole.
    const QString compact
        = m_controller->store().resultPreview(key, std::numeric_limits<qsizetype>::max() / 4);
    const QJsonDocument document = QJsonDocument::fromJson(compact.toUtf8());
    return document.isNull() ? compact
                             : QString::fromUtf8(document.toJson(QJsonDocument::Indented));
}

} // namespace DataClient
