// HTTP validators (docs/networking.md): a read of a key whose stored result came with an ETag or
// a Last-Modified sends them back, and a 304 Not Modified that confirms that result keeps it:
// its expiry is renewed as a fresh answer's would be, the validators the 304 carries replace
// the stored ones, nothing is normalized, no change is signalled.
#include "controller_p.h"
#include "logging_p.h"

#include <algorithm>

namespace DataClient {

using detail::InFlightRequest;
using detail::ValidatorTable;

ConditionalRequest ControllerPrivate::conditionalFor(const InFlightRequest &request) const
{
    // Only a read whose answer is its key's whole result: a page (getPage) adds to its list's
    // result, so a 304 to it would say nothing about what the key stores.
    if (!request.read || request.key != request.requestKey || !request.endpoint->validators())
        return {};
    const bool shown = store->hasResult(request.key) && !states.isInvalidated(request.key);
    return ConditionalRequest(shown ? validators.find(request.key) : Validators());
}

void ControllerPrivate::rememberValidators(const InFlightRequest &request, const QString &resultKey)
{
    if (!request.conditional.isNull() && !resultKey.isEmpty())
        validators.remember(resultKey, request.conditional.received());
}

void ControllerPrivate::answeredNotModified(const std::shared_ptr<InFlightRequest> &request)
{
    const QString &key = request->key;
    const RestEndpoint &endpoint = *request->endpoint;
    const bool stored = store->hasResult(key) && !states.isInvalidated(key);
    const ValidatorTable::NotModified outcome = ValidatorTable::onNotModified(
        request->conditional.sent() ? request->conditional.validators() : Validators(),
        validators.find(key), stored, request->refetchAfter304, request->conditional.received());
    const QPointer<Controller> alive(q);

    if (outcome == ValidatorTable::NotModified::Refetch) {
        qCDebug(lcController).noquote()
            << request->requestKey << "answered 304 (validators"
            << request->conditional.received().etag << request->conditional.received().lastModified
            << ") to" << (stored ? "other" : "no")
            << "stored data: refetching it without validators";
        validators.forget(key);
        // Started before this one stops loading: the key stays loading throughout, and what
        // it shows (its stored result, or nothing yet) stays as it is.
        QFuture<QVariant> next = fetch(request->endpoint, request->params, QJsonValue());
        if (InFlightRequest *refetch = inFlight.findRead(request->requestKey))
            refetch->refetchAfter304 = true;
        // The callers of this read get the refetch's outcome.
        next.then(q, [request](const QVariant &value) { request->callers.resolve(value); })
            .onFailed(q, [request] { request->callers.fail(std::current_exception()); })
            .onCanceled(q, [request] { request->callers.cancel(); });
        // Idle only if the refetch could not start (then its future has failed already).
        if (states.finishLoading(key) && alive)
            Q_EMIT q->fetchStateChanged(key);
        return;
    }

    bool stateChanged = states.finishLoading(key);
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
        stateChanged |= fail(*request, error);
    } else {
        // Fresh as of this request, as an answer with the same data would be; the entities and
        // the result itself are untouched, so nothing is signalled but the fetch state.
        Meta meta = store->resultMeta(key);
        const Meta renewed = responseMeta(endpoint, request->date);
        meta.date = std::max(meta.date, renewed.date);
        meta.fetchedAt = renewed.fetchedAt;
        meta.expiresAt = renewed.expiresAt;
        store->setResultMeta(key, meta);
        validators.remember(key,
                            ValidatorTable::afterNotModified(validators.find(key),
                                                             request->conditional.received()));
        stateChanged |= states.settle(key, request->date);
        qCDebug(lcController).noquote()
            << request->requestKey << "not modified: kept, fresh until" << meta.expiresAt;
        request->callers.resolve(
            store->denormalize(key, endpoint.schema(), endpoint.storeArguments(request->params))
                .data);
    }
    if (alive && stateChanged)
        Q_EMIT q->fetchStateChanged(key);
}

} // namespace DataClient
