// Controller: construction, the global instance, keys and reads, polling subscriptions.
// Fetching is in controllerfetch.cpp, writes without a request in controllerwrite.cpp.
#include "controller_p.h"
#include "expirypolicy_p.h"
#include "logging_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QThread>
#include <QtNetwork/QNetworkAccessManager>

#include <algorithm>

namespace DataClient {

using detail::ExpiryPolicy;

namespace {
// The Controller an application chose with setInstance(), and the lazily created default used
// when it chose none (or its choice was destroyed).
QPointer<Controller> g_chosen;
QPointer<Controller> g_default;

// Deletes the default Controller (and with it its network manager) from ~QCoreApplication's
// post routines, while the application object is still whole: among the application's children
// it would go after QCoreApplication::instance() became null (see RestEndpoint's default
// network manager; tst_controller_teardown).
void deleteDefaultController()
{
    delete g_default.data();
}
} // namespace

ControllerPrivate::ControllerPrivate(Controller *controller) : q(controller) { }

ControllerPrivate::KeyOrError ControllerPrivate::keyOf(const EndpointPtr &endpoint,
                                                       const Params &params, const char *caller)
{
    if (!endpoint) {
        return {{},
                NetworkError(NetworkError::Kind::InvalidRequest, 0,
                             QStringLiteral("Controller::%1: the endpoint is null (expected an "
                                            "endpoint, e.g. a resource member such as "
                                            "TodoResource.get)")
                                 .arg(QLatin1StringView(caller)))};
    }
    QString why;
    QString key = endpoint->key(params, &why);
    if (key.isEmpty()) {
        if (why.isEmpty())
            why = endpoint->errorString();
        const QString message
            = QStringLiteral("Controller::%1(%2 %3): %4")
                  .arg(QLatin1StringView(caller), endpoint->methodName(),
                       endpoint->name().isEmpty() ? endpoint->path() : endpoint->name(), why);
        return {{}, NetworkError::invalidRequest(endpoint->method(), QUrl(), message)};
    }
    return {std::move(key), std::nullopt};
}

bool ControllerPrivate::canQueryEntityTable(const RestEndpoint &endpoint)
{
    if (endpoint.sideEffect())
        return false;
    const Schema schema = endpoint.schema();
    return schema.kind() == Schema::Kind::Entity || !schema.collectionSchema().isNull();
}

bool ControllerPrivate::hiddenByPendingMutation(const RestEndpoint &endpoint,
                                                const Params &params) const
{
    if (endpoint.sideEffect() || layers.size() == 0
        || endpoint.schema().kind() != Schema::Kind::Entity)
        return false;
    const EntitySchema entity = endpoint.schema().entitySchema();
    const QString pk = entity.pk(QJsonObject::fromVariantMap(endpoint.storeArguments(params)));
    return !pk.isEmpty() && layers.touches(EntityRef {entity.key(), pk});
}

qint64 ControllerPrivate::now() const
{
    return clock ? clock() : QDateTime::currentMSecsSinceEpoch();
}

qint64 ControllerPrivate::nextRequestDate()
{
    // The store drops writes dated before its last reset, which it stamps with the system
    // clock: a request started after a reset must be dated after it even when setClock()
    // installed a clock in the past (tests).
    lastRequestDate = std::max({now(), lastRequestDate + 1, store->resetAt() + 1});
    return lastRequestDate;
}

Meta ControllerPrivate::responseMeta(const RestEndpoint &endpoint, qint64 date) const
{
    const qint64 fetchedAt = now();
    return {date, fetchedAt,
            fetchedAt + ExpiryPolicy::dataExpiryLength(endpoint.dataExpiryLength())};
}

void ControllerPrivate::emitChanged(const ChangeSet &changes)
{
    persistDirty(); // even a commit that changed nothing shown may renew a meta
    emitOptimistic(changes);
}

void ControllerPrivate::emitOptimistic(const ChangeSet &changes)
{
    if (!changes.isEmpty())
        Q_EMIT q->changed(changes);
}

Controller::Controller(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent), d(std::make_unique<ControllerPrivate>(this))
{
    d->network = network ? network : new QNetworkAccessManager(this);
    d->store = std::make_unique<Store>();
    d->scheduler = new detail::Scheduler([this] { return d->now(); }, this);
    d->polls = new detail::PollSubscriptions(
        d->scheduler,
        [this](const EndpointPtr &endpoint, const Params &params) {
            // A poll is a plain read: it joins a request already in flight for the key.
            fetch(endpoint, params);
        },
        this);
    d->outbox = new Outbox(this);
    setConnectivity(nullptr);
    d->followApplicationState();
    connect(this, &Controller::changed, this,
            [this](const ChangeSet &changes) { d->gcNoteChanges(changes); });
}

Controller::~Controller()
{
    d->flushPersisted(); // what was committed is on disk before the lock goes
    d->flushOutbox(); // and the pending changes, if a failed write left the file behind
    d->shutdown();
}

Controller *Controller::instance()
{
    if (g_chosen)
        return g_chosen;
    if (!g_default) {
        QCoreApplication *app = QCoreApplication::instance();
        g_default = new Controller(nullptr, app);
        static QPointer<QCoreApplication> cleanedUpBy; // post routines run once per application
        if (app && cleanedUpBy != app) {
            qAddPostRoutine(deleteDefaultController);
            cleanedUpBy = app;
        }
    }
    return g_default;
}

void Controller::setInstance(Controller *controller)
{
    // The default stays alive (a child of the application): code may still hold it.
    g_chosen = controller;
}

QNetworkAccessManager *Controller::networkAccessManager() const
{
    return d->network;
}

void Controller::setNetworkAccessManager(QNetworkAccessManager *network)
{
    DATACLIENT_ASSERT_THREAD(this);
    d->network = network ? network : new QNetworkAccessManager(this);
}

ResponseState Controller::getResponse(const EndpointPtr &endpoint, const Params &params) const
{
    DATACLIENT_ASSERT_THREAD(this);
    ResponseState state;
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "getResponse");
    if (keyError) {
        state.error = keyError;
        return state;
    }
    d->persistNote(*endpoint); // a persisted file made with other schemas is never read
    d->gc.touch(key, d->now()); // a read is a use: the least recently used goes first
    const detail::FetchState *fetchState = d->states.find(key);
    state.loading = fetchState && fetchState->loading > 0;
    const bool invalidated = fetchState && fetchState->invalidated;
    Denormalized value;
    if (!invalidated) {
        const Schema schema = endpoint->schema();
        const Params args = endpoint->storeArguments(params);
        value = d->store->denormalize(key, schema, args);
        if (!value.found && !d->store->hasResult(key)
            && ControllerPrivate::canQueryEntityTable(*endpoint)) {
            value = d->store->query(schema, args);
        }
    }
    state.data = value.data;
    state.found = value.found;
    // An entity hidden by a mutation still in flight (an optimistic delete): what shows next
    // depends on that request, so this key is loading, not missing (no refetch meanwhile).
    if (!state.found && !state.loading && !invalidated)
        state.loading = d->hiddenByPendingMutation(*endpoint, params);
    state.pending = d->showsPending(state, *endpoint, params);
    state.fetchedAt = value.meta.fetchedAt;
    const bool hasError = fetchState && fetchState->error;
    if (hasError)
        state.error = fetchState->error;
    state.expiresAt = hasError ? fetchState->errorExpiresAt : value.meta.expiresAt;
    state.status
        = ExpiryPolicy::status(state.found, invalidated, hasError, state.expiresAt, d->now());
    if (state.loading)
        d->readProgress(endpoint->requestKey(params), &state);
    return state;
}

std::optional<NetworkError> Controller::getError(const EndpointPtr &endpoint,
                                                 const Params &params) const
{
    DATACLIENT_ASSERT_THREAD(this);
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "getError");
    if (keyError)
        return keyError;
    const detail::FetchState *state = d->states.find(key);
    return state ? state->error : std::nullopt;
}

bool Controller::isLoading(const EndpointPtr &endpoint, const Params &params) const
{
    DATACLIENT_ASSERT_THREAD(this);
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "isLoading");
    return !keyError && d->states.loading(key) > 0;
}

Denormalized Controller::get(const Schema &schema, const Params &args) const
{
    DATACLIENT_ASSERT_THREAD(this);
    if (!d->persist->unchecked.isEmpty())
        d->persistNoteSchema(schema);
    return d->store->query(schema, args);
}

const Store &Controller::store() const
{
    return *d->store;
}

bool Controller::subscribe(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "subscribe");
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return false;
    }
    if (endpoint->pollFrequency() <= 0) {
        qCWarning(lcController).noquote()
            << "Controller::subscribe(" << key << "): the endpoint's pollFrequency is"
            << endpoint->pollFrequency() << "- expected a positive number of milliseconds";
        return false;
    }
    d->polls->subscribe(key, endpoint, params, endpoint->pollFrequency());
    d->updateGcSchedule(true);
    return true;
}

bool Controller::unsubscribe(const EndpointPtr &endpoint, const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "unsubscribe");
    if (keyError) {
        qCWarning(lcController).noquote() << keyError->message();
        return false;
    }
    if (!d->polls->unsubscribe(key, endpoint.get()))
        return false;
    d->gcReleased(key, endpoint, params);
    return true;
}

int Controller::pollInterval(const EndpointPtr &endpoint, const Params &params) const
{
    const auto [key, keyError] = ControllerPrivate::keyOf(endpoint, params, "pollInterval");
    return keyError ? 0 : d->polls->interval(key);
}

} // namespace DataClient
