// What happens when an endpoint's future finishes: a large answer is converted and, when its
// schema allows, normalized off the GUI thread, then the answer is committed in one step (or the
// request failed), the optimistic layer removed and the caller's future resolved. Also the
// shutdown of everything in flight.
#include "backgroundjson_p.h"
#include "controller_p.h"
#include "expirypolicy_p.h"
#include "logging_p.h"
#include "scheduler_p.h"

#include <QtCore/QFutureWatcher>

#include <algorithm>
#include <utility>
#include <DataClient/private/storelayers_p.h>

namespace DataClient {

using detail::Commit;
using detail::ExpiryPolicy;
using detail::Failure;
using detail::InFlightRequest;
using detail::Lifecycle;
using detail::OptimisticLayers;
using detail::RetryPlan;

void ControllerPrivate::onAnswer(quint64 id)
{
    InFlightRequest *pending = inFlight.find(id);
    if (!pending)
        return;
    pending->watcher->deleteLater(); // we are inside its finished() signal
    pending->watcher = nullptr;
    if (pending->generation == generation) {
        // A large successful answer arrives normalized: the worker that parsed it into
        // CompactJson normalized it too, in the same task (CompactAnswer::ParseAndPrepare), and
        // it is committed now. One that came as a QJsonValue is converted to the store's form on
        // a worker first; the request stays in flight (and loading) meanwhile.
        QFuture<detail::BackgroundJson::Result> work;
        if (pending->compact) {
            const QFuture<CompactAnswer> &answer = pending->compactNetwork;
            if (!answer.isCanceled() && answer.resultCount() > 0) {
                CompactAnswer compact = answer.result();
                if (compact.prepared) {
                    qCDebug(lcController).noquote()
                        << pending->requestKey << "was normalized off the GUI thread";
                    // Moved, not copied: the parsed answer is released on a worker (release()).
                    detail::BackgroundJson::Result worked {std::move(compact.value),
                                                           std::move(compact.prepared)};
                    complete(id, &worked);
                    detail::BackgroundJson::release(std::move(worked));
                    return;
                }
            }
        } else {
            const QFuture<QJsonValue> &answer = pending->network;
            if (!answer.isCanceled() && answer.resultCount() > 0) {
                const QJsonValue value = answer.result();
                if (detail::BackgroundJson::isLarge(value))
                    work = detail::BackgroundJson::convert(value);
            }
        }
        if (work.isValid()) {
            pending->converter = watch(work, [this, id] { onConverted(id); });
            return;
        }
    }
    complete(id, nullptr);
}

void ControllerPrivate::onConverted(quint64 id)
{
    InFlightRequest *pending = inFlight.find(id);
    if (!pending || !pending->converter)
        return;
    auto *converter = static_cast<QFutureWatcher<detail::BackgroundJson::Result> *>(
        std::exchange(pending->converter, nullptr));
    converter->deleteLater(); // we are inside its finished() signal
    // Taken, not copied: the watcher, deleted in the next event-loop turn, must not hold the
    // last reference to the parsed answer, which is released on a worker once committed.
    detail::BackgroundJson::Result worked = converter->future().takeResult();
    complete(id, &worked);
    detail::BackgroundJson::release(std::move(worked));
}

namespace {

// The failure of a finished attempt, or nullopt when it succeeded or was canceled. (A future
// that holds an exception also reports isCanceled(): ask for the exception first.)
std::optional<NetworkError> failureOf(QFuture<void> answer)
{
    try {
        answer.waitForFinished(); // rethrows the endpoint's exception, if any
    } catch (...) {
        return NetworkError::fromException(std::current_exception());
    }
    return std::nullopt;
}

} // namespace

bool ControllerPrivate::retries(InFlightRequest &request)
{
    // A 304 is an answer (a manager takes it over), not a failed attempt.
    const std::optional<NetworkError> error = failureOf(request.networkFuture());
    if (!error || shuttingDown || request.context.conditionalRequest().notModified())
        return false;
    RetryPlan plan {request.endpoint->retryPolicy()};
    each(Lifecycle::AttemptFailed,
         [&](Lifecycle &manager) { manager.attemptFailed(request, *error, &plan); });
    if (!plan.retrying)
        return false;
    // The next attempt is dated when it is sent; until then its guess waits like a queued one:
    // what the server answers meanwhile was applied before the change is (again).
    request.betweenAttempts = true;
    request.date = 0;
    const ChangeSet shown
        = request.layer ? guesses.redate(request.layer, OptimisticLayers::unsent) : ChangeSet();
    const QString key = request.key;
    const QPointer<Controller> alive(q);
    emitOptimistic(shown, detail::ChangeOrigin::Optimistic, request.id);
    if (alive)
        Q_EMIT q->fetchStateChanged(key); // retrying, attempt; loading stays
    return true;
}

void ControllerPrivate::complete(quint64 id, detail::BackgroundJson::Result *worked)
{
    InFlightRequest *pending = inFlight.find(id);
    if (pending && pending->generation == generation)
        each(Lifecycle::Answered, [&](Lifecycle &manager) { manager.answered(*pending); });
    // A failure worth another attempt keeps the request in flight, waiting.
    pending = inFlight.find(id); // a manager's slot may have ended it
    if (pending && !worked && pending->generation == generation && retries(*pending))
        return;
    const std::shared_ptr<InFlightRequest> request = inFlight.take(id);
    if (!request)
        return;
    if (request->generation != generation) {
        // Started before resetEntireStore(): the answer is dropped. The reset already cleared
        // the key's loading state and the guess.
        qCDebug(lcController).noquote() << "dropped answer of" << request->requestKey
                                        << "(the store was reset after it started)";
        request->callers.cancel();
        return;
    }
    bool takenOver = false;
    each(Lifecycle::TakesAnswer,
         [&](Lifecycle &manager) { takenOver = takenOver || manager.takesAnswer(request); });
    if (takenOver) {
        each(Lifecycle::RequestEnded, [&](Lifecycle &manager) { manager.requestEnded(*request); });
        return;
    }

    const bool stoppedLoading = states.finishLoading(request->key);
    bool stateChanged = stoppedLoading;
    const QPointer<Controller> alive(q);
    try {
        QFuture<void> answer = request->networkFuture();
        answer.waitForFinished(); // rethrows the endpoint's exception, if any
        if (answer.isCanceled() || answer.resultCount() == 0) {
            throw NetworkError(
                NetworkError::Kind::Canceled, 0,
                QStringLiteral("%1: the request was canceled").arg(request->requestKey));
        }
        if (worked) {
            stateChanged |= commit(*request, worked->value, worked->prepared.get());
        } else if (request->compact) {
            stateChanged |= commit(*request, request->compactNetwork.result().value);
        } else {
            stateChanged |= commit(*request, request->network.result());
        }
    } catch (...) {
        stateChanged |= fail(*request, NetworkError::fromException(std::current_exception()));
    }
    // commit() and fail() emitted changed(); a slot may have destroyed the Controller.
    if (alive && stateChanged)
        Q_EMIT q->fetchStateChanged(request->key);
    // It left the table (the outbox's next item goes). Resolved before this (the request is
    // ours, not the Controller's): continuations of the callers see the store and the fetch
    // state settled.
    if (alive)
        each(Lifecycle::RequestEnded, [&](Lifecycle &manager) { manager.requestEnded(*request); });
}

namespace {

//! What the callers of \a request get for its committed answer \a value: what the store now shows
//! for it, read with the endpoint schema's answerSchema().
template<typename Value>
QVariant answerValue(Store &store, const InFlightRequest &request, const Params &args,
                     const Value &value, const Meta &meta)
{
    Store *const st = &store;
    const Schema schema = request.endpoint->schema();
    if (schema.kind() == Schema::Kind::Invalidate)
        return value.toVariant(); // a delete resolves with what identified the entity
    const Schema answer = schema.answerSchema(value.type() == QJsonValue::Array);
    if (answer == schema) {
        Denormalized result = st->denormalize(request.key, schema, args);
        return result.found || request.read ? std::move(result.data) : value.toVariant();
    }
    // A push resolves with what it created, a page with its own items, not the
    // whole list they joined: read this answer as that, under a key of its own dropped at once.
    // Its entities were just written with these values, so the write changes nothing else.
    const QString answerKey = QStringLiteral("\x01answer ") + request.requestKey;
    const StoreWrite write = st->setResponse(answerKey, answer, args, value, meta);
    Denormalized result = st->denormalize(answerKey, answer, args);
    st->invalidateResult(answerKey);
    return write.ok() && result.found ? std::move(result.data) : value.toVariant();
}

} // namespace

template<typename Value>
bool ControllerPrivate::commit(InFlightRequest &request, const Value &value,
                               PreparedWrite *prepared)
{
    const RestEndpoint &endpoint = *request.endpoint;
    const Schema schema = endpoint.schema();
    const Params args = endpoint.storeArguments(request.params);
    // Race rule for the result itself: a newer answer already stored for the key stays; this
    // older one only fills entity fields nobody newer wrote (the store's rule).
    ChangeSet redated;
    const qint64 date = request.read ? request.date : guesses.confirmationDate(request, &redated);
    QString resultKey = request.key;
    if (store->hasResult(resultKey) && store->resultMeta(resultKey).date > date)
        resultKey.clear();
    const Meta meta = responseMeta(endpoint, date);
    each(Lifecycle::Read, [&](Lifecycle &manager) { manager.read(endpoint, request.key); });
    // A manager may write it with another schema (a first page keeps the later pages merged into
    // its list); an older answer is written as it is, so the store's race rule for whole lists
    // applies to it.
    Schema written = schema;
    if (!resultKey.isEmpty()) {
        each(Lifecycle::WriteSchema,
             [&](Lifecycle &manager) { written = manager.writeSchema(request, written); });
    }
    // A prepared write is the same outcome as setResponse() (prepare + commit), in one step here.
    const StoreWrite write = prepared && written == schema
        ? StoreLayers::commit(*store, resultKey, std::move(*prepared), meta)
        : store->setResponse(resultKey, written, args, value, meta);
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
    changes.unite(redated);
    // An EntityRefSet, not a QSet: a commit of 10k entities records them without making 10k
    // EntityRefs, and converting here (then back, to unite) took 3.5 ms of the GUI thread in
    // q.response.10k. Without a layer, touched shares changes.entities and the unite below is
    // a no-op.
    EntityRefSet touched = changes.entities;
    if (request.layer)
        touched.unite(guesses.entities(request.layer));
    // A change's answer removes the guesses of changes sent before it. A read's answer removes
    // none: every guess belongs to a change still waiting or on the wire, and it stays until that
    // change's own answer, which is newer than the read (confirmationDate()); so a read that
    // reached the server before the change never shows the old value in between.
    changes.unite(guesses.remove(request.layer, request.read ? 0 : request.date, touched));
    // Also what the layer showed, when the commit confirms it without a visible change (a
    // confirmed optimistic delete): views that waited for the request read again.
    changes.entities.unite(touched);
    const bool stateChanged = states.settle(request.key, request.date);

    // The managers see the commit (a placeholder row becomes the server's entity in this same
    // change set), then the callers get their value, then changed() goes out.
    Commit committed {resultKey, answerValue(*store, request, args, value, meta), &changes};
    each(Lifecycle::Committed, [&](Lifecycle &manager) { manager.committed(request, &committed); });
    request.callers.resolve(committed.answer);
    // Last: a slot may destroy the Controller.
    emitChanged(changes, detail::ChangeOrigin::Answer, request.id);
    return stateChanged;
}

bool ControllerPrivate::fail(InFlightRequest &request, const NetworkError &error)
{
    qCDebug(lcController).noquote() << "failed" << request.requestKey << error.message();
    Failure failure {guesses.remove(request.layer, 0, {})};
    each(Lifecycle::Failed, [&](Lifecycle &manager) { manager.failed(request, error, &failure); });
    const ChangeSet &rollback = failure.rollback;
    bool stateChanged = false;
    // A request that was never sent (bad parameters, missing page) or that its callers
    // canceled says nothing about the data: it fails its callers but is not stored as the
    // key's error.
    // Nor does a later page's failure (docs/pagination.md): the list stays shown, and the page
    // load reports it (CollectionModel::pageError).
    if (error.kind() != NetworkError::Kind::InvalidRequest
        && error.kind() != NetworkError::Kind::Canceled && failure.keysError) {
        const qint64 errorExpiresAt
            = now() + ExpiryPolicy::errorExpiryLength(request.endpoint->errorExpiryLength());
        states.setError(request.key, error, request.date, errorExpiresAt);
        stateChanged = true;
    }
    request.callers.fail(std::make_exception_ptr(error));
    // Last: a slot may destroy the Controller.
    emitOptimistic(rollback, detail::ChangeOrigin::Rollback, request.id);
    return stateChanged;
}

void ControllerPrivate::shutdown()
{
    shuttingDown = true;
    // The managers stop what they run (polls, backoff, writes) while the scheduler is there.
    each(Lifecycle::Shutdown, [](Lifecycle &manager) { manager.shutdown(); });
    endAllWaiting();
    delete scheduler; // no wait ends after this
    scheduler = nullptr;
    QList<InFlightRequest *> requests = inFlight.all();
    // Newest first: the newest are the ones still queued in the network manager. Aborting a
    // request on the wire frees its connection, and the manager would hand that connection to
    // a queued request whose abort it has not seen yet.
    std::sort(requests.begin(), requests.end(),
              [](const InFlightRequest *a, const InFlightRequest *b) { return a->id > b->id; });
    for (InFlightRequest *request : requests) {
        delete request->watcher; // no callback after this
        request->watcher = nullptr;
        delete request->converter; // a conversion on a worker finishes unobserved
        request->converter = nullptr;
        // Synchronously: a request queued in the network manager must not be sent after the
        // app was told it was canceled.
        abort(*request);
    }
    for (InFlightRequest *request : requests)
        request->callers.cancel();
}

} // namespace DataClient
