// Controller writes without a request: setResponse, setError, invalidate, expire, reset.
#include "controller_p.h"
#include "expirypolicy_p.h"
#include "logging_p.h"

#include <QtCore/QThread>

namespace DataClient {

using detail::ExpiryPolicy;
using detail::Lifecycle;

namespace {

//! Every key a predicate of invalidateAll()/expireAll() may select: stored results and keys
//! with a fetch state (an error without data, say).
QStringList knownKeys(const Store &store, const detail::FetchStates &states,
                      const Controller::KeyPredicate &predicate)
{
    QStringList keys;
    if (!predicate)
        return keys;
    QSet<QString> seen;
    const QStringList candidates = store.resultKeys() + states.keys();
    for (const QString &key : candidates) {
        if (!seen.contains(key) && predicate(key)) {
            seen.insert(key);
            keys.append(key);
        }
    }
    return keys;
}

//! Controller::setResponse() for a QJsonValue or a CompactJson.
template<typename Value>
StoreWrite setResponse(ControllerPrivate &d, const EndpointPtr &endpoint, const Params &params,
                       const Value &value)
{
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "setResponse");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return {{},
                SchemaError(endpoint ? endpoint->schemaKey() : QString(), QString(),
                            QStringLiteral("an endpoint and parameters that build a URL"),
                            keyError->message())};
    }
    const qint64 date = d.nextRequestDate();
    d.each(Lifecycle::Read, [&](Lifecycle &manager) { manager.read(*endpoint, key); });
    StoreWrite write
        = d.store->setResponse(key, endpoint->schema(), endpoint->storeArguments(params), value,
                               d.responseMeta(*endpoint, date));
    if (write.error) {
        qCWarning(lcController).noquote()
            << "Controller::setResponse(" << key << "):" << write.error->message();
        return write;
    }
    d.each(Lifecycle::ResultSet, [&](Lifecycle &manager) { manager.resultSet(key); });
    // Like an answer from the server: newer than every optimistic guess about these entities.
    write.changes.unite(d.guesses.remove(0, date, write.changes.entities));
    const bool stateChanged = d.states.settle(key, date);
    const QPointer<Controller> alive(d.q);
    d.emitChanged(write.changes, detail::ChangeOrigin::Write);
    if (alive && stateChanged)
        Q_EMIT d.q->fetchStateChanged(key);
    return write;
}

} // namespace

StoreWrite Controller::setResponse(const EndpointPtr &endpoint, const Params &params,
                                   const QJsonValue &value)
{
    DATACLIENT_ASSERT_THREAD(this);
    return DataClient::setResponse(*d, endpoint, params, value);
}

StoreWrite Controller::setResponse(const EndpointPtr &endpoint, const Params &params,
                                   const CompactJson &value)
{
    DATACLIENT_ASSERT_THREAD(this);
    return DataClient::setResponse(*d, endpoint, params, value);
}

void Controller::setError(const EndpointPtr &endpoint, const Params &params,
                          const NetworkError &error)
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "setError");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return;
    }
    const qint64 date = d->nextRequestDate();
    d->states.setError(key, error, date,
                       d->now() + ExpiryPolicy::errorExpiryLength(endpoint->errorExpiryLength()));
    Q_EMIT fetchStateChanged(key);
}

void Controller::invalidate(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "invalidate");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return;
    }
    const ChangeSet changes = d->store->invalidateResult(key);
    const bool stateChanged = d->states.invalidate(key);
    d->each(Lifecycle::Invalidated, [&](Lifecycle &manager) { manager.invalidated({key}); });
    const QPointer<Controller> alive(this);
    d->emitChanged(changes, detail::ChangeOrigin::Invalidation);
    if (alive && stateChanged)
        Q_EMIT fetchStateChanged(key);
}

void Controller::invalidateAll(const KeyPredicate &predicate)
{
    DATACLIENT_ASSERT_THREAD(this);
    const QStringList keys = knownKeys(*d->store, d->states, predicate);
    ChangeSet changes;
    QStringList stateChanges;
    for (const QString &key : keys) {
        changes.unite(d->store->invalidateResult(key));
        if (d->states.invalidate(key))
            stateChanges.append(key);
    }
    if (!keys.isEmpty())
        d->each(Lifecycle::Invalidated, [&](Lifecycle &manager) { manager.invalidated(keys); });
    const QPointer<Controller> alive(this); // slots may destroy the Controller
    d->emitChanged(changes, detail::ChangeOrigin::Invalidation); // one commit, one signal
    for (const QString &key : std::as_const(stateChanges)) {
        if (!alive)
            return;
        Q_EMIT fetchStateChanged(key);
    }
}

void Controller::expireAll(const KeyPredicate &predicate)
{
    DATACLIENT_ASSERT_THREAD(this);
    const QStringList keys = knownKeys(*d->store, d->states, predicate);
    QStringList expired;
    for (const QString &key : keys) {
        bool changed = d->states.expireError(key);
        if (d->store->hasResult(key)) {
            Meta meta = d->store->resultMeta(key);
            if (meta.expiresAt != 0) {
                meta.expiresAt = 0; // ExpiryPolicy: 0 = already expired
                d->store->setResultMeta(key, meta);
                changed = true;
            }
        }
        if (changed)
            expired.append(key);
    }
    if (!expired.isEmpty())
        d->each(Lifecycle::Expired, [&](Lifecycle &manager) { manager.expired(expired); });
    // Expiry changes no data, only what a query should do next: refetch.
    const QPointer<Controller> alive(this);
    for (const QString &key : std::as_const(expired)) {
        if (!alive)
            return;
        Q_EMIT fetchStateChanged(key);
    }
}

void Controller::resetEntireStore()
{
    DATACLIENT_ASSERT_THREAD(this);
    ++d->generation;
    // Requests waiting (to retry, for connectivity, for their turn) end canceled; nothing of
    // them is stored. Then the managers drop what belonged to the store being reset (the
    // outbox's changes: a logout).
    d->endAllWaiting();
    d->each(Lifecycle::Reset, [](Lifecycle &manager) { manager.reset(); });
    // Reads in flight are aborted at once (their answers would be dropped anyway; mutations
    // keep running, their answers dropped too), and new reads must not join them.
    for (detail::InFlightRequest *request : d->inFlight.all()) {
        if (request->read)
            d->abort(*request);
    }
    d->inFlight.forgetReads();
    const ChangeSet changes = d->store->reset();
    d->guesses.clear();
    const QStringList keys = d->states.clear();
    qCDebug(lcController) << "store reset;" << d->inFlight.size() << "answers in flight dropped";
    const QPointer<Controller> alive(this);
    d->emitChanged(changes, detail::ChangeOrigin::Reset);
    if (!alive)
        return;
    // After emitChanged(): the empty store is not written either, nor collected.
    d->each(Lifecycle::StoreReset, [](Lifecycle &manager) { manager.storeReset(); });
    for (const QString &key : keys) {
        if (!alive)
            return;
        Q_EMIT fetchStateChanged(key);
    }
}

void Controller::logout()
{
    DATACLIENT_ASSERT_THREAD(this);
    qCInfo(lcController) << "logout: forgetting the store, the outbox, the files and the polls";
    const QPointer<Controller> alive(this);
    // The reset ends the requests that wait, drops the outbox and the guesses, empties the store
    // and deletes the persisted file; it aborts the reads on the wire.
    resetEntireStore();
    if (!alive)
        return;
    // Mutations on the wire too: the user who made them is gone (their answers are dropped).
    for (detail::InFlightRequest *request : d->inFlight.all())
        d->abort(*request);
    // Then each manager forgets what is the user's beyond the store: the outbox file, the
    // polls, the token.
    d->each(Lifecycle::LoggedOut, [](Lifecycle &manager) { manager.loggedOut(); });
}

} // namespace DataClient
