// LiveFeed: a LiveSource driven by a Controller: its messages become store writes, committed
// together per event-loop turn, and its connection is kept up (docs/realtime.md).
#pragma once

#include <DataClient/livemapping.h>
#include <DataClient/livesource.h>

#include <QtCore/QObject>

#include <memory>

namespace DataClient {

class Controller;
class LiveFeedPrivate;

/*!
    Binds \a source to \a controller with \a mapping. The feed

    - opens the source while it is active and the Controller is online (never while offline;
      at once when back online), and reopens it after a drop with the Controller's retry
      backoff (full jitter, through its scheduler) or the wait the server asked for (SSE
      `retry:`); a source that must not come back (a policy violation, an SSE 204) stays closed;
    - catches up after every reconnect: a source that can resume (SSE with an event id) is sent
      Last-Event-ID; otherwise the keys it watches and the shown keys of the endpoints the
      mapping covers are refetched, once each;
    - commits the messages that arrived within one event-loop turn together (one changed()), at
      most maxMessagesPerTurn() of them and turnBudgetMs() of writing per turn (the rest the
      next turn), and keeps at most
      maxQueuedMessages() waiting: when a message finds the queue full, the queue is dropped
      (droppedCount()) and the feed catches up as after a reconnect that cannot resume;
    - counts malformed messages (malformedCount()), logs each kind of fault once, keeps the
      connection and writes nothing for them;
    - closes the source when the Controller resets its store (the queue is dropped; it reopens
      afresh) or is destroyed, and when the feed is destroyed: no message reaches the store
      after that.

    With onDemand() the source is open only while the feed watches a key, and closes
    graceMs() after the last one goes.
*/
class DATACLIENT_CONTROLLER_EXPORT LiveFeed : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool active READ isActive WRITE setActive NOTIFY activeChanged)
    Q_PROPERTY(bool onDemand READ onDemand WRITE setOnDemand NOTIFY activeChanged)
    Q_PROPERTY(int appliedCount READ appliedCount NOTIFY countsChanged)
    Q_PROPERTY(int malformedCount READ malformedCount NOTIFY countsChanged)
    Q_PROPERTY(int droppedCount READ droppedCount NOTIFY countsChanged)
    Q_PROPERTY(int catchUpCount READ catchUpCount NOTIFY countsChanged)
    Q_PROPERTY(int watchedKeyCount READ watchedKeyCount NOTIFY watchedKeysChanged)

public:
    static constexpr int DefaultMaxMessagesPerTurn = 2000;
    static constexpr int DefaultMaxQueuedMessages = 100000;
    static constexpr int DefaultGraceMs = 5000;
    static constexpr int DefaultTurnBudgetMs = 8;

    LiveFeed(Controller *controller, LiveSource *source, const LiveMapping &mapping = {},
             QObject *parent = nullptr);
    ~LiveFeed() override;

    Controller *controller() const;
    LiveSource *source() const;
    LiveMapping mapping() const;
    void setMapping(const LiveMapping &mapping);

    //! Whether the feed wants its source open (true from the start).
    bool isActive() const;
    void setActive(bool active);
    bool onDemand() const;
    void setOnDemand(bool onDemand);
    int graceMs() const;
    void setGraceMs(int ms);
    int maxMessagesPerTurn() const;
    void setMaxMessagesPerTurn(int messages);
    int maxQueuedMessages() const;
    void setMaxQueuedMessages(int messages);
    //! The time a turn spends writing messages before it commits them and lets the event loop
    //! run (8 ms, half a 60 Hz frame; at least one message is written per turn).
    int turnBudgetMs() const;
    void setTurnBudgetMs(int ms);

    /*!
        The feed covers the key of \a endpoint with \a params: the key is kept (garbage
        collection), refetched on a catch-up, and the mapping's subscribe message is sent for it
        (now when open, and after each reconnect). Counted: unwatch() as often.
    */
    bool watch(const EndpointPtr &endpoint, const Params &params = {});
    bool unwatch(const EndpointPtr &endpoint, const Params &params = {});
    int watchedKeyCount() const;

    //! Messages that wrote something, malformed ones, ones dropped by a full queue, catch-ups.
    int appliedCount() const;
    int malformedCount() const;
    int droppedCount() const;
    int catchUpCount() const;

Q_SIGNALS:
    void activeChanged();
    void countsChanged();
    void watchedKeysChanged();
    //! The messages of one turn were committed (\a messages of them; the store emitted
    //! Controller::changed() once for them, when they changed something).
    void committed(int messages);

private:
    friend class LiveFeedPrivate;
    std::unique_ptr<LiveFeedPrivate> d;
};

} // namespace DataClient
