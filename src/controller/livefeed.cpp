// A LiveFeed's connection life: open while wanted and online, reconnect with the retry backoff
// through the Controller's scheduler, catch up after each reconnect, close on reset and
// destruction, send the subscribe messages of the watched keys.
#include "livefeed_p.h"

#include "controller_p.h"
#include "controllerkeys_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "pushmanager_p.h"
#include "retrybackoff_p.h"
#include "retrymanager_p.h"
#include "scheduler_p.h"
#include "shownkeysmanager_p.h"

#include <QtCore/QRandomGenerator>

namespace DataClient {

using detail::Lifecycle;

LiveFeedPrivate::LiveFeedPrivate(LiveFeed *q, Controller *controller, LiveSource *source,
                                 const LiveMapping &mapping)
    : q(q), controller(controller), source(source), mapping(mapping)
{
    if (controller)
        core = ControllerPrivate::get(controller);
}

bool LiveFeedPrivate::wanted() const
{
    return active && !stopped && (!onDemand || watchedCount > 0 || !graceOver);
}

void LiveFeedPrivate::update()
{
    if (!core || !source)
        return;
    if (wanted() && core->online)
        open();
    else
        close();
}

void LiveFeedPrivate::open()
{
    const LiveSource::State state = source->state();
    if (state == LiveSource::State::Open || state == LiveSource::State::Connecting)
        return;
    if (reconnectEntry && core->scheduler->isScheduled(reconnectEntry))
        return; // waiting for its backoff
    reconnectEntry = 0;
    resuming = everOpened && source->canResume();
    source->open();
}

void LiveFeedPrivate::close()
{
    if (reconnectEntry && core)
        core->scheduler->cancel(reconnectEntry);
    reconnectEntry = 0;
    // A source closed already keeps the error that closed it (a policy violation, a 204).
    if (source && source->state() != LiveSource::State::Closed)
        source->close();
}

void LiveFeedPrivate::opened()
{
    const bool reconnect = everOpened;
    everOpened = true;
    sendSubscriptions();
    if (reconnect && !resuming)
        catchUp("reconnected without resuming");
}

void LiveFeedPrivate::droppedConnection(const QString &error, bool reconnect)
{
    if (!core)
        return;
    if (!reconnect) {
        // A policy violation, an SSE 204 or a wrong content type: coming back would loop.
        stopped = true;
        if (!error.isEmpty())
            qCWarning(lcController).noquote() << "LiveFeed:" << error;
        return;
    }
    if (!core->online || !wanted())
        return; // reopened when back online (or wanted again)
    const int attempt = source->attempt();
    qint64 delay = source->retryHintMs();
    if (delay < 0) {
        const Controller::RandomSource &random = core->managers->retry->random;
        const double unit = random ? random() : QRandomGenerator::global()->generateDouble();
        delay = detail::RetryBackoff::delayBefore(attempt + 1, RetryPolicy::forReads(),
                                                  NetworkError(), unit, core->now());
    }
    reconnectEntry = core->scheduler->scheduleIn(delay, q, [this] {
        reconnectEntry = 0;
        update();
    });
}

void LiveFeedPrivate::onlineChanged(bool online)
{
    if (!online) {
        // Nothing is tried while offline; back online, the source opens at once.
        close();
        return;
    }
    update();
}

void LiveFeedPrivate::reset()
{
    queue.clear();
    queueHead = 0;
    close();
    everOpened = false; // the emptied store has nothing to catch up
    QMetaObject::invokeMethod(
        q, [this] { update(); }, Qt::QueuedConnection);
}

void LiveFeedPrivate::shutdown()
{
    close();
    queue.clear();
    queueHead = 0;
    core = nullptr;
}

void LiveFeedPrivate::catchUp(const char *why)
{
    if (!core)
        return;
    ++catchUps;
    QList<std::pair<EndpointPtr, Params>> keys = watched.all();
    const QList<EndpointPtr> covers = mapping.covers();
    if (!covers.isEmpty()) {
        for (const auto &shown : core->managers->shown->shown.all()) {
            for (const EndpointPtr &endpoint : covers) {
                if (shown.first == endpoint)
                    keys.append(shown);
            }
        }
    }
    QSet<QString> asked;
    int started = 0;
    for (const auto &[endpoint, params] : keys) {
        const QString requestKey = endpoint->requestKey(params);
        if (asked.contains(requestKey) || core->inFlight.findRead(requestKey))
            continue; // once per key
        asked.insert(requestKey);
        QFuture<QVariant> request = core->fetch(endpoint, params, QJsonValue());
        Q_UNUSED(request); // the outcome arrives through changed()
        ++started;
    }
    qCDebug(lcController) << "LiveFeed:" << why << "- refetching" << started << "keys";
    Q_EMIT q->countsChanged();
}

void LiveFeedPrivate::sendSubscriptions()
{
    for (const auto &[endpoint, params] : watched.all()) {
        const QByteArray message = mapping.subscribeMessage(endpoint, params, true);
        if (!message.isEmpty())
            source->send(message);
    }
}

LiveFeed::LiveFeed(Controller *controller, LiveSource *source, const LiveMapping &mapping,
                   QObject *parent)
    : QObject(parent), d(std::make_unique<LiveFeedPrivate>(this, controller, source, mapping))
{
    if (!controller || !source) {
        qCWarning(lcController) << "LiveFeed: expected a Controller and a LiveSource; got"
                                << controller << source << "- the feed does nothing";
        d->core = nullptr;
        return;
    }
    DATACLIENT_ASSERT_THREAD(controller);
    d->core->managers->push->feeds.append(d.get());
    connect(source, &LiveSource::opened, this, [this] { d->opened(); });
    connect(source, &LiveSource::dropped, this, [this](const QString &error, bool reconnect) {
        d->droppedConnection(error, reconnect);
    });
    connect(source, &LiveSource::messageReceived, this,
            [this](const LiveMessage &message) { d->enqueue(message); });
    // Another url: another server, a fresh connection (nothing of the old one to resume).
    connect(source, &LiveSource::urlChanged, this, [this] {
        d->close();
        d->everOpened = false;
        d->stopped = false;
        d->update();
    });
    // Opened on the next turn: the application finishes setting the feed up first.
    QMetaObject::invokeMethod(
        this, [this] { d->update(); }, Qt::QueuedConnection);
}

LiveFeed::~LiveFeed()
{
    if (d->source)
        d->source->disconnect(this);
    if (d->core) {
        d->core->managers->push->feeds.removeOne(d.get());
        d->close();
    }
}

Controller *LiveFeed::controller() const
{
    return d->controller;
}

LiveSource *LiveFeed::source() const
{
    return d->source;
}

LiveMapping LiveFeed::mapping() const
{
    return d->mapping;
}

void LiveFeed::setMapping(const LiveMapping &mapping)
{
    d->mapping = mapping;
}

bool LiveFeed::isActive() const
{
    return d->active;
}

void LiveFeed::setActive(bool active)
{
    if (active == d->active)
        return;
    d->active = active;
    d->stopped = false;
    d->update();
    Q_EMIT activeChanged();
}

bool LiveFeed::onDemand() const
{
    return d->onDemand;
}

void LiveFeed::setOnDemand(bool onDemand)
{
    if (onDemand == d->onDemand)
        return;
    d->onDemand = onDemand;
    d->update();
    Q_EMIT activeChanged();
}

int LiveFeed::graceMs() const
{
    return d->graceMs;
}

void LiveFeed::setGraceMs(int ms)
{
    d->graceMs = qMax(0, ms);
}

int LiveFeed::maxMessagesPerTurn() const
{
    return d->maxPerTurn;
}

void LiveFeed::setMaxMessagesPerTurn(int messages)
{
    d->maxPerTurn = qMax(1, messages);
}

int LiveFeed::maxQueuedMessages() const
{
    return d->maxQueued;
}

void LiveFeed::setMaxQueuedMessages(int messages)
{
    d->maxQueued = qMax(1, messages);
}

int LiveFeed::turnBudgetMs() const
{
    return d->budgetMs;
}

void LiveFeed::setTurnBudgetMs(int ms)
{
    d->budgetMs = qMax(1, ms);
}

bool LiveFeed::watch(const EndpointPtr &endpoint, const Params &params)
{
    if (!d->core)
        return false;
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "LiveFeed::watch");
    if (keyed.error) {
        qCWarning(lcController).noquote() << keyed.error->message();
        return false;
    }
    d->watched.add(keyed.key, endpoint, params);
    ++d->watchedCount;
    if (d->graceEntry)
        d->core->scheduler->cancel(std::exchange(d->graceEntry, 0));
    d->graceOver = false;
    d->core->each(Lifecycle::Referenced, [](Lifecycle &manager) { manager.referenced(); });
    if (d->watched.viewers(keyed.key) == 1 && d->source
        && d->source->state() == LiveSource::State::Open) {
        const QByteArray message = d->mapping.subscribeMessage(endpoint, params, true);
        if (!message.isEmpty())
            d->source->send(message);
    }
    d->update();
    Q_EMIT watchedKeysChanged();
    return true;
}

bool LiveFeed::unwatch(const EndpointPtr &endpoint, const Params &params)
{
    if (!d->core)
        return false;
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "LiveFeed::unwatch");
    if (keyed.error || !d->watched.remove(keyed.key))
        return false;
    --d->watchedCount;
    if (d->watched.viewers(keyed.key) == 0 && d->source
        && d->source->state() == LiveSource::State::Open) {
        const QByteArray message = d->mapping.subscribeMessage(endpoint, params, false);
        if (!message.isEmpty())
            d->source->send(message);
    }
    const QString key = keyed.key;
    d->core->each(Lifecycle::Released,
                  [&](Lifecycle &manager) { manager.released(key, endpoint, params); });
    if (d->watchedCount == 0 && d->onDemand && d->core) {
        d->graceEntry = d->core->scheduler->scheduleIn(d->graceMs, this, [this] {
            d->graceEntry = 0;
            d->graceOver = true;
            d->update();
        });
    }
    Q_EMIT watchedKeysChanged();
    return true;
}

int LiveFeed::watchedKeyCount() const
{
    return d->watchedCount;
}

int LiveFeed::appliedCount() const
{
    return d->applied;
}

int LiveFeed::malformedCount() const
{
    return d->malformed;
}

int LiveFeed::droppedCount() const
{
    return d->dropped;
}

int LiveFeed::catchUpCount() const
{
    return d->catchUps;
}

} // namespace DataClient
