// The application's managers (Controller::addManager()), as one manager of the core: last in the
// registration order, so an app's manager sees what the library's own managers decided.
#pragma once

#include "lifecycle_p.h"

#include <DataClient/manager.h>

#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QSet>

namespace DataClient::detail {

class AppManagers final : public Lifecycle
{
public:
    explicit AppManagers(ControllerPrivate &core);

    //! Controller::addManager(): false (and a warning saying why) for null, twice, or a manager
    //! of another Controller.
    bool add(Manager *manager);
    //! Controller::removeManager() and ~Manager(): the requests it held are sent.
    bool remove(Manager *manager);
    QList<Manager *> all() const;

    //! ~Manager(): warns (naming it as it was registered: its own class is gone by now), removes.
    void destroyed(Manager *manager);

    bool release(Manager *manager, quint64 id);
    //! Manager::answer() and fail() (\a action names the one called in the warning).
    bool answer(Manager *manager, quint64 id, const QFuture<QJsonValue> &answer,
                const char *action);
    QList<quint64> heldBy(const Manager *manager) const;

    bool holds(InFlightRequest &request) override;
    void requestMade(InFlightRequest &request) override;
    void decorate(InFlightRequest &request, Headers *headers) override;
    void attemptFailed(InFlightRequest &request, const NetworkError &error,
                       RetryPlan *plan) override;
    void answered(InFlightRequest &request) override;
    void committed(InFlightRequest &request, Commit *commit) override;
    void failed(InFlightRequest &request, const NetworkError &error, Failure *) override;
    void requestEnded(const InFlightRequest &request) override;
    void invalidated(const QStringList &keys) override;
    void expired(const QStringList &keys) override;
    void reset() override;
    void storeReset() override;
    void shutdown() override;

private:
    struct Hold
    {
        QPointer<Manager> manager;
        quint64 deadline = 0; // the Scheduler entry that ends it
    };
    //! \a attempt: the one the step concerns (0: the request's current one).
    ManagedRequest snapshot(const InFlightRequest &request, int attempt = 0) const;
    //! Calls \a call on every manager; one that throws is logged as failing at \a step.
    template<typename Call> void notify(const char *step, Call &&call);
    template<typename Call> bool guarded(Manager *manager, const char *step, Call &&call);
    bool take(Manager *manager, quint64 id, const char *action);
    void expire(quint64 id);

    QList<QPointer<Manager>> m_managers;
    //! The registered managers' names (class and objectName), taken when they were added.
    QHash<const Manager *, QString> m_names;
    QHash<quint64, Hold> m_held;
    //! The managers that let an attempt go (asked again when another releases it), by request.
    QHash<quint64, QSet<const Manager *>> m_passed;
    //! The attempt each request last tried (sent or held): attemptFailed() is told the attempt
    //! that failed, while the retry manager (before this one) already counts the next.
    QHash<quint64, int> m_sentAttempt;
};

} // namespace DataClient::detail
