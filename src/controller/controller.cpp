// Controller: construction, the global instance, keys and reads.
// Fetching is in controllerfetch.cpp, writes without a request in controllerwrite.cpp.
#include "controller_p.h"
#include "expirypolicy_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "scheduler_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QThread>
#include <QtNetwork/QNetworkAccessManager>

#include <algorithm>
#include <bit>
#include <utility>

namespace DataClient {

using detail::ExpiryPolicy;
using detail::Lifecycle;

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

ControllerPrivate::ControllerPrivate(Controller *controller) : q(controller), guesses(*this) { }

ControllerPrivate::~ControllerPrivate() = default;

detail::KeyOrError detail::keyOf(const EndpointPtr &endpoint, const Params &params,
                                 const char *caller)
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

bool detail::canQueryEntityTable(const RestEndpoint &endpoint)
{
    if (endpoint.sideEffect())
        return false;
    const Schema schema = endpoint.schema();
    return schema.kind() == Schema::Kind::Entity || !schema.collectionSchema().isNull();
}

int detail::stepIndex(detail::Lifecycle::Step step)
{
    return std::countr_zero(quint32(step));
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

void ControllerPrivate::emitChanged(const ChangeSet &changes, detail::ChangeOrigin origin,
                                    quint64 request)
{
    // Even a commit that changed nothing shown may renew a meta (persisted).
    each(Lifecycle::StoreChanged, [&](Lifecycle &manager) { manager.storeChanged(changes, true); });
    if (!changes.isEmpty())
        emitWithOrigin(changes, origin, request);
}

void ControllerPrivate::emitOptimistic(const ChangeSet &changes, detail::ChangeOrigin origin,
                                       quint64 request)
{
    if (changes.isEmpty())
        return;
    each(Lifecycle::StoreChanged,
         [&](Lifecycle &manager) { manager.storeChanged(changes, false); });
    emitWithOrigin(changes, origin, request);
}

void ControllerPrivate::emitWithOrigin(const ChangeSet &changes, detail::ChangeOrigin origin,
                                       quint64 request)
{
    // A slot may write (a change inside this one's emission): the outer origin comes back after.
    const detail::ChangeOrigin outer = std::exchange(changeOrigin, origin);
    const quint64 outerRequest = std::exchange(changeRequest, request);
    const QPointer<Controller> alive(q);
    Q_EMIT q->changed(changes);
    if (alive) {
        changeOrigin = outer;
        changeRequest = outerRequest;
    }
}

Controller::Controller(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent), d(std::make_unique<ControllerPrivate>(this))
{
    d->network = network ? network : new QNetworkAccessManager(this);
    d->store = std::make_unique<Store>();
    d->scheduler = new detail::Scheduler([this] { return d->now(); }, this);
    d->managers = std::make_unique<detail::Managers>(*d);
    d->managers->start();
}

Controller::~Controller()
{
    // What was committed is on disk before the lock goes, the pending changes too.
    d->each(Lifecycle::Closing, [](Lifecycle &manager) { manager.closing(); });
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
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "getResponse");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError) {
        state.error = keyError;
        return state;
    }
    // A persisted file made with other schemas is never read; a read is a use (the least
    // recently used goes first).
    d->each(Lifecycle::Read, [&](Lifecycle &manager) { manager.read(*endpoint, key); });
    const detail::FetchState *fetchState = d->states.find(key);
    state.loading = fetchState && fetchState->loading > 0;
    const bool invalidated = fetchState && fetchState->invalidated;
    Denormalized value;
    if (!invalidated) {
        const Schema schema = endpoint->schema();
        const Params args = endpoint->storeArguments(params);
        value = d->store->denormalize(key, schema, args);
        if (!value.found && !d->store->hasResult(key) && detail::canQueryEntityTable(*endpoint)) {
            value = d->store->query(schema, args);
        }
    }
    state.data = value.data;
    state.found = value.found;
    // An entity hidden by a mutation still in flight (an optimistic delete): what shows next
    // depends on that request, so this key is loading, not missing (no refetch meanwhile).
    if (!state.found && !state.loading && !invalidated)
        state.loading = d->guesses.hide(*endpoint, params);
    state.pending = d->guesses.pending(state, *endpoint, params);
    state.fetchedAt = value.meta.fetchedAt;
    const bool hasError = fetchState && fetchState->error;
    if (hasError)
        state.error = fetchState->error;
    state.expiresAt = hasError ? fetchState->errorExpiresAt : value.meta.expiresAt;
    state.status
        = ExpiryPolicy::status(state.found, invalidated, hasError, state.expiresAt, d->now());
    if (state.loading) {
        if (const detail::InFlightRequest *read
            = d->inFlight.findRead(endpoint->requestKey(params))) {
            state.paused = read->held;
            d->each(Lifecycle::Describe,
                    [&](const Lifecycle &manager) { manager.describe(*read, &state); });
        }
    }
    return state;
}

std::optional<NetworkError> Controller::getError(const EndpointPtr &endpoint,
                                                 const Params &params) const
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "getError");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    if (keyError)
        return keyError;
    const detail::FetchState *state = d->states.find(key);
    return state ? state->error : std::nullopt;
}

bool Controller::isLoading(const EndpointPtr &endpoint, const Params &params) const
{
    DATACLIENT_ASSERT_THREAD(this);
    const detail::KeyOrError keyed = detail::keyOf(endpoint, params, "isLoading");
    const QString &key = keyed.key;
    const std::optional<NetworkError> &keyError = keyed.error;
    return !keyError && d->states.loading(key) > 0;
}

Denormalized Controller::get(const Schema &schema, const Params &args) const
{
    DATACLIENT_ASSERT_THREAD(this);
    d->each(Lifecycle::Read, [&](Lifecycle &manager) { manager.readSchema(schema); });
    return d->store->query(schema, args);
}

const Store &Controller::store() const
{
    return *d->store;
}

void Controller::setClock(Clock clock)
{
    DATACLIENT_ASSERT_THREAD(this);
    const bool system = !clock;
    d->clock = std::move(clock);
    // A clock other than the system's does not move with real time: its owner runs the waits.
    d->scheduler->setTimerDriven(system);
}

qint64 Controller::now() const
{
    return d->now();
}

qint64 Controller::nextTimerDue() const
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->scheduler->nextDue();
}

int Controller::runDueTimers()
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->scheduler->runDue();
}

} // namespace DataClient
