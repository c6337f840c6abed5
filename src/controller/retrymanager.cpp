#include "retrymanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "retrybackoff_p.h"
#include "scheduler_p.h"

#include <QtCore/QRandomGenerator>

namespace DataClient::detail {

RetryManager::RetryManager(ControllerPrivate &core)
    : Lifecycle(core, AttemptFailed | Describe | RequestEnded | Reset | Shutdown)
{ }

void RetryManager::attemptFailed(InFlightRequest &request, const NetworkError &error,
                                 RetryPlan *plan)
{
    if (plan->retrying)
        return; // a manager before this one waits with it (for a new token)
    Attempts &attempts = m_requests[request.id];
    const RetryPolicy own = request.endpoint->retryPolicy();
    if (!plan->unlimited
        && (attempts.attempt > own.count || request.callers.waiting() == 0
            || !RetryBackoff::isRetriable(error)))
        return;
    const double unit = random ? random() : QRandomGenerator::global()->generateDouble();
    const qint64 delay
        = RetryBackoff::delayBefore(attempts.attempt + 1, plan->policy, error, unit, core.now());
    ++attempts.attempt;
    const quint64 id = request.id;
    attempts.backoff = core.scheduler->scheduleIn(delay, core.q, [this, id] { retryNow(id); });
    qCInfo(lcController).noquote()
        << request.requestKey << "failed (" << error.message() << "); attempt" << attempts.attempt
        << "of" << own.count + 1 << "in" << delay << "ms";
    plan->retrying = true;
}

void RetryManager::retryNow(quint64 id)
{
    InFlightRequest *request = core.inFlight.find(id);
    if (!request)
        return;
    m_requests[id].backoff = 0;
    // Every caller left (a query destroyed during backoff): nothing more is sent.
    if (request->callers.waiting() == 0 && !request->keepWithoutCallers) {
        core.endWaiting(id, "every caller left during backoff");
        return;
    }
    core.sendWaiting(*request);
}

void RetryManager::describe(const InFlightRequest &request, ResponseState *state) const
{
    const Attempts attempts = m_requests.value(request.id);
    state->attempt = attempts.attempt;
    state->retrying = attempts.backoff != 0;
}

void RetryManager::requestEnded(const InFlightRequest &request)
{
    const Attempts attempts = m_requests.take(request.id);
    if (attempts.backoff && core.scheduler)
        core.scheduler->cancel(attempts.backoff);
}

void RetryManager::cancelAll()
{
    for (const Attempts &attempts : std::as_const(m_requests)) {
        if (attempts.backoff && core.scheduler)
            core.scheduler->cancel(attempts.backoff);
    }
    m_requests.clear();
}

void RetryManager::reset()
{
    cancelAll(); // the requests that waited ended with the reset
}

void RetryManager::shutdown()
{
    cancelAll();
}

} // namespace DataClient::detail

namespace DataClient {

void Controller::setRandomSource(RandomSource source)
{
    DATACLIENT_ASSERT_THREAD(this);
    d->managers->retry->random = std::move(source);
}

} // namespace DataClient
