// Controller::fetch(): start a request (joining a read in flight), show an optimistic layer,
// and commit or fail when the endpoint's future finishes.
#include "controller_p.h"
#include "expirypolicy_p.h"
#include "logging_p.h"

#include <DataClient/requestcontext.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QThread>

namespace DataClient {

using detail::ExpiryPolicy;
using detail::InFlightRequest;
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
        return ControllerPrivate::readyFuture(state.data);
    }
    return d->fetch(endpoint, params, body);
}

QFuture<QVariant> ControllerPrivate::readyFuture(const QVariant &value)
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
    auto [key, keyError] = keyOf(endpoint, callParams, "fetch");
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return failedFuture(*keyError);
    }
    // Placeholder keys never leave the process (docs/optimistic-updates.md).
    Params params = callParams;
    QJsonValue body = callBody;
    if (std::optional<QFuture<QVariant>> handled = holdForPlaceholders(endpoint, &params, &body))
        return *handled;
    if (params != callParams)
        key = keyOf(endpoint, params, "fetch").key;
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
    const RetryPolicy retry = endpoint->retryPolicy();
    if (const QString problem = retry.problem(); !problem.isEmpty()) {
        const NetworkError error = NetworkError::invalidRequest(
            endpoint->method(), QUrl(),
            QStringLiteral("Controller::fetch(%1): %2; nothing was sent").arg(key, problem));
        qCWarning(lcController).noquote() << error.message();
        return failedFuture(error);
    }

    // Offline, a read waits (paused) and keeps its callers; reconnect() sends it. An outbox
    // item waits for its turn (online, and every item before it answered).
    const bool inOutbox = !read && queues(*endpoint);
    const bool waits = inOutbox ? !outboxIdle() : read && offline();

    auto request = std::make_shared<InFlightRequest>();
    request->id = inFlight.nextId();
    request->endpoint = endpoint;
    request->params = params;
    request->key = key;
    request->requestKey = requestKey;
    request->read = read;
    request->date = waits ? 0 : nextRequestDate(); // sent below; send() dates a waiting one
    request->generation = generation;
    request->body = body;
    request->retry = retry;
    ChangeSet optimisticChanges;
    if (!read && endpoint->optimistic())
        request->layer = applyOptimistic(*endpoint, params, body,
                                         waits ? OptimisticLayers::unsent : request->date,
                                         &optimisticChanges, &request->placeholder);
    InFlightRequest &added = inFlight.add(request);
    if (inOutbox)
        enqueue(added);
    added.paused = waits;
    added.queued = inOutbox && waits;
    if (!added.paused) {
        optimisticChanges.unite(send(added));
        if (inOutbox)
            outboxSending = added.id;
    }
    QFuture<QVariant> future = join(added);
    qCDebug(lcController).noquote() << "fetch" << requestKey << (read ? "(read)" : "(mutation)")
                                    << (added.paused ? "paused: offline" : "");
    const bool startedLoading = states.startLoading(key);

    // Signals last: a slot may call back into the Controller, or even destroy it.
    const QPointer<Controller> alive(q);
    if (deferred)
        deferred->unite(optimisticChanges);
    else
        emitOptimistic(optimisticChanges);
    if (alive && startedLoading)
        Q_EMIT q->fetchStateChanged(key);
    return future;
}

ChangeSet ControllerPrivate::send(InFlightRequest &request)
{
    request.paused = false;
    // Dated when it leaves, at every attempt (the race rule compares these dates): the server
    // applies requests in the order they reach it, so a read sent while this request waited
    // (in the outbox, for a retry, offline) was answered without it and is older than it.
    if (request.date == 0)
        request.date = nextRequestDate();
    // Its guess, shown above everything while it waited, takes the same date. That changes
    // nothing shown, except over the guess of a write that still waits (held for a row not
    // created yet), which now shows above this one: the server will apply it after this one.
    ChangeSet shown;
    if (request.layer && layers.date(request.layer) == OptimisticLayers::unsent)
        shown = redateLayer(request.layer, request.date);
    // An endpoint with the default response hooks hands its answer over as CompactJson, a large
    // body parsed on a worker; others run their hooks on this thread and give a QJsonValue.
    request.compact = request.endpoint->answersOffThread();
    // Each attempt asks with the validators stored when it is sent (a retry, or a read that
    // waited offline, may find newer ones).
    request.conditional = conditionalFor(request);
    try {
        // The exchanges the endpoint starts join the request's abort group and send its
        // validators, even when it sends them later: the context travels with the request.
        RequestContext context = RequestContext::create();
        context.setAbortGroup(request.abort);
        context.setConditionalRequest(request.conditional);
        if (request.compact)
            request.compactNetwork = request.endpoint->fetchCompact(
                network, request.params, request.body, context, CompactAnswer::ParseAndPrepare);
        else
            request.network
                = request.endpoint->fetch(network, request.params, request.body, context);
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
    emitOptimistic(shown);
    if (alive)
        Q_EMIT q->fetchStateChanged(key); // no longer paused or retrying: an attempt runs
}

QFuture<QVariant> ControllerPrivate::join(InFlightRequest &request)
{
    QFuture<QVariant> future = request.callers.add();
    // A caller that cancels its future leaves; the request stops when no caller is left.
    auto *watcher = new QFutureWatcher<QVariant>(q);
    const quint64 id = request.id;
    QObject::connect(watcher, &QFutureWatcherBase::canceled, q, [this, id] {
        InFlightRequest *running = inFlight.find(id);
        // An outbox item stays until the server answers it, whoever waits for it.
        if (!running || running->outbox || running->callers.waiting() > 0)
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
    request.abort.abort(); // the default network exchange: at once
    // An endpoint's own fetch() hook: through its future (from the event loop).
    QFuture<void> network = request.networkFuture();
    if (!network.isFinished())
        network.cancel();
}

ChangeSet ControllerPrivate::redateLayer(quint64 layer, qint64 date)
{
    layers.redate(layer, date);
    return store->redateOptimistic(layer, date);
}

quint64 ControllerPrivate::applyOptimistic(const RestEndpoint &endpoint, const Params &params,
                                           const QJsonValue &body, qint64 date, ChangeSet *changes,
                                           QString *placeholder)
{
    std::optional<QJsonValue> predicted = endpoint.optimisticResponse(params, body, store.get());
    if (!predicted)
        return 0; // e.g. partialUpdate of an entity that is not in the store (CASES 41)
    // A new row without a primary key (the server assigns ids) shows under a placeholder key,
    // in the guess only: the request's body stays the caller's.
    const Schema schema = endpoint.schema();
    const EntitySchema row
        = schema.kind() == Schema::Kind::Entity ? schema.entitySchema() : schema.rowEntity();
    if (schema.kind() != Schema::Kind::Invalidate && !row.isNull() && predicted->isObject()
        && row.pk(predicted->toObject()).isEmpty()) {
        if (!placeholder || row.pkField().isEmpty()) {
            qCDebug(lcController) << "no optimistic row for a new" << row.key()
                                  << "(no placeholder key: a pk function, or a held write);"
                                     " it shows when the server answers";
            return 0;
        }
        *placeholder = held.allocate();
        QJsonObject guess = predicted->toObject();
        guess.insert(row.pkField(), *placeholder);
        predicted = guess;
    }
    const quint64 layer = layers.allocate();
    const StoreWrite write
        = store->setOptimisticResponse(layer, QString(), schema, endpoint.storeArguments(params),
                                       *predicted, Meta {date, now(), 0});
    if (write.error) {
        qCWarning(lcController).noquote() << "optimistic response of" << endpoint.name()
                                          << "does not fit its schema:" << write.error->message();
        store->removeOptimistic(layer);
        if (placeholder && !placeholder->isEmpty())
            held.refuse(std::exchange(*placeholder, QString()));
        return 0;
    }
    layers.record(layer, date, write.changes.entities);
    *changes = write.changes;
    return layer;
}

} // namespace DataClient
