#include "validatormanager_p.h"

#include "controller_p.h"
#include "logging_p.h"

#include <algorithm>

namespace DataClient::detail {

ValidatorManager::ValidatorManager(ControllerPrivate &core)
    : Lifecycle(core,
                Decorate | TakesAnswer | Committed | RequestEnded | ResultsDropped | Invalidated
                    | ResultSet | Reset)
{ }

void ValidatorManager::decorate(InFlightRequest &request, Headers *)
{
    // Only a read whose answer is its key's whole result: a page (getPage) adds to its list's
    // result, so a 304 to it would say nothing about what the key stores.
    if (!request.read || request.key != request.requestKey || !request.endpoint->validators())
        return;
    const bool shown
        = core.store->hasResult(request.key) && !core.states.isInvalidated(request.key);
    request.context.setConditionalRequest(
        ConditionalRequest(shown ? m_validators.find(request.key) : Validators()));
}

void ValidatorManager::committed(InFlightRequest &request, Commit *commit)
{
    if (!request.context.conditionalRequest().isNull() && !commit->resultKey.isEmpty())
        m_validators.remember(commit->resultKey, request.context.conditionalRequest().received());
}

void ValidatorManager::requestEnded(const InFlightRequest &request)
{
    m_refetchesAfter304.remove(request.id);
}

void ValidatorManager::resultsDropped(const QSet<QString> &keys)
{
    for (const QString &key : keys)
        m_validators.forget(key);
}

void ValidatorManager::invalidated(const QStringList &keys)
{
    for (const QString &key : keys)
        m_validators.forget(key);
}

void ValidatorManager::resultSet(const QString &key)
{
    m_validators.forget(key);
}

void ValidatorManager::reset()
{
    m_validators.clear();
    m_refetchesAfter304.clear();
}

bool ValidatorManager::takesAnswer(const std::shared_ptr<InFlightRequest> &request)
{
    if (!request->context.conditionalRequest().notModified())
        return false;
    ControllerPrivate &d = core;
    Controller *q = core.q;
    const QString &key = request->key;
    const RestEndpoint &endpoint = *request->endpoint;
    const bool stored = d.store->hasResult(key) && !d.states.isInvalidated(key);
    const ValidatorTable::NotModified outcome = ValidatorTable::onNotModified(
        request->context.conditionalRequest().sent()
            ? request->context.conditionalRequest().validators()
            : Validators(),
        m_validators.find(key), stored, m_refetchesAfter304.contains(request->id),
        request->context.conditionalRequest().received());
    const QPointer<Controller> alive(q);

    if (outcome == ValidatorTable::NotModified::Refetch) {
        qCDebug(lcController).noquote()
            << request->requestKey << "answered 304 (validators"
            << request->context.conditionalRequest().received().etag
            << request->context.conditionalRequest().received().lastModified << ") to"
            << (stored ? "other" : "no") << "stored data: refetching it without validators";
        m_validators.forget(key);
        // Started before this one stops loading: the key stays loading throughout, and what
        // it shows (its stored result, or nothing yet) stays as it is.
        QFuture<QVariant> next = d.fetch(request->endpoint, request->params, QJsonValue());
        if (InFlightRequest *refetch = d.inFlight.findRead(request->requestKey))
            m_refetchesAfter304.insert(refetch->id);
        // The callers of this read get the refetch's outcome.
        next.then(q, [request](const QVariant &value) { request->callers.resolve(value); })
            .onFailed(q, [request] { request->callers.fail(std::current_exception()); })
            .onCanceled(q, [request] { request->callers.cancel(); });
        // Idle only if the refetch could not start (then its future has failed already).
        if (d.states.finishLoading(key) && alive)
            Q_EMIT q->fetchStateChanged(key);
        return true;
    }

    bool stateChanged = d.states.finishLoading(key);
    if (outcome == ValidatorTable::NotModified::Fail) {
        const NetworkError error
            = NetworkError(NetworkError::Kind::Http, 304,
                           QStringLiteral("%1 was answered 304 Not Modified, also when asked "
                                          "again without validators; a 304 keeps only a stored "
                                          "result whose validators the request sent, so "
                                          "nothing was stored (does getRequestInit() or the "
                                          "`headers` option send If-None-Match or "
                                          "If-Modified-Since?)")
                               .arg(request->requestKey))
                  .withStatus(304, QStringLiteral("Not Modified"))
                  .withRequest(endpoint.method(), endpoint.url(request->params));
        stateChanged |= d.fail(*request, error);
    } else {
        // Fresh as of this request, as an answer with the same data would be; the entities and
        // the result itself are untouched, so nothing is signalled but the fetch state.
        Meta meta = d.store->resultMeta(key);
        const Meta renewed = d.responseMeta(endpoint, request->date);
        meta.date = std::max(meta.date, renewed.date);
        meta.fetchedAt = renewed.fetchedAt;
        meta.expiresAt = renewed.expiresAt;
        d.store->setResultMeta(key, meta);
        m_validators.remember(
            key,
            ValidatorTable::afterNotModified(m_validators.find(key),
                                             request->context.conditionalRequest().received()));
        stateChanged |= d.states.settle(key, request->date);
        qCDebug(lcController).noquote()
            << request->requestKey << "not modified: kept, fresh until" << meta.expiresAt;
        request->callers.resolve(
            d.store->denormalize(key, endpoint.schema(), endpoint.storeArguments(request->params))
                .data);
    }
    if (alive && stateChanged)
        Q_EMIT q->fetchStateChanged(key);
    return true;
}

} // namespace DataClient::detail
