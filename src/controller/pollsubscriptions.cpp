#include "pollsubscriptions_p.h"

#include <QtCore/QTimer>

namespace DataClient::detail {

PollSubscriptions::PollSubscriptions(PollFunction poll, QObject *parent)
    : QObject(parent), m_poll(std::move(poll))
{ }

PollSubscriptions::~PollSubscriptions() = default; // the timers are children

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
    return it != m_subscriptions.cend() && it->timer && it->timer->isActive()
        ? it->timer->interval()
        : 0;
}

int PollSubscriptions::subscriberCount(const QString &key) const
{
    return int(m_subscriptions.value(key).subscribers.size());
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

void PollSubscriptions::update(const QString &key)
{
    const auto it = m_subscriptions.find(key);
    if (it == m_subscriptions.end())
        return;
    const Subscriber *best = fastest(*it);
    if (!best) {
        // The last subscriber left: stop polling and forget the key. deleteLater: this may run
        // inside the timer's own timeout() (a poll that unsubscribes).
        if (it->timer) {
            it->timer->stop();
            it->timer->disconnect(this);
            it->timer->deleteLater();
        }
        m_subscriptions.erase(it);
        return;
    }
    if (!it->timer) {
        it->timer = new QTimer(this);
        connect(it->timer, &QTimer::timeout, this, [this, key] { poll(key); });
    }
    // Only touch a running timer when its interval changes: restarting it on every new
    // subscriber would postpone the next poll forever under churn.
    if (!it->timer->isActive() || it->timer->interval() != best->frequency)
        it->timer->start(best->frequency);
}

void PollSubscriptions::poll(const QString &key)
{
    const auto it = m_subscriptions.constFind(key);
    if (it == m_subscriptions.cend())
        return;
    const Subscriber *best = fastest(*it);
    if (!best)
        return;
    // Copy before calling out: the callback may subscribe or unsubscribe.
    const EndpointPtr endpoint = best->endpoint;
    const Params params = best->params;
    m_poll(endpoint, params);
}

} // namespace DataClient::detail
