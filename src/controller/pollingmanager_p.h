// Polling (Controller::subscribe()): a subscribed key is refetched every pollFrequency ms, one
// timer per key at the fastest frequency of its subscribers, through the Controller's scheduler.
// Polling runs only while online and the application is not suspended or hidden.
#pragma once

#include "lifecycle_p.h"

namespace DataClient::detail {

class PollSubscriptions;

class PollingManager final : public Lifecycle
{
public:
    explicit PollingManager(ControllerPrivate &core);

    void start() override;
    void roots(QList<std::pair<EndpointPtr, Params>> *keys) const override;
    bool refers(const QString &key) const override;
    void onlineChanged(bool online) override;
    void applicationStateChanged(Qt::ApplicationState state, qint64 inactiveFor) override;
    void loggedOut() override;
    void shutdown() override;

    PollSubscriptions *polls = nullptr; // a child of the Controller

private:
    void update();
    Qt::ApplicationState m_state = Qt::ApplicationActive;
};

} // namespace DataClient::detail
