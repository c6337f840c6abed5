// What views show (Controller::watch()) and the refetch of what they show: a shown or polled key
// that is stale or invalid is refetched, once, when the network returns and when the application
// becomes active after a while. The refetches drain a batch per event-loop turn, so that 100 shown
// keys never stall the GUI thread in one turn.
#pragma once

#include "lifecycle_p.h"
#include "shownkeys_p.h"

#include <QtCore/QSet>

namespace DataClient::detail {

class ShownKeysManager final : public Lifecycle
{
public:
    explicit ShownKeysManager(ControllerPrivate &core);

    void roots(QList<std::pair<EndpointPtr, Params>> *keys) const override;
    bool refers(const QString &key) const override;
    void onlineChanged(bool online) override;
    void applicationStateChanged(Qt::ApplicationState state, qint64 inactiveFor) override;

    //! Queues a refetch of every shown or polled key that is not Valid; \a activation: only
    //! endpoints with refetchOnActivate.
    void refetchShown(bool activation);

    ShownKeys shown;
    int refetchOnActivateAfter = 30000;

private:
    //! Fetches the next RefetchBatch queued keys that still need it; queues the rest for the
    //! next event-loop turn.
    void drain();

    static constexpr int RefetchBatch = 8;
    QList<std::pair<EndpointPtr, Params>> m_queue;
    QSet<QString> m_queued;
    bool m_drainScheduled = false;
};

} // namespace DataClient::detail
