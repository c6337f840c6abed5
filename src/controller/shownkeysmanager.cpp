#include "shownkeysmanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"

namespace DataClient::detail {

ShownKeysManager::ShownKeysManager(ControllerPrivate &core)
    : Lifecycle(core, Roots | OnlineChanged | ApplicationStateChanged)
{ }

void ShownKeysManager::roots(QList<std::pair<EndpointPtr, Params>> *keys) const
{
    *keys += shown.all();
}

bool ShownKeysManager::refers(const QString &key) const
{
    return shown.viewers(key) > 0;
}

void ShownKeysManager::onlineChanged(bool online)
{
    if (online)
        refetchShown(false);
}

void ShownKeysManager::applicationStateChanged(Qt::ApplicationState state, qint64 inactiveFor)
{
    if (state == Qt::ApplicationActive && inactiveFor >= refetchOnActivateAfter && core.online)
        refetchShown(true);
}

void ShownKeysManager::refetchShown(bool activation)
{
    QList<std::pair<EndpointPtr, Params>> keys;
    core.each(Lifecycle::Roots, [&keys](const Lifecycle &manager) { manager.roots(&keys); });
    for (auto &[endpoint, params] : keys) {
        if (activation && !endpoint->refetchOnActivate())
            continue;
        QString requestKey = endpoint->requestKey(params);
        if (m_queued.contains(requestKey))
            continue; // a key both shown and polled, or a flapping network: once
        m_queued.insert(std::move(requestKey));
        m_queue.append({std::move(endpoint), std::move(params)});
    }
    qCDebug(lcController) << m_queue.size() << "shown keys to check"
                          << (activation ? "(application active)" : "(reconnect)");
    drain();
}

void ShownKeysManager::drain()
{
    m_drainScheduled = false;
    int started = 0;
    const QPointer<Controller> alive(core.q);
    while (!m_queue.isEmpty() && started < RefetchBatch) {
        if (!alive)
            return;
        if (!core.online) {
            // Offline again: the next reconnect queues what is still stale.
            m_queue.clear();
            m_queued.clear();
            return;
        }
        const auto [endpoint, params] = m_queue.takeFirst();
        const QString requestKey = endpoint->requestKey(params);
        m_queued.remove(requestKey);
        if (core.inFlight.findRead(requestKey))
            continue; // already asked (a read sent on reconnect, a poll)
        if (core.q->getResponse(endpoint, params).status == ExpiryStatus::Valid)
            continue;
        QFuture<QVariant> request = core.fetch(endpoint, params, QJsonValue());
        Q_UNUSED(request); // the outcome arrives through changed() / fetchStateChanged()
        ++started;
    }
    if (alive && !m_queue.isEmpty() && !m_drainScheduled) {
        // The next batch after the event loop had its turn (not a wait: no scheduler entry).
        m_drainScheduled = true;
        QMetaObject::invokeMethod(
            core.q, [this] { drain(); }, Qt::QueuedConnection);
    }
}

} // namespace DataClient::detail

namespace DataClient {

using detail::Lifecycle;

bool Controller::watch(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "watch");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return false;
    }
    d->managers->shown->shown.add(key, endpoint, params);
    d->each(Lifecycle::Referenced, [](Lifecycle &manager) { manager.referenced(); });
    return true;
}

bool Controller::unwatch(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "unwatch");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError || !d->managers->shown->shown.remove(key))
        return false;
    d->each(Lifecycle::Released,
            [&](Lifecycle &manager) { manager.released(key, endpoint, params); });
    return true;
}

void Controller::setRefetchOnActivateAfter(int ms)
{
    DATACLIENT_ASSERT_THREAD(this);
    d->managers->shown->refetchOnActivateAfter = std::max(0, ms);
}

int Controller::refetchOnActivateAfter() const
{
    return d->managers->shown->refetchOnActivateAfter;
}

} // namespace DataClient
