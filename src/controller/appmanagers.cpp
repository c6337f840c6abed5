#include "appmanagers_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managedrequest_p.h"
#include "scheduler_p.h"

#include <exception>

namespace DataClient::detail {

namespace {

QString nameOf(const QObject *manager)
{
    const QString type = QString::fromLatin1(manager->metaObject()->className());
    return manager->objectName().isEmpty()
        ? type
        : QStringLiteral("%1 \"%2\"").arg(type, manager->objectName());
}

} // namespace

AppManagers::AppManagers(ControllerPrivate &core)
    : Lifecycle(core,
                Holds | RequestMade | Decorate | AttemptFailed | Answered | Committed | Failed
                    | RequestEnded | Invalidated | Expired | Reset | StoreReset | Shutdown)
{ }

bool AppManagers::add(Manager *manager)
{
    const auto refuse = [](const QString &why) {
        qCWarning(lcController).noquote() << QStringLiteral("Controller::addManager: %1").arg(why);
        return false;
    };
    if (!manager)
        return refuse(QStringLiteral("the manager is null (expected a DataClient::Manager)"));
    if (manager->m_controller == core.q)
        return refuse(QStringLiteral("%1 is already registered with this Controller; it acts "
                                     "once per step whatever the number of calls")
                          .arg(nameOf(manager)));
    if (manager->m_controller)
        return refuse(QStringLiteral("%1 is registered with another Controller; remove it there "
                                     "first (Controller::removeManager())")
                          .arg(nameOf(manager)));
    if (manager->thread() != core.q->thread())
        return refuse(QStringLiteral("%1 lives on another thread than the Controller; managers "
                                     "are called on the Controller's thread")
                          .arg(nameOf(manager)));
    manager->m_controller = core.q;
    m_managers.append(manager);
    m_names.insert(manager, nameOf(manager));
    Q_EMIT manager->controllerChanged();
    return true;
}

bool AppManagers::remove(Manager *manager)
{
    if (!manager || manager->m_controller != core.q)
        return false;
    m_managers.removeAll(manager);
    m_managers.removeAll(nullptr);
    m_names.remove(manager);
    manager->m_controller = nullptr;
    QList<quint64> released;
    for (auto it = m_held.cbegin(); it != m_held.cend(); ++it) {
        if (it->manager == manager)
            released.append(it.key());
    }
    std::sort(released.begin(), released.end());
    for (const quint64 id : std::as_const(released))
        release(nullptr, id);
    Q_EMIT manager->controllerChanged();
    return true;
}

void AppManagers::destroyed(Manager *manager)
{
    qCWarning(lcController).noquote()
        << QStringLiteral("%1 was destroyed while registered with a Controller: it is removed; "
                          "the requests it held are sent (call Controller::removeManager() first "
                          "to say so)")
               .arg(m_names.value(manager, QStringLiteral("a DataClient::Manager")));
    remove(manager);
}

QList<Manager *> AppManagers::all() const
{
    QList<Manager *> managers;
    for (const QPointer<Manager> &manager : m_managers) {
        if (manager)
            managers.append(manager);
    }
    return managers;
}

template<typename Call> bool AppManagers::guarded(Manager *manager, const char *step, Call &&call)
{
    try {
        call(*manager);
        return true;
    } catch (...) {
        qCWarning(lcController).noquote()
            << QStringLiteral("%1 threw in %2(): %3; the step goes on as if it did nothing")
                   .arg(nameOf(manager), QLatin1StringView(step),
                        NetworkError::fromException(std::current_exception()).message());
        return false;
    }
}

template<typename Call> void AppManagers::notify(const char *step, Call &&call)
{
    if (m_managers.isEmpty())
        return;
    const QList<Manager *> managers = all(); // a manager may add or remove others
    for (Manager *manager : managers)
        guarded(manager, step, call);
}

ManagedRequest AppManagers::snapshot(const InFlightRequest &request, int attempt) const
{
    auto *data = new ManagedRequestData;
    data->id = request.id;
    data->endpoint = request.endpoint;
    data->params = request.params;
    data->body = request.body;
    data->key = request.key;
    data->requestKey = request.requestKey;
    data->read = request.read;
    ResponseState progress;
    progress.attempt = 1;
    core.each(Describe, [&](Lifecycle &manager) { manager.describe(request, &progress); });
    data->attempt = attempt > 0 ? attempt : progress.attempt;
    data->status = request.context.status();
    data->bytesReceived = request.context.bodyBytes();
    return ManagedRequest(data);
}

bool AppManagers::holds(InFlightRequest &request)
{
    if (m_managers.isEmpty())
        return false;
    if (m_held.contains(request.id))
        return true;
    const ManagedRequest seen = snapshot(request);
    m_sentAttempt.insert(request.id, seen.attempt());
    QSet<const Manager *> &passed = m_passed[request.id];
    for (Manager *manager : all()) {
        if (passed.contains(manager))
            continue;
        Manager::Decision decision = Manager::Decision::Send;
        guarded(manager, "beforeSend", [&](Manager &m) { decision = m.beforeSend(seen); });
        if (decision == Manager::Decision::Send) {
            passed.insert(manager);
            continue;
        }
        Hold hold {manager, 0};
        if (const int timeout = request.endpoint->timeout(); timeout > 0) {
            const quint64 id = request.id;
            hold.deadline = core.scheduler->scheduleIn(timeout, core.q, [this, id] { expire(id); });
        }
        m_held.insert(request.id, hold);
        qCDebug(lcController).noquote() << nameOf(manager) << "holds" << request.requestKey;
        return true;
    }
    return false;
}

bool AppManagers::take(Manager *manager, quint64 id, const char *action)
{
    const auto found = m_held.constFind(id);
    if (found == m_held.cend() || (manager && found->manager != manager)) {
        qCWarning(lcController).noquote()
            << QStringLiteral("Manager::%1(%2): %3 holds no such request (see heldRequests(); a "
                              "request is held from beforeSend() returning Hold until it is "
                              "released, answered, failed or its deadline passes)")
                   .arg(QLatin1StringView(action), QString::number(id),
                        manager ? nameOf(manager) : QStringLiteral("no manager"));
        return false;
    }
    const Hold hold = m_held.take(id);
    if (hold.deadline)
        core.scheduler->cancel(hold.deadline);
    if (hold.manager)
        m_passed[id].insert(hold.manager);
    return true;
}

bool AppManagers::release(Manager *manager, quint64 id)
{
    if (!take(manager, id, "release"))
        return false;
    if (InFlightRequest *request = core.inFlight.find(id); request && request->held)
        core.sendWaiting(*request); // the other managers are asked again; those that passed not
    return true;
}

bool AppManagers::answer(Manager *manager, quint64 id, const QFuture<QJsonValue> &answer,
                         const char *action)
{
    if (!take(manager, id, action))
        return false;
    // At the next event-loop turn, like an answer from the network: the manager's call returns
    // before anything is stored or resolved.
    QMetaObject::invokeMethod(
        core.q,
        [this, id, answer] {
            if (InFlightRequest *request = core.inFlight.find(id); request && request->held)
                core.answerWith(*request, answer);
        },
        Qt::QueuedConnection);
    return true;
}

QList<quint64> AppManagers::heldBy(const Manager *manager) const
{
    QList<quint64> ids;
    for (auto it = m_held.cbegin(); it != m_held.cend(); ++it) {
        if (it->manager == manager)
            ids.append(it.key());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

void AppManagers::expire(quint64 id)
{
    const auto found = m_held.find(id);
    if (found == m_held.end())
        return;
    found->deadline = 0;
    InFlightRequest *request = core.inFlight.find(id);
    const QString who = found->manager ? nameOf(found->manager) : QStringLiteral("a manager");
    m_held.erase(found);
    if (!request)
        return;
    const NetworkError error
        = NetworkError(NetworkError::Kind::Timeout, 0,
                       QStringLiteral("%1: held by %2 for %3 ms (the "
                                      "endpoint's timeout) and never released")
                           .arg(request->requestKey, who)
                           .arg(request->endpoint->timeout()))
              .withRequest(request->endpoint->method(), request->endpoint->url(request->params));
    qCWarning(lcController).noquote() << error.message();
    core.answerWith(*request, QtFuture::makeExceptionalFuture<QJsonValue>(error));
}

void AppManagers::requestMade(InFlightRequest &request)
{
    if (m_managers.isEmpty())
        return;
    const ManagedRequest seen = snapshot(request);
    notify("requestStarted", [&](Manager &m) { m.requestStarted(seen); });
}

void AppManagers::decorate(InFlightRequest &request, Headers *headers)
{
    m_passed.remove(request.id); // the next attempt asks every manager again
    if (m_managers.isEmpty())
        return;
    const ManagedRequest seen = snapshot(request);
    m_sentAttempt.insert(request.id, seen.attempt());
    notify("decorate", [&](Manager &m) { m.decorate(seen, headers); });
}

void AppManagers::attemptFailed(InFlightRequest &request, const NetworkError &error,
                                RetryPlan *plan)
{
    // A 304 arrives as an error, yet it is an answer the validators take over (the stored data
    // is kept): not a failed attempt for the application.
    if (m_managers.isEmpty() || request.context.conditionalRequest().notModified())
        return;
    const ManagedRequest seen = snapshot(request, m_sentAttempt.value(request.id));
    notify("attemptFailed", [&](Manager &m) { m.attemptFailed(seen, error, plan->retrying); });
}

void AppManagers::answered(InFlightRequest &request)
{
    if (m_managers.isEmpty())
        return;
    const ManagedRequest seen = snapshot(request);
    notify("answered", [&](Manager &m) { m.answered(seen); });
}

void AppManagers::committed(InFlightRequest &request, Commit *commit)
{
    if (m_managers.isEmpty())
        return;
    const ManagedRequest seen = snapshot(request);
    notify("committed", [&](Manager &m) { m.committed(seen, *commit->changes); });
}

void AppManagers::failed(InFlightRequest &request, const NetworkError &error, Failure *)
{
    if (m_managers.isEmpty())
        return;
    const ManagedRequest seen = snapshot(request);
    notify("failed", [&](Manager &m) { m.failed(seen, error); });
}

void AppManagers::requestEnded(const InFlightRequest &request)
{
    m_passed.remove(request.id);
    m_sentAttempt.remove(request.id);
    if (const auto found = m_held.constFind(request.id); found != m_held.cend()) {
        if (found->deadline)
            core.scheduler->cancel(found->deadline);
        m_held.erase(found);
    }
}

void AppManagers::invalidated(const QStringList &keys)
{
    notify("invalidated", [&](Manager &m) { m.invalidated(keys); });
}

void AppManagers::expired(const QStringList &keys)
{
    notify("invalidated", [&](Manager &m) { m.invalidated(keys); });
}

void AppManagers::reset()
{
    // The requests they held ended with the reset (canceled, like every waiting request).
    for (const Hold &hold : std::as_const(m_held)) {
        if (hold.deadline)
            core.scheduler->cancel(hold.deadline);
    }
    m_held.clear();
    m_passed.clear();
    m_sentAttempt.clear();
}

void AppManagers::storeReset()
{
    notify("storeReset", [](Manager &m) { m.storeReset(); });
}

void AppManagers::shutdown()
{
    m_held.clear(); // the scheduler goes with the Controller
    m_passed.clear();
    m_sentAttempt.clear();
    for (const QPointer<Manager> &manager : std::as_const(m_managers)) {
        if (manager) {
            manager->m_controller = nullptr;
            Q_EMIT manager->controllerChanged();
        }
    }
    m_managers.clear();
    m_names.clear();
}

} // namespace DataClient::detail
