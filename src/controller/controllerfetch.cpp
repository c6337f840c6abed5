// Controller::fetch(): a request is made (or a read in flight joined), its guess shown, then each
// attempt sent unless a manager holds it; requests that wait end here too.
#include "controller_p.h"
#include "logging_p.h"

#include <DataClient/requestcontext.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QThread>

namespace DataClient {

using detail::FetchCall;
using detail::InFlightRequest;
using detail::Lifecycle;
using detail::OptimisticLayers;

namespace {

QFuture<QVariant> failedFuture(const NetworkError &error)
{
    return QtFuture::makeExceptionalFuture<QVariant>(error);
}

QFuture<QVariant> canceledFuture()
{
    QPromise<QVariant> promise;
    promise.start();
    promise.future().cancel();
    promise.finish();
    return promise.future();
}

} // namespace

QFuture<QVariant> Controller::fetch(const EndpointPtr &endpoint, const Params &params,
                                    const QJsonValue &body)
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->fetch(endpoint, params, body);
}

QFuture<QVariant> Controller::fetchIfStale(const EndpointPtr &endpoint, const Params &params,
                                           const QJsonValue &body)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (!endpoint || endpoint->sideEffect())
        return d->fetch(endpoint, params, body);
    const QString requestKey = endpoint->requestKey(params);
    if (InFlightRequest *running = d->inFlight.findRead(requestKey))
        return d->join(*running);
    const ResponseState state = getResponse(endpoint, params);
    if (state.status == ExpiryStatus::Valid) {
        if (state.showsError())
            return failedFuture(*state.error);
        return detail::readyFuture(state.data);
    }
    return d->fetch(endpoint, params, body);
}

QFuture<QVariant> detail::readyFuture(const QVariant &value)
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 6, 0)
    return QtFuture::makeReadyValueFuture(value); // makeReadyFuture(T) is deprecated
#else
    return QtFuture::makeReadyFuture(value);
#endif
}

QFuture<QVariant> ControllerPrivate::fetch(const EndpointPtr &endpoint, const Params &callParams,
                                           const QJsonValue &callBody, ChangeSet *deferred)
{
    if (shuttingDown)
        return canceledFuture();
    auto [key, keyError] = detail::keyOf(endpoint, callParams, "fetch");
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return failedFuture(*keyError);
    }
    // A manager may rewrite the call (placeholder keys never leave the process) or answer it.
    FetchCall call {endpoint, callParams, callBody};
    std::optional<QFuture<QVariant>> handled;
    each(Lifecycle::CallArrived, [&](Lifecycle &manager) {
        if (!handled)
            handled = manager.callArrived(call);
    });
    if (handled)
        return *handled;
    const Params &params = call.params;
    if (params != callParams)
        key = detail::keyOf(endpoint, params, "fetch").key;
    const QString requestKey = endpoint->requestKey(params);
    const bool read = !endpoint->sideEffect();
    if (read) {
        // De-duplication: a read of the same URL in flight answers this call too.
        if (InFlightRequest *running = inFlight.findRead(requestKey))
            return join(*running);
    }
    if (!network) {
        return failedFuture(NetworkError::invalidRequest(
            endpoint->method(), QUrl(),
            QStringLiteral("Controller::fetch(%1): the QNetworkAccessManager given to the "
                           "Controller was destroyed; it must outlive the Controller")
                .arg(key)));
    }
    if (const QString problem = endpoint->retryPolicy().problem(); !problem.isEmpty()) {
        const NetworkError error = NetworkError::invalidRequest(
            endpoint->method(), QUrl(),
            QStringLiteral("Controller::fetch(%1): %2; nothing was sent").arg(key, problem));
        qCWarning(lcController).noquote() << error.message();
        return failedFuture(error);
    }

    auto request = std::make_shared<InFlightRequest>();
    request->id = inFlight.nextId();
    request->endpoint = endpoint;
    request->params = params;
    request->key = key;
    request->requestKey = requestKey;
    request->read = read;
    request->generation = generation;
    request->body = call.body;
    // The guess shows at once, above everything until the request is sent (send() dates it).
    ChangeSet optimisticChanges;
    if (!read && endpoint->optimistic())
        request->layer = guesses.show(*endpoint, params, call.body, OptimisticLayers::unsent,
                                      &optimisticChanges, &request->newRowKey);
    InFlightRequest &added = inFlight.add(request);
    each(Lifecycle::RequestMade, [&](Lifecycle &manager) { manager.requestMade(added); });
    optimisticChanges.unite(send(added));
    QFuture<QVariant> future = join(added);
    qCDebug(lcController).noquote()
        << "fetch" << requestKey << (read ? "(read)" : "(mutation)") << (added.held ? "held" : "");
    const bool startedLoading = states.startLoading(key);

    // Signals last: a slot may call back into the Controller, or even destroy it.
    const QPointer<Controller> alive(q);
    if (deferred)
        deferred->unite(optimisticChanges);
    else
        emitOptimistic(optimisticChanges, detail::ChangeOrigin::Optimistic, added.id);
    if (alive && startedLoading)
        Q_EMIT q->fetchStateChanged(key);
    return future;
}

ChangeSet ControllerPrivate::send(InFlightRequest &request)
{
    request.betweenAttempts = false; // a backoff, if any, is over
    // A manager may keep it: offline, its turn in the outbox, an app's manager.
    bool held = false;
    each(Lifecycle::Holds, [&](Lifecycle &manager) { held = held || manager.holds(request); });
    request.held = held;
    if (held)
        return {};
    // Dated when it leaves, at every attempt (the race rule compares these dates): the server
    // applies requests in the order they reach it, so a read sent while this request waited
    // (in the outbox, for a retry, offline) was answered without it and is older than it.
    request.date = nextRequestDate();
    // Its guess, shown above everything while it waited, takes the same date. That changes
    // nothing shown, except over the guess of a write that still waits (held for a row not
    // created yet), which now shows above this one: the server will apply it after this one.
    ChangeSet shown;
    if (request.layer)
        shown = guesses.redate(request.layer, request.date);
    // An endpoint with the default response hooks hands its answer over as CompactJson, a large
    // body parsed on a worker; others run their hooks on this thread and give a QJsonValue.
    request.compact = request.endpoint->readsOffThread();
    // Each attempt asks with the validators stored when it is sent (a retry, or a read that
    // waited offline, may find newer ones), and with the headers managers add.
    request.context.setConditionalRequest(ConditionalRequest());
    Headers headers;
    each(Lifecycle::Decorate, [&](Lifecycle &manager) { manager.decorate(request, &headers); });
    try {
        // The exchanges the endpoint starts join the request's abort group and send its
        // validators and the managers' headers, even when it sends them later: the context
        // travels with the request, and tells what its answer was (status, bytes).
        request.context.setHeaders(headers);
        if (request.compact)
            request.compactNetwork
                = request.endpoint->fetchCompact(network, request.params, request.body,
                                                 request.context, CompactAnswer::ParseAndPrepare);
        else
            request.network
                = request.endpoint->fetch(network, request.params, request.body, request.context);
    } catch (...) {
        // Hooks report errors through the future; a hook that throws synchronously is
        // treated the same way.
        request.compact = false;
        request.network = QtFuture::makeExceptionalFuture<QJsonValue>(
            NetworkError::fromException(std::current_exception()));
    }
    const quint64 id = request.id;
    const auto answered = [this, id] { onAnswer(id); };
    request.watcher = request.compact
        ? static_cast<QFutureWatcherBase *>(watch(request.compactNetwork, answered))
        : watch(request.network, answered);
    return shown;
}

void ControllerPrivate::sendWaiting(InFlightRequest &request)
{
    const ChangeSet shown = send(request);
    const QString key = request.key;
    const QPointer<Controller> alive(q);
    emitOptimistic(shown, detail::ChangeOrigin::Optimistic, request.id);
    if (alive)
        Q_EMIT q->fetchStateChanged(key); // no longer held or retrying: an attempt runs
}

void ControllerPrivate::answerWith(InFlightRequest &request, const QFuture<QJsonValue> &answer)
{
    request.held = false;
    request.betweenAttempts = false;
    if (request.date == 0)
        request.date = nextRequestDate();
    request.compact = false;
    request.network = answer;
    request.watcher = watch(request.network, [this, id = request.id] { onAnswer(id); });
}

QFuture<QVariant> ControllerPrivate::join(InFlightRequest &request)
{
    QFuture<QVariant> future = request.callers.add();
    // A caller that cancels its future leaves; the request stops when no caller is left.
    auto *watcher = new QFutureWatcher<QVariant>(q);
    const quint64 id = request.id;
    QObject::connect(watcher, &QFutureWatcherBase::canceled, q, [this, id] {
        InFlightRequest *running = inFlight.find(id);
        // A request kept until the server answers it stays, whoever waits for it.
        if (!running || running->keepWithoutCallers || running->callers.waiting() > 0)
            return;
        qCDebug(lcController).noquote()
            << "every caller of" << running->requestKey << "canceled: aborting it";
        abort(*running);
    });
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
    watcher->setFuture(future);
    return future;
}

void ControllerPrivate::abort(InFlightRequest &request)
{
    if (request.isWaiting()) {
        endWaiting(request.id, "every caller canceled");
        return;
    }
    request.context.abortGroup().abort(); // the default network exchange: at once
    // An endpoint's own fetch() hook: through its future (from the event loop).
    QFuture<void> network = request.networkFuture();
    if (!network.isFinished())
        network.cancel();
}

void ControllerPrivate::endWaiting(quint64 id, const char *why)
{
    const std::shared_ptr<InFlightRequest> request = inFlight.take(id);
    if (!request)
        return;
    qCDebug(lcController).noquote()
        << "ended" << request->requestKey << "without an answer:" << why;
    each(Lifecycle::RequestEnded, [&](Lifecycle &manager) { manager.requestEnded(*request); });
    const ChangeSet rollback = guesses.remove(request->layer, 0, {});
    const bool stoppedLoading = states.finishLoading(request->key);
    request->callers.cancel();
    const QPointer<Controller> alive(q);
    emitOptimistic(rollback, detail::ChangeOrigin::Rollback, request->id);
    if (alive && stoppedLoading)
        Q_EMIT q->fetchStateChanged(request->key);
}

void ControllerPrivate::endAllWaiting()
{
    // Silent: the caller (reset, shutdown) reports the keys' states itself, and the managers
    // forget their requests at that step.
    for (InFlightRequest *request : inFlight.all()) {
        if (request->isWaiting())
            inFlight.take(request->id)->callers.cancel();
    }
}

} // namespace DataClient
