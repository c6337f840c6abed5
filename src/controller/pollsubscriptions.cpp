#include "pollsubscriptions_p.h"
#include "scheduler_p.h"

namespace DataClient::detail {

PollSubscriptions::PollSubscriptions(Scheduler *scheduler, PollFunction poll, QObject *parent)
    : QObject(parent), m_scheduler(scheduler), m_poll(std::move(poll))
{
    Q_ASSERT(m_scheduler);
}

PollSubscriptions::~PollSubscriptions()
{
    for (const Subscription &subscription : std::as_const(m_subscriptions))
        m_scheduler->cancel(subscription.entry);
}

void PollSubscriptions::clear()
{
    for (const Subscription &subscription : std::as_const(m_subscriptions))
        m_scheduler->cancel(subscription.entry);
    m_subscriptions.clear();
}

void PollSubscriptions::subscribe(const QString &key, const EndpointPtr &endpoint,
                                  const Params &params, int frequency)
{
    Q_ASSERT(frequency > 0);
    m_subscriptions[key].subscribers.append({endpoint, params, frequency});
    update(key);
}

bool PollSubscriptions::unsubscribe(const QString &key, const RestEndpoint *endpoint)
{
    const auto it = m_subscriptions.find(key);
    if (it == m_subscriptions.end())
        return false;
    QList<Subscriber> &subscribers = it->subscribers;
    for (qsizetype i = subscribers.size() - 1; i >= 0; --i) {
        if (subscribers.at(i).endpoint.get() == endpoint) {
            subscribers.removeAt(i);
            update(key);
            return true;
        }
    }
    return false;
}

int PollSubscriptions::interval(const QString &key) const
{
    const auto it = m_subscriptions.constFind(key);
    return it != m_subscriptions.cend() ? it->interval : 0;
}

int PollSubscriptions::subscriberCount(const QString &key) const
{
    return int(m_subscriptions.value(key).subscribers.size());
}

void PollSubscriptions::setPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    for (auto it = m_subscriptions.begin(); it != m_subscriptions.end(); ++it) {
        m_scheduler->cancel(std::exchange(it->entry, 0));
        if (!paused)
            schedule(it.key(), *it, it->interval);
    }
}

QList<std::pair<PollSubscriptions::EndpointPtr, Params>> PollSubscriptions::polled() const
{
    QList<std::pair<EndpointPtr, Params>> result;
    result.reserve(m_subscriptions.size());
    for (const Subscription &subscription : m_subscriptions) {
        if (const Subscriber *best = fastest(subscription))
            result.append({best->endpoint, best->params});
    }
    return result;
}

const PollSubscriptions::Subscriber *PollSubscriptions::fastest(const Subscription &subscription)
{
    const Subscriber *best = nullptr;
    for (const Subscriber &subscriber : subscription.subscribers) {
        if (!best || subscriber.frequency < best->frequency)
            best = &subscriber;
    }
    return best;
}

void PollSubscriptions::schedule(const QString &key, Subscription &subscription, int interval)
{
    subscription.interval = interval;
    if (m_paused)
        return;
    subscription.entry = m_scheduler->scheduleIn(interval, this, [this, key] { poll(key); });
}

void PollSubscriptions::update(const QString &key)
{
    const auto it = m_subscriptions.find(key);
    if (it == m_subscriptions.end())
        return;
    const Subscriber *best = fastest(*it);
    if (!best) {
        // The last subscriber left: stop polling and forget the key.
        m_scheduler->cancel(it->entry);
        m_subscriptions.erase(it);
        return;
    }
    // Only reschedule when the interval changes: restarting the wait on every new subscriber
    // would postpone the next poll forever under churn.
    if (it->interval != best->frequency || (!it->entry && !m_paused)) {
        m_scheduler->cancel(std::exchange(it->entry, 0));
        schedule(key, *it, best->frequency);
    }
}

void PollSubscriptions::poll(const QString &key)
{
    const auto it = m_subscriptions.find(key);
    if (it == m_subscriptions.end())
        return;
    it->entry = 0; // this entry ran
    const Subscriber *best = fastest(*it);
    if (!best)
        return;
    // Next poll first (a fixed rate like the QTimer it replaces), then call out: the callback
    // may subscribe or unsubscribe, so copy what it needs.
    schedule(key, *it, it->interval);
    const EndpointPtr endpoint = best->endpoint;
    const Params params = best->params;
    m_poll(endpoint, params);
}

} // namespace DataClient::detail
