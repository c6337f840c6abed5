// Polling subscriptions (DESIGN.md §5, CASES 45-46): one timer per cache key, running at the
// fastest pollFrequency of the key's live subscribers, counted by reference.
#pragma once

#include <DataClient/params.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QTimer;
QT_END_NAMESPACE

namespace DataClient {
class RestEndpoint;
}

namespace DataClient::detail {

class PollSubscriptions : public QObject
{
    Q_OBJECT
public:
    using EndpointPtr = std::shared_ptr<RestEndpoint>;
    //! Called on the key's timer with the fastest subscriber's endpoint and parameters.
    using PollFunction = std::function<void(const EndpointPtr &, const Params &)>;

    explicit PollSubscriptions(PollFunction poll, QObject *parent = nullptr);
    ~PollSubscriptions() override;

    //! Adds one subscriber polling \a key every \a frequency ms (> 0).
    void subscribe(const QString &key, const EndpointPtr &endpoint, const Params &params,
                   int frequency);
    //! Removes one subscriber of \a key made with \a endpoint (the most recent one). False if
    //! there is none.
    bool unsubscribe(const QString &key, const RestEndpoint *endpoint);

    //! The running interval of \a key's timer in ms, 0 when the key is not polled.
    int interval(const QString &key) const;
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
        QTimer *timer = nullptr;
    };

    //! Retunes (or stops) the timer after the subscriber list of \a key changed.
    void update(const QString &key);
    void poll(const QString &key);
    static const Subscriber *fastest(const Subscription &subscription);

    PollFunction m_poll;
    QHash<QString, Subscription> m_subscriptions;
};

} // namespace DataClient::detail
