// What makes the Controller act on its own besides polling (issue 13): connectivity (nothing is
// sent while offline; on reconnect paused reads are sent and stale shown keys refetched once),
// the application state (polling pauses while suspended; becoming active after a while
// refetches), and the time API that lets a test drive every wait.
#include "controller_p.h"
#include "logging_p.h"

#include <DataClient/connectivity.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QMetaMethod>
#include <QtCore/QThread>

namespace DataClient {

using detail::InFlightRequest;

void ControllerPrivate::onOnline(bool isOnline)
{
    if (isOnline == online)
        return;
    online = isOnline;
    qCDebug(lcController) << "controller is" << (online ? "online" : "offline");
    updatePolling();
    if (online)
        gcRevalidatable();
    const QPointer<Controller> alive(q);
    Q_EMIT q->onlineChanged(online);
    if (alive && online)
        reconnect();
}

void ControllerPrivate::reconnect()
{
    // Reads that waited for the network go first; then stale shown keys (a read of a key in
    // flight joins it: one request per key, however often the network flapped).
    const QPointer<Controller> alive(q);
    // The outbox first: its changes are replayed (one at a time) before the reads they affect.
    pumpOutbox();
    if (!alive)
        return;
    QList<quint64> paused;
    for (const InFlightRequest *request : inFlight.all()) {
        if (request->paused && !request->outbox)
            paused.append(request->id);
    }
    std::sort(paused.begin(), paused.end()); // in the order they were made
    for (const quint64 id : std::as_const(paused)) {
        InFlightRequest *request = inFlight.find(id);
        if (!alive || offline())
            return; // a slot went offline again or destroyed the Controller
        if (!request || !request->paused)
            continue;
        if (request->callers.waiting() == 0) {
            endWaiting(id, "every caller left while offline"); // a query destroyed offline
            continue;
        }
        sendWaiting(*request);
    }
    if (alive && online)
        refetchShown(false);
}

void ControllerPrivate::refetchShown(bool activation)
{
    QList<std::pair<EndpointPtr, Params>> keys = shown.all();
    if (polls)
        keys += polls->polled();
    for (auto &[endpoint, params] : keys) {
        if (activation && !endpoint->refetchOnActivate())
            continue;
        QString requestKey = endpoint->requestKey(params);
        if (refetchQueued.contains(requestKey))
            continue; // a key both shown and polled, or a flapping network: once
        refetchQueued.insert(std::move(requestKey));
        refetchQueue.append({std::move(endpoint), std::move(params)});
    }
    qCDebug(lcController) << refetchQueue.size() << "shown keys to check"
                          << (activation ? "(application active)" : "(reconnect)");
    drainRefetches();
}

void ControllerPrivate::drainRefetches()
{
    drainScheduled = false;
    int started = 0;
    const QPointer<Controller> alive(q);
    while (!refetchQueue.isEmpty() && started < RefetchBatch) {
        if (!alive)
            return;
        if (offline()) {
            // Offline again: the next reconnect queues what is still stale.
            refetchQueue.clear();
            refetchQueued.clear();
            return;
        }
        const auto [endpoint, params] = refetchQueue.takeFirst();
        const QString requestKey = endpoint->requestKey(params);
        refetchQueued.remove(requestKey);
        if (inFlight.findRead(requestKey))
            continue; // already asked (a paused read sent on reconnect, a poll)
        if (q->getResponse(endpoint, params).status == ExpiryStatus::Valid)
            continue;
        QFuture<QVariant> request = fetch(endpoint, params, QJsonValue());
        Q_UNUSED(request); // the outcome arrives through changed() / fetchStateChanged()
        ++started;
    }
    if (alive && !refetchQueue.isEmpty() && !drainScheduled) {
        // The next batch after the event loop had its turn (not a wait: no scheduler entry).
        drainScheduled = true;
        QMetaObject::invokeMethod(
            q, [this] { drainRefetches(); }, Qt::QueuedConnection);
    }
}

void ControllerPrivate::updatePolling()
{
    if (!polls)
        return;
    const bool asleep
        = applicationState == Qt::ApplicationSuspended || applicationState == Qt::ApplicationHidden;
    polls->setPaused(offline() || asleep);
}

bool Controller::watch(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "watch");
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return false;
    }
    d->shown.add(key, endpoint, params);
    d->updateGcSchedule(true);
    return true;
}

bool Controller::unwatch(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "unwatch");
    if (keyError || !d->shown.remove(key))
        return false;
    d->gcReleased(key, endpoint, params);
    return true;
}

void Controller::setConnectivity(Connectivity *connectivity)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (!connectivity)
        connectivity = Connectivity::system();
    if (connectivity == d->connectivity)
        return;
    disconnect(d->connectivityConnection);
    d->connectivity = connectivity;
    d->connectivityConnection = connect(connectivity, &Connectivity::onlineChanged, this,
                                        [this](bool online) { d->onOnline(online); });
    d->onOnline(connectivity->isOnline());
}

Connectivity *Controller::connectivity() const
{
    return d->connectivity;
}

bool Controller::isOnline() const
{
    return d->online;
}

void Controller::setRefetchOnActivateAfter(int ms)
{
    DATACLIENT_ASSERT_THREAD(this);
    d->refetchOnActivateAfter = std::max(0, ms);
}

int Controller::refetchOnActivateAfter() const
{
    return d->refetchOnActivateAfter;
}

Qt::ApplicationState Controller::applicationState() const
{
    return d->applicationState;
}

void Controller::setApplicationState(Qt::ApplicationState state)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (state == d->applicationState)
        return;
    d->applicationState = state;
    d->updatePolling();
    if (state != Qt::ApplicationActive) {
        if (d->inactiveSince < 0)
            d->inactiveSince = d->now();
        return;
    }
    const qint64 inactiveFor = d->inactiveSince < 0 ? 0 : d->now() - d->inactiveSince;
    d->inactiveSince = -1;
    if (inactiveFor >= d->refetchOnActivateAfter && d->online)
        d->refetchShown(true);
}

void Controller::setClock(Clock clock)
{
    DATACLIENT_ASSERT_THREAD(this);
    const bool system = !clock;
    d->clock = std::move(clock);
    // A clock other than the system's does not move with real time: its owner runs the waits.
    d->scheduler->setTimerDriven(system);
}

qint64 Controller::now() const
{
    return d->now();
}

qint64 Controller::nextTimerDue() const
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->scheduler->nextDue();
}

int Controller::runDueTimers()
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->scheduler->runDue();
}

void Controller::setRandomSource(RandomSource source)
{
    DATACLIENT_ASSERT_THREAD(this);
    d->random = std::move(source);
}

void ControllerPrivate::followApplicationState()
{
    // The library core is Qt Core only: QGuiApplication's signal is found by name, when the
    // application is one. Other applications call setApplicationState() themselves.
    QCoreApplication *app = QCoreApplication::instance();
    if (!app)
        return;
    const QMetaObject *meta = app->metaObject();
    const int signal = meta->indexOfSignal(
        QMetaObject::normalizedSignature("applicationStateChanged(Qt::ApplicationState)")
            .constData());
    const int slot = Controller::staticMetaObject.indexOfSlot(
        QMetaObject::normalizedSignature("setApplicationState(Qt::ApplicationState)").constData());
    if (signal >= 0 && slot >= 0)
        QObject::connect(app, meta->method(signal), q, Controller::staticMetaObject.method(slot));
}

} // namespace DataClient
