// Flood control of a LiveFeed: messages wait in a bounded queue; once per event-loop turn at
// most maxMessagesPerTurn of them are mapped and written, and the whole batch is one commit
// signal (one Controller::changed(), so one signal per changed row in every model). A full
// queue is dropped and caught up by refetching, rather than growing without bound. A turn also
// stops writing once it spent its time budget, so that a flood leaves the GUI thread frames.
#include "livefeed_p.h"

#include "controller_p.h"
#include "entitywrites_p.h"
#include "logging_p.h"

#include <QtCore/QElapsedTimer>

namespace DataClient {

void LiveFeedPrivate::enqueue(const LiveMessage &message)
{
    if (!core)
        return;
    if (queue.size() - queueHead >= maxQueued) {
        // Faster than the GUI thread can write: what waits is stale by now anyway. Dropped
        // whole, and the keys it concerns are read again from the server.
        dropped += int(queue.size() - queueHead) + 1;
        qCWarning(lcController).noquote()
            << QStringLiteral("LiveFeed %1: %2 messages waiting (maxQueuedMessages); dropped "
                              "them and refetching the keys the feed covers")
                   .arg(source ? source->url().toDisplayString() : QString())
                   .arg(maxQueued);
        queue.clear();
        queueHead = 0;
        catchUp("the queue was full");
        return;
    }
    queue.append(message);
    if (!drainScheduled) {
        drainScheduled = true;
        QMetaObject::invokeMethod(
            q, [this] { drain(); }, Qt::QueuedConnection);
    }
}

void LiveFeedPrivate::countMalformed(const LiveMessageError &error)
{
    ++malformed;
    if (loggedKinds.contains(error.kind))
        return;
    loggedKinds.insert(error.kind);
    qCWarning(lcController).noquote()
        << QStringLiteral("LiveFeed %1: a malformed message (%2): %3; it was ignored, the "
                          "connection kept (this kind is logged once, all are counted in "
                          "malformedCount)")
               .arg(source ? source->url().toDisplayString() : QString(), error.kind,
                    error.message);
}

void LiveFeedPrivate::drain()
{
    drainScheduled = false;
    if (!core)
        return;
    ChangeSet changes;
    QList<std::pair<EndpointPtr, Params>> refetches;
    const qsizetype end = qMin(queue.size(), queueHead + maxPerTurn);
    const qsizetype first = queueHead;
    QElapsedTimer spent;
    spent.start();
    // Written until the turn's budget is spent (the commit's signals come on top of it).
    for (; queueHead < end && (queueHead == first || spent.elapsed() < budgetMs); ++queueHead) {
        LiveMessageError error;
        const QList<LiveAction> actions = mapping.map(queue.at(queueHead), &error);
        if (!error.kind.isEmpty()) {
            countMalformed(error);
            continue;
        }
        bool wrote = false;
        for (const LiveAction &action : actions) {
            StoreWrite write;
            switch (action.kind) {
            case LiveAction::Kind::Update:
                write = detail::writeEntities(*core, action.schema, action.data, 0);
                break;
            case LiveAction::Kind::Remove:
                write = detail::removeEntity(*core, action.schema, action.pk, 0);
                break;
            case LiveAction::Kind::Add:
                write = detail::addToCollection(*core, action.schema, action.args, action.data,
                                                action.prepend, 0);
                break;
            case LiveAction::Kind::Refetch:
                refetches.append({action.endpoint, action.params});
                wrote = true;
                continue;
            }
            if (write.error) {
                countMalformed({QStringLiteral("refused by the schema"), write.error->message()});
                continue;
            }
            changes.unite(write.changes);
            wrote = true;
        }
        if (wrote)
            ++applied;
    }
    const int taken = int(queueHead - first);
    if (queueHead == queue.size()) {
        queue.clear();
        queueHead = 0;
    } else if (!drainScheduled) {
        // The rest after the event loop had its turn (painting, input): bounded work per turn.
        drainScheduled = true;
        QMetaObject::invokeMethod(
            q, [this] { drain(); }, Qt::QueuedConnection);
    }
    const QPointer<LiveFeed> alive(q);
    ControllerPrivate *controller = core;
    controller->emitChanged(
        changes,
        detail::ChangeOrigin::Push); // one signal for the turn; a slot may destroy anything
    if (!alive || !core)
        return;
    QSet<QString> asked;
    for (const auto &[endpoint, params] : refetches) {
        if (!endpoint || asked.contains(endpoint->requestKey(params)))
            continue;
        asked.insert(endpoint->requestKey(params));
        QFuture<QVariant> request = core->fetch(endpoint, params, QJsonValue());
        Q_UNUSED(request);
        if (!alive || !core)
            return;
    }
    Q_EMIT q->committed(taken);
    Q_EMIT q->countsChanged();
}

} // namespace DataClient
