// The Controller's core: the store, the requests in flight, per-key fetch states, the optimistic
// guesses, the one scheduler, the network access manager and the clock; a request's way from
// fetch() to send, answer, commit or fail. Every feature acts through the lifecycle steps of its
// manager (lifecycle_p.h, managers.cpp); nothing here names one.
#pragma once

#include "backgroundjson_p.h"
#include "controllerkeys_p.h"
#include "fetchstates_p.h"
#include "guesses_p.h"
#include "inflighttable_p.h"
#include "lifecycle_p.h"

#include <DataClient/controller.h>
#include <DataClient/private/controllerinspection_p.h>
#include <DataClient/restendpoint.h>
#include <DataClient/store.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QPointer>

#include <array>
#include <memory>
#include <optional>

namespace DataClient {

namespace detail {
class Scheduler;
struct Managers;
} // namespace detail

class ControllerPrivate
{
public:
    explicit ControllerPrivate(Controller *controller);
    ~ControllerPrivate();
    static ControllerPrivate *get(Controller *controller) { return controller->d.get(); }
    static const ControllerPrivate *get(const Controller *controller)
    {
        return controller->d.get();
    }

    qint64 now() const;
    //! A request's send date: the clock, but strictly increasing, so that two requests sent in
    //! the same millisecond are still ordered (three rapid toggles must end on the last).
    qint64 nextRequestDate();
    Meta responseMeta(const RestEndpoint &endpoint, qint64 date) const;

    //! After a commit (also an empty one, which may renew a meta): the managers see it, then
    //! changed() is emitted unless \a changes is empty.
    //! \a origin: what made it, \a request the request that did (0: none); the store
    //! inspector's timeline reads them in a slot (detail::changeOrigin()).
    void emitChanged(const ChangeSet &changes,
                     detail::ChangeOrigin origin = detail::ChangeOrigin::Other,
                     quint64 request = 0);
    //! After a change of the optimistic guesses only (shown, rolled back), which are never
    //! persisted.
    void emitOptimistic(const ChangeSet &changes,
                        detail::ChangeOrigin origin = detail::ChangeOrigin::Optimistic,
                        quint64 request = 0);
    //! The origin of the change being emitted, and its request (0: none).
    detail::ChangeOrigin changeOrigin = detail::ChangeOrigin::Other;
    quint64 changeRequest = 0;
    void emitWithOrigin(const ChangeSet &changes, detail::ChangeOrigin origin, quint64 request);

    //! Calls \a call(manager) on every manager that acts at \a step, in registration order.
    template<typename Call> void each(detail::Lifecycle::Step step, Call &&call) const
    {
        for (detail::Lifecycle *manager : steps[detail::stepIndex(step)])
            call(*manager);
    }

    // A request's way (controllerfetch.cpp, controlleranswer.cpp) --------------------------------
    //! \a deferred: add the guesses' changes to it instead of emitting them (a held write
    //! released within the commit of its create).
    QFuture<QVariant> fetch(const EndpointPtr &endpoint, const Params &params,
                            const QJsonValue &body, ChangeSet *deferred = nullptr);
    //! Starts \a request's next attempt unless a manager holds it (Lifecycle::holds()). Returns
    //! what dating its guess changed of what is shown (the caller emits it).
    [[nodiscard]] ChangeSet send(detail::InFlightRequest &request);
    //! send() for a request that waited (held, backoff), then the signals. A slot may destroy
    //! the Controller.
    void sendWaiting(detail::InFlightRequest &request);
    //! A new caller of \a request: its own future (Qt 6.4 keeps one continuation per future).
    QFuture<QVariant> join(detail::InFlightRequest &request);
    //! Aborts \a request's exchange at once (its answer then fails as Canceled), or ends it when
    //! it waits. A finished future is left alone: in Qt 6.4, cancelling a finished future that
    //! has a continuation can cancel an unrelated newer one.
    void abort(detail::InFlightRequest &request);
    //! Ends a request that waits without an answer: its callers are canceled, nothing is
    //! stored. Emits fetchStateChanged when the key stops loading.
    void endWaiting(quint64 id, const char *why);
    //! Every waiting request ends canceled, silently (reset, shutdown).
    void endAllWaiting();
    //! \a request is answered with \a answer instead of the network (a manager's answer).
    void answerWith(detail::InFlightRequest &request, const QFuture<QJsonValue> &answer);
    //! \a request's attempt failed: true when a manager schedules another (it waits meanwhile).
    bool retries(detail::InFlightRequest &request);
    //! The endpoint's future finished: convert or normalize a large answer on a worker, or
    //! complete().
    void onAnswer(quint64 id);
    //! A watcher of \a future owned by the Controller that calls \a slot on the Controller's
    //! thread when it finishes: destroying the Controller destroys the watcher.
    template<typename T, typename Slot>
    QFutureWatcher<T> *watch(const QFuture<T> &future, Slot slot)
    {
        auto *watcher = new QFutureWatcher<T>(q);
        QObject::connect(watcher, &QFutureWatcherBase::finished, q, std::move(slot));
        watcher->setFuture(future);
        return watcher;
    }
    //! The worker's job on a large answer finished.
    void onConverted(quint64 id);
    //! Takes the request out of flight and commits its answer (\a worked when a worker
    //! converted or prepared it) or fails it; resolves the caller's future.
    void complete(quint64 id, detail::BackgroundJson::Result *worked);
    //! Writes a successful answer and gives the callers their value (or fails it when the answer
    //! does not fit the schema). Returns whether the key's fetch state changed.
    template<typename Value>
    bool commit(detail::InFlightRequest &request, const Value &value,
                PreparedWrite *prepared = nullptr);
    //! Removes the request's guess, stores the error, fails the callers. Returns whether the
    //! key's fetch state changed.
    bool fail(detail::InFlightRequest &request, const NetworkError &error);
    //! Stops everything in flight (destruction): no callback runs afterwards.
    void shutdown();

    Controller *q;
    QPointer<QNetworkAccessManager> network;
    std::unique_ptr<Store> store;
    Controller::Clock clock;
    qint64 lastRequestDate = 0;
    //! Incremented by resetEntireStore(); answers of older generations are dropped.
    quint64 generation = 0;
    bool shuttingDown = false;
    //! The network is there (Connectivity, told by the connectivity manager).
    bool online = true;
    detail::InFlightTable inFlight;
    detail::FetchStates states;
    detail::Guesses guesses;
    //! Everything that waits (polls, backoff, writes) waits here: one clock drives them all.
    detail::Scheduler *scheduler = nullptr;
    //! The managers, in registration order, and which of them act at each step.
    std::unique_ptr<detail::Managers> managers;
    std::array<QList<detail::Lifecycle *>, detail::Lifecycle::StepCount> steps;
};

} // namespace DataClient
