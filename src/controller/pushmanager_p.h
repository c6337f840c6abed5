// The Controller's live feeds (LiveFeed): told when the Controller goes offline or online,
// resets its store or is destroyed; the keys they watch are kept by garbage collection.
#pragma once

#include "lifecycle_p.h"

#include <QtCore/QList>

namespace DataClient {
class LiveFeedPrivate;
}

namespace DataClient::detail {

class PushManager final : public Lifecycle
{
public:
    explicit PushManager(ControllerPrivate &core);

    void roots(QList<std::pair<EndpointPtr, Params>> *keys) const override;
    bool refers(const QString &key) const override;
    void onlineChanged(bool online) override;
    void reset() override;
    void shutdown() override;

    //! Registered by each LiveFeed of this Controller (and removed by it).
    QList<LiveFeedPrivate *> feeds;
};

} // namespace DataClient::detail
