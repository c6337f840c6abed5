// A LiveFeed's state: its source's connection life (livefeed.cpp) and its queue of messages
// committed per event-loop turn (livefeedqueue.cpp). The push manager tells every feed of its
// Controller when it goes offline or online, resets or is destroyed.
#pragma once

#include <DataClient/livefeed.h>

#include "shownkeys_p.h"

#include <QtCore/QPointer>
#include <QtCore/QSet>

namespace DataClient {

class ControllerPrivate;

class LiveFeedPrivate
{
public:
    LiveFeedPrivate(LiveFeed *q, Controller *controller, LiveSource *source,
                    const LiveMapping &mapping);

    //! Opens or closes the source as the feed wants it and the Controller allows.
    void update();
    void onlineChanged(bool online);
    //! The store was emptied: the queue goes, the connection starts afresh.
    void reset();
    //! The Controller is going: nothing of this feed may run afterwards.
    void shutdown();
    //! Refetches the watched keys and the covered shown keys, once each.
    void catchUp(const char *why);

    // livefeedqueue.cpp
    void enqueue(const LiveMessage &message);
    void drain();
    //! Logs \a error once per kind; counts it.
    void countMalformed(const LiveMessageError &error);

    LiveFeed *q;
    QPointer<Controller> controller;
    ControllerPrivate *core = nullptr; //!< null once the Controller is gone
    QPointer<LiveSource> source;
    LiveMapping mapping;
    bool active = true;
    bool onDemand = false;
    int graceMs = LiveFeed::DefaultGraceMs;
    int maxPerTurn = LiveFeed::DefaultMaxMessagesPerTurn;
    int maxQueued = LiveFeed::DefaultMaxQueuedMessages;
    int budgetMs = LiveFeed::DefaultTurnBudgetMs;
    detail::ShownKeys watched;
    int watchedCount = 0;

    QList<LiveMessage> queue;
    qsizetype queueHead = 0; //!< messages before it were taken (the list is compacted per drain)
    bool drainScheduled = false;
    quint64 reconnectEntry = 0;
    quint64 graceEntry = 0;
    bool graceOver = true; //!< on demand: no key and the grace period passed
    bool everOpened = false;
    bool resuming = false; //!< the connection being opened resumes (Last-Event-ID)
    bool stopped = false; //!< the source must not be reopened (until active is set again)

    int applied = 0;
    int malformed = 0;
    int dropped = 0;
    int catchUps = 0;
    QSet<QString> loggedKinds;

    // Called by LiveFeed on its source's signals.
    void opened();
    void droppedConnection(const QString &error, bool reconnect);
    void close();

private:
    bool wanted() const;
    void open();
    void sendSubscriptions();
};

} // namespace DataClient
