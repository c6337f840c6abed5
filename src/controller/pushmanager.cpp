#include "pushmanager_p.h"

#include "livefeed_p.h"

namespace DataClient::detail {

PushManager::PushManager(ControllerPrivate &core)
    : Lifecycle(core, Roots | OnlineChanged | Reset | Shutdown)
{ }

void PushManager::roots(QList<std::pair<EndpointPtr, Params>> *keys) const
{
    for (const LiveFeedPrivate *feed : feeds)
        *keys += feed->watched.all();
}

bool PushManager::refers(const QString &key) const
{
    for (const LiveFeedPrivate *feed : feeds) {
        if (feed->watched.viewers(key) > 0)
            return true;
    }
    return false;
}

void PushManager::onlineChanged(bool online)
{
    for (LiveFeedPrivate *feed : QList(feeds))
        feed->onlineChanged(online);
}

void PushManager::reset()
{
    for (LiveFeedPrivate *feed : QList(feeds))
        feed->reset();
}

void PushManager::shutdown()
{
    // Before the scheduler and the store go: no message is written after this.
    for (LiveFeedPrivate *feed : std::exchange(feeds, {}))
        feed->shutdown();
}

} // namespace DataClient::detail
