// Retries with backoff and requests that wait (issue 13): a failed attempt that can succeed
// later stays in flight — its callers keep waiting, a second read of the key joins it — and is
// sent again through the Controller's scheduler; a read that is due while offline waits
// (paused) until reconnect(). The callers' futures settle once, after the last attempt.
#include "controller_p.h"
#include "logging_p.h"
#include "retrybackoff_p.h"

#include <QtCore/QRandomGenerator>

namespace DataClient {

using detail::InFlightRequest;
using detail::RetryBackoff;

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

bool ControllerPrivate::retryLater(InFlightRequest &request)
{
    if (shuttingDown)
        return false;
    const std::optional<NetworkError> error = failureOf(request.networkFuture());
    if (!error)
        return false;
    RetryPolicy policy = request.retry;
    // An outbox item may be tried until the server answers it (controlleroutbox.cpp).
    const bool outboxRetry = request.outbox && outboxRetries(request, *error, &policy);
    if (!outboxRetry
        && (request.attempt > request.retry.count || request.callers.waiting() == 0
            || !RetryBackoff::isRetriable(*error)))
        return false;
    const double unit = random ? random() : QRandomGenerator::global()->generateDouble();
    const qint64 delay
        = RetryBackoff::delayBefore(request.attempt + 1, policy, *error, unit, now());
    ++request.attempt;
    const quint64 id = request.id;
    request.backoff = scheduler->scheduleIn(delay, q, [this, id] { retryNow(id); });
    qCInfo(lcController).noquote()
        << request.requestKey << "failed (" << error->message() << "); attempt" << request.attempt
        << "of" << request.retry.count + 1 << "in" << delay << "ms";
    // The next attempt is dated when it is sent; until then its guess waits like a queued one:
    // what the server answers meanwhile was applied before the change is (again).
    request.date = 0;
    const ChangeSet shown = request.layer
        ? redateLayer(request.layer, detail::OptimisticLayers::unsent)
        : ChangeSet();
    const QString key = request.key;
    const QPointer<Controller> alive(q);
    emitOptimistic(shown);
    if (alive)
        Q_EMIT q->fetchStateChanged(key); // retrying, attempt; loading stays
    return true;
}

void ControllerPrivate::retryNow(quint64 id)
{
    InFlightRequest *request = inFlight.find(id);
    if (!request)
        return;
    request->backoff = 0;
    // Every caller left (a query destroyed during backoff): nothing more is sent.
    if (request->callers.waiting() == 0 && !request->outbox) {
        endWaiting(id, "every caller left during backoff");
        return;
    }
    if ((request->read || request->outbox) && offline()) {
        request->paused = true; // reconnect() sends it
        Q_EMIT q->fetchStateChanged(request->key);
        return;
    }
    sendWaiting(*request);
}

void ControllerPrivate::endWaiting(quint64 id, const char *why)
{
    const std::shared_ptr<InFlightRequest> request = inFlight.take(id);
    if (!request)
        return;
    scheduler->cancel(std::exchange(request->backoff, 0));
    qCDebug(lcController).noquote()
        << "ended" << request->requestKey << "without an answer:" << why;
    const ChangeSet rollback = removeLayers(request->layer, 0, {});
    const bool stoppedLoading = states.finishLoading(request->key);
    request->callers.cancel();
    const QPointer<Controller> alive(q);
    emitOptimistic(rollback);
    if (alive && stoppedLoading)
        Q_EMIT q->fetchStateChanged(request->key);
}

void ControllerPrivate::endAllWaiting()
{
    // Silent: the caller (reset, shutdown) reports the keys' states itself.
    for (InFlightRequest *request : inFlight.all()) {
        if (!request->isWaiting())
            continue;
        const std::shared_ptr<InFlightRequest> taken = inFlight.take(request->id);
        if (scheduler)
            scheduler->cancel(std::exchange(taken->backoff, 0));
        taken->callers.cancel();
    }
}

void ControllerPrivate::readProgress(const QString &requestKey, ResponseState *state) const
{
    const InFlightRequest *read = inFlight.findRead(requestKey);
    if (!read)
        return;
    state->attempt = read->attempt;
    state->retrying = read->backoff != 0;
    state->paused = read->paused;
}

} // namespace DataClient
