#include "pollingmanager_p.h"

#include "applicationstatemanager_p.h"
#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "pollsubscriptions_p.h"

namespace DataClient::detail {

PollingManager::PollingManager(ControllerPrivate &core)
    : Lifecycle(core, Roots | OnlineChanged | ApplicationStateChanged | LoggedOut | Shutdown)
{ }

void PollingManager::loggedOut()
{
    // The next user's views subscribe again; the previous user's keys are never asked again.
    polls->clear();
}

void PollingManager::start()
{
    ControllerPrivate &d = core;
    polls = new PollSubscriptions(
        core.scheduler,
        [&d](const EndpointPtr &endpoint, const Params &params) {
            // A poll is a plain read: it joins a request already in flight for the key.
            QFuture<QVariant> poll = d.fetch(endpoint, params, QJsonValue());
            Q_UNUSED(poll);
        },
        core.q);
    m_state = core.managers->applicationState->state;
    update();
}

void PollingManager::roots(QList<std::pair<EndpointPtr, Params>> *keys) const
{
    if (polls)
        *keys += polls->polled();
}

bool PollingManager::refers(const QString &key) const
{
    return polls && polls->subscriberCount(key) > 0;
}

void PollingManager::onlineChanged(bool)
{
    update();
}

void PollingManager::applicationStateChanged(Qt::ApplicationState state, qint64)
{
    m_state = state;
    update();
}

void PollingManager::update()
{
    if (!polls)
        return;
    const bool asleep = m_state == Qt::ApplicationSuspended || m_state == Qt::ApplicationHidden;
    polls->setPaused(!core.online || asleep);
}

void PollingManager::shutdown()
{
    delete polls; // before the scheduler its timers wait in
    polls = nullptr;
}

} // namespace DataClient::detail

namespace DataClient {

using detail::Lifecycle;

bool Controller::subscribe(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "subscribe");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return false;
    }
    if (endpoint->pollFrequency() <= 0) {
        qCWarning(lcController).noquote()
            << "Controller::subscribe(" << key << "): the endpoint's pollFrequency is"
            << endpoint->pollFrequency() << "- expected a positive number of milliseconds";
        return false;
    }
    d->managers->polling->polls->subscribe(key, endpoint, params, endpoint->pollFrequency());
    d->each(Lifecycle::Referenced, [](Lifecycle &manager) { manager.referenced(); });
    return true;
}

bool Controller::unsubscribe(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "unsubscribe");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return false;
    }
    if (!d->managers->polling->polls->unsubscribe(key, endpoint.get()))
        return false;
    d->each(Lifecycle::Released,
            [&](Lifecycle &manager) { manager.released(key, endpoint, params); });
    return true;
}

int Controller::pollInterval(const EndpointPtr &endpoint, const Params &params) const
{
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "pollInterval");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    return keyError ? 0 : d->managers->polling->polls->interval(key);
}

} // namespace DataClient
