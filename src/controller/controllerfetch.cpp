// Controller::fetch(): start a request (joining a read in flight), show an optimistic layer,
// and commit or fail when the endpoint's future finishes.
#include "controller_p.h"
#include "expirypolicy_p.h"
#include "logging_p.h"

#include <QtCore/QFutureWatcher>
#include <QtCore/QThread>

namespace DataClient {

using detail::ExpiryPolicy;
using detail::InFlightRequest;

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
    if (const InFlightRequest *running = d->inFlight.findRead(requestKey))
        return running->future;
    const ResponseState state = getResponse(endpoint, params);
    if (state.status == ExpiryStatus::Valid) {
        if (state.showsError())
            return failedFuture(*state.error);
        return QtFuture::makeReadyFuture(state.data);
    }
    return d->fetch(endpoint, params, body);
}

QFuture<QVariant> ControllerPrivate::fetch(const EndpointPtr &endpoint, const Params &params,
                                           const QJsonValue &body)
{
    if (shuttingDown)
        return canceledFuture();
    auto [key, keyError] = keyOf(endpoint, params, "fetch");
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return failedFuture(*keyError);
    }
    const QString requestKey = endpoint->requestKey(params);
    const bool read = !endpoint->sideEffect();
    if (read) {
        // De-duplication: a read of the same URL in flight answers this call too.
        if (const InFlightRequest *running = inFlight.findRead(requestKey))
            return running->future;
    }
    if (!network) {
        return failedFuture(NetworkError::invalidRequest(
            endpoint->method(), QUrl(),
            QStringLiteral("Controller::fetch(%1): the QNetworkAccessManager given to the "
                           "Controller was destroyed; it must outlive the Controller")
                .arg(key)));
    }

    auto request = std::make_shared<InFlightRequest>();
    request->id = inFlight.nextId();
    request->endpoint = endpoint;
    request->params = params;
    request->key = key;
    request->requestKey = requestKey;
    request->read = read;
    request->date = nextRequestDate();
    request->generation = generation;
    request->promise.start();
    request->future = request->promise.future();
    ChangeSet optimisticChanges;
    if (!read && endpoint->optimistic())
        request->layer
            = applyOptimistic(*endpoint, params, body, request->date, &optimisticChanges);
    try {
        request->network = endpoint->fetch(network, params, body);
    } catch (...) {
        // Hooks report errors through the future; a hook that throws synchronously is
        // treated the same way.
        request->network = QtFuture::makeExceptionalFuture<QJsonValue>(
            NetworkError::fromException(std::current_exception()));
    }

    // The answer is delivered through a watcher owned by the Controller: destroying the
    // Controller destroys the watcher, so no callback can reach a dead Controller.
    auto *watcher = new QFutureWatcher<QJsonValue>(q);
    request->watcher = watcher;
    const quint64 id = request->id;
    QObject::connect(watcher, &QFutureWatcherBase::finished, q, [this, id] { onAnswer(id); });
    watcher->setFuture(request->network);
    inFlight.add(request);
    qCDebug(lcController).noquote() << "fetch" << requestKey << (read ? "(read)" : "(mutation)");
    const bool startedLoading = states.startLoading(key);

    // Signals last: a slot may call back into the Controller, or even destroy it.
    const QPointer<Controller> alive(q);
    emitChanged(optimisticChanges);
    if (alive && startedLoading)
        Q_EMIT q->fetchStateChanged(key);
    return request->future;
}

quint64 ControllerPrivate::applyOptimistic(const RestEndpoint &endpoint, const Params &params,
                                           const QJsonValue &body, qint64 date, ChangeSet *changes)
{
    const std::optional<QJsonValue> predicted
        = endpoint.optimisticResponse(params, body, store.get());
    if (!predicted)
        return 0; // e.g. partialUpdate of an entity that is not in the store (CASES 41)
    const quint64 layer = layers.allocate();
    const StoreWrite write = store->setOptimisticResponse(layer, QString(), endpoint.schema(),
                                                          storeArgs(endpoint, params), *predicted,
                                                          Meta {date, now(), 0});
    if (write.error) {
        qCWarning(lcController).noquote() << "optimistic response of" << endpoint.name()
                                          << "does not fit its schema:" << write.error->message();
        store->removeOptimistic(layer);
        return 0;
    }
    layers.record(layer, date, write.changes.entities);
    *changes = write.changes;
    return layer;
}

void ControllerPrivate::onAnswer(quint64 id)
{
    const std::shared_ptr<InFlightRequest> request = inFlight.take(id);
    if (!request)
        return;
    request->watcher->deleteLater(); // we are inside its finished() signal
    request->watcher = nullptr;
    if (request->generation != generation) {
        // Started before resetEntireStore(): the answer is dropped (DESIGN.md §5). The reset
        // already cleared the key's loading state and the layer.
        qCDebug(lcController).noquote() << "dropped answer of" << request->requestKey
                                        << "(the store was reset after it started)";
        request->future.cancel();
        request->promise.finish();
        return;
    }

    const bool stoppedLoading = states.finishLoading(request->key);
    bool stateChanged = stoppedLoading;
    const QPointer<Controller> alive(q);
    QFuture<QJsonValue> &answer = request->network;
    try {
        answer.waitForFinished(); // rethrows the endpoint's exception, if any
        if (answer.isCanceled() || answer.resultCount() == 0) {
            throw NetworkError(
                NetworkError::Kind::Canceled, 0,
                QStringLiteral("%1: the request was canceled").arg(request->requestKey));
        }
        stateChanged |= commit(*request, answer.result());
    } catch (...) {
        stateChanged |= fail(*request, NetworkError::fromException(std::current_exception()));
    }
    // commit() and fail() emitted changed(); a slot may have destroyed the Controller.
    if (alive && stateChanged)
        Q_EMIT q->fetchStateChanged(request->key);
    // Resolve last (the request is ours, not the Controller's): continuations of the callers
    // see the store and the fetch state settled.
    request->promise.finish();
}

bool ControllerPrivate::commit(InFlightRequest &request, const QJsonValue &value)
{
    const RestEndpoint &endpoint = *request.endpoint;
    const Schema schema = endpoint.schema();
    const Params args = storeArgs(endpoint, request.params);
    // Race rule for the result itself: a newer answer already stored for the key stays; this
    // older one only fills entity fields nobody newer wrote (the store's rule).
    QString resultKey = request.key;
    if (store->hasResult(resultKey) && store->resultMeta(resultKey).date > request.date)
        resultKey.clear();
    const StoreWrite write
        = store->setResponse(resultKey, schema, args, value, responseMeta(endpoint, request.date));
    if (write.error) {
        const NetworkError error
            = NetworkError(NetworkError::Kind::InvalidResponse, 400,
                           QStringLiteral("%1: the response does not fit "
                                          "the endpoint's schema: %2")
                               .arg(request.requestKey, write.error->message()))
                  .withRequest(endpoint.method(), endpoint.url(request.params));
        return fail(request, error);
    }

    ChangeSet changes = write.changes;
    QSet<EntityRef> touched = changes.entities;
    if (request.layer)
        touched.unite(layers.entities(request.layer));
    changes.unite(removeLayers(request.layer, request.date, touched));
    const bool stateChanged = states.settle(request.key, request.date);

    QVariant data;
    if (schema.kind() == Schema::Kind::Invalidate) {
        data = value.toVariant(); // a delete resolves with what identified the entity
    } else {
        Denormalized result = store->denormalize(request.key, schema, args);
        data = result.found || request.read ? std::move(result.data) : value.toVariant();
    }
    request.promise.addResult(std::move(data));
    emitChanged(changes); // last: a slot may destroy the Controller
    return stateChanged;
}

bool ControllerPrivate::fail(InFlightRequest &request, const NetworkError &error)
{
    qCDebug(lcController).noquote() << "failed" << request.requestKey << error.message();
    const ChangeSet rollback = removeLayers(request.layer, 0, {});
    bool stateChanged = false;
    // A request that was never sent (bad parameters, missing page) says nothing about the
    // data: it fails its callers but is not stored as the key's error.
    if (error.kind() != NetworkError::Kind::InvalidRequest) {
        const qint64 errorExpiresAt
            = now() + ExpiryPolicy::errorExpiryLength(request.endpoint->errorExpiryLength());
        states.setError(request.key, error, request.date, errorExpiresAt);
        stateChanged = true;
    }
    request.promise.setException(error);
    emitChanged(rollback); // last: a slot may destroy the Controller
    return stateChanged;
}

ChangeSet ControllerPrivate::removeLayers(quint64 own, qint64 date,
                                          const QSet<EntityRef> &committed)
{
    QList<quint64> obsolete;
    if (own)
        obsolete.append(own);
    if (date > 0)
        obsolete += layers.supersededBy(date, committed);
    ChangeSet changes;
    for (const quint64 layer : std::as_const(obsolete)) {
        if (!layers.contains(layer))
            continue; // already removed by a newer commit
        changes.unite(store->removeOptimistic(layer));
        layers.forget(layer);
    }
    return changes;
}

void ControllerPrivate::shutdown()
{
    shuttingDown = true;
    delete polls;
    polls = nullptr;
    const QList<InFlightRequest *> requests = inFlight.all();
    for (InFlightRequest *request : requests) {
        delete request->watcher; // no callback after this
        request->watcher = nullptr;
        request->network.cancel(); // aborts the network request
    }
    for (InFlightRequest *request : requests) {
        if (!request->future.isFinished()) {
            request->future.cancel();
            request->promise.finish();
        }
    }
}

} // namespace DataClient
