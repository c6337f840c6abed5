// Polling subscriptions: one scheduler entry per cache key, due at
// the fastest pollFrequency of the key's live subscribers, counted by reference. Polling waits
// through the Controller's Scheduler (scheduler_p.h) and pauses while offline or suspended.
#pragma once

#include <DataClient/private/testexport_p.h>
#include "scheduler_p.h"

#include <DataClient/params.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>
#include <memory>

namespace DataClient {
class RestEndpoint;
}

namespace DataClient::detail {

class Scheduler;

class DATACLIENT_TEST_EXPORT PollSubscriptions : public QObject
{
    Q_OBJECT
public:
    using EndpointPtr = std::shared_ptr<RestEndpoint>;
    //! Called when the key's poll is due, with the fastest subscriber's endpoint and parameters.
    using PollFunction = std::function<void(const EndpointPtr &, const Params &)>;

    PollSubscriptions(Scheduler *scheduler, PollFunction poll, QObject *parent = nullptr);
    ~PollSubscriptions() override;

    //! Adds one subscriber polling \a key every \a frequency ms (> 0).
    void subscribe(const QString &key, const EndpointPtr &endpoint, const Params &params,
                   int frequency);
    //! Removes one subscriber of \a key made with \a endpoint (the most recent one). False if
    //! there is none.
    bool unsubscribe(const QString &key, const RestEndpoint *endpoint);

    //! Drops every subscriber (a logout): nothing is polled any more.
    void clear();
    //! The polling interval of \a key in ms (also while paused), 0 when the key is not polled.
    int interval(const QString &key) const;
    //! Paused: no poll is due (offline, application suspended). Resuming schedules every key one
    //! interval from now.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    //! The subscribers' endpoint and parameters of every polled key (the fastest subscriber's).
    QList<std::pair<EndpointPtr, Params>> polled() const;
    int subscriberCount(const QString &key) const;
    //! Every polled key.
    QStringList keys() const { return m_subscriptions.keys(); }

private:
    struct Subscriber
    {
        EndpointPtr endpoint;
        Params params;
        int frequency = 0;
    };
    struct Subscription
    {
        QList<Subscriber> subscribers;
        int interval = 0; //!< of the scheduled poll
        quint64 entry = 0; //!< the Scheduler's entry of the next poll, 0 for none
    };

    //! Reschedules (or stops) the key's poll after its subscriber list changed.
    void update(const QString &key);
    void schedule(const QString &key, Subscription &subscription, int interval);
    void poll(const QString &key);
    static const Subscriber *fastest(const Subscription &subscription);

    Scheduler *m_scheduler;
    PollFunction m_poll;
    bool m_paused = false;
    QHash<QString, Subscription> m_subscriptions;
};

} // namespace DataClient::detail
