#include "connectivitymanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"

#include <algorithm>

namespace DataClient::detail {

ConnectivityManager::ConnectivityManager(ControllerPrivate &core)
    : Lifecycle(core, Holds | OnlineChanged | RequestEnded | Reset)
{ }

void ConnectivityManager::start()
{
    setConnectivity(nullptr);
}

bool ConnectivityManager::holds(InFlightRequest &request)
{
    // A mutation that is not kept is sent (and fails at once): its caller decides.
    if (core.online || !(request.read || request.keepWithoutCallers))
        return false;
    m_held.insert(request.id);
    return true;
}

void ConnectivityManager::setConnectivity(Connectivity *source)
{
    if (!source)
        source = Connectivity::system();
    if (source == connectivity)
        return;
    QObject::disconnect(m_connection);
    connectivity = source;
    m_connection = QObject::connect(source, &Connectivity::onlineChanged, core.q,
                                    [this](bool online) { setOnline(online); });
    setOnline(source->isOnline());
}

void ConnectivityManager::setOnline(bool online)
{
    if (online == core.online)
        return;
    core.online = online;
    qCDebug(lcController) << "controller is" << (online ? "online" : "offline");
    const QPointer<Controller> alive(core.q);
    Q_EMIT core.q->onlineChanged(online);
    // Each manager acts in turn; a slot may go offline again or destroy the Controller.
    const QList<Lifecycle *> managers = core.steps[detail::stepIndex(OnlineChanged)];
    for (Lifecycle *manager : managers) {
        if (!alive || core.online != online)
            return;
        manager->onlineChanged(online);
    }
}

void ConnectivityManager::onlineChanged(bool online)
{
    if (!online)
        return;
    // Reads that waited for the network go first (after the outbox's changes); a read of a key in
    // flight joins it: one request per key, however often the network flapped. Changes kept
    // until answered go in the outbox's order, by the outbox.
    QList<quint64> held;
    for (const quint64 id : std::as_const(m_held)) {
        const InFlightRequest *request = core.inFlight.find(id);
        if (request && request->held && !request->keepWithoutCallers)
            held.append(id);
    }
    std::sort(held.begin(), held.end()); // in the order they were made
    const QPointer<Controller> alive(core.q);
    for (const quint64 id : std::as_const(held)) {
        InFlightRequest *request = core.inFlight.find(id);
        if (!alive || !core.online)
            return; // a slot went offline again or destroyed the Controller
        if (!request || !request->held)
            continue;
        m_held.remove(id);
        if (request->callers.waiting() == 0) {
            core.endWaiting(id, "every caller left while offline"); // a query destroyed offline
            continue;
        }
        core.sendWaiting(*request);
    }
}

void ConnectivityManager::requestEnded(const InFlightRequest &request)
{
    m_held.remove(request.id);
}

void ConnectivityManager::reset()
{
    m_held.clear();
}

} // namespace DataClient::detail

namespace DataClient {

void Controller::setConnectivity(Connectivity *connectivity)
{
    DATACLIENT_ASSERT_THREAD(this);
    d->managers->connectivity->setConnectivity(connectivity);
}

Connectivity *Controller::connectivity() const
{
    return d->managers->connectivity->connectivity;
}

bool Controller::isOnline() const
{
    return d->online;
}

} // namespace DataClient
