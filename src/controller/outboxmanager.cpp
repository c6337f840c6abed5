#include "outboxmanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "outbox_p.h"
#include "outboxfile_p.h"
#include "placeholdermanager_p.h"
#include "retrybackoff_p.h"
#include "scheduler_p.h"

#include <DataClient/private/controlleroutbox_p.h>
#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QFile>
#include <QtCore/QUuid>

namespace DataClient::detail {

namespace {

// The same key on every attempt (RFC draft "The Idempotency-Key HTTP Header Field"): a server
// that saw an attempt whose answer was lost applies the change once. Through the `headers`
// option, so that the endpoint's getRequestInit() still adds credentials at each attempt.
EndpointPtr withIdempotencyKey(const EndpointPtr &endpoint, const QByteArray &key)
{
    EndpointOverrides overrides;
    overrides.headers = endpoint->options().headers;
    overrides.headers->append({QByteArrayLiteral("Idempotency-Key"), key});
    return endpoint->extend(overrides);
}

} // namespace

OutboxManager::OutboxManager(ControllerPrivate &core)
    : Lifecycle(core,
                RequestMade | Holds | AttemptFailed | Failed | RequestEnded | OnlineChanged | Reset
                    | LoggedOut | Closing),
      outbox(new Outbox(core.q))
{ }

bool OutboxManager::queues(const RestEndpoint &endpoint)
{
    return endpoint.sideEffect() && endpoint.queueWhenOffline();
}

void OutboxManager::mark(InFlightRequest &request, const QByteArray &idempotencyKey)
{
    request.keepWithoutCallers = true;
    request.endpoint = withIdempotencyKey(request.endpoint, idempotencyKey);
}

void OutboxManager::attemptFailed(InFlightRequest &request, const NetworkError &error,
                                  RetryPlan *plan)
{
    if (!OutboxPrivate::get(outbox)->queue.find(request.id))
        return;
    // No answer (host not found too: the usual offline symptom) queues a change made online;
    // an answer to one that was not queued is final as for any mutation (the demo's rollback).
    const bool noAnswer = error.kind() == NetworkError::Kind::Network
        || error.kind() == NetworkError::Kind::Timeout;
    if (noAnswer)
        m_queued.insert(request.id);
    if (!m_queued.contains(request.id) || !(noAnswer || RetryBackoff::isRetriable(error)))
        return;
    // The endpoint's own backoff, or that of reads; never a last attempt.
    if (plan->policy.count == 0)
        plan->policy = RetryPolicy::forReads();
    plan->unlimited = true;
}

void OutboxManager::failed(InFlightRequest &request, const NetworkError &error, Failure *)
{
    if (request.keepWithoutCallers)
        m_failures.insert(request.id, error);
}

bool OutboxManager::holds(InFlightRequest &request)
{
    const OutboxPrivate *box = OutboxPrivate::get(outbox);
    if (!request.keepWithoutCallers || m_sending == request.id || !box->queue.find(request.id))
        return false;
    // Its turn: online, nothing under way, first in the queue.
    if (!core.shuttingDown && core.online && m_sending == 0 && box->queue.idAt(0) == request.id) {
        m_sending = request.id;
        return false;
    }
    return true;
}

void OutboxManager::onlineChanged(bool online)
{
    if (online)
        pump();
}

void OutboxManager::closing()
{
    if (m_writeFailures > 0)
        write();
}

void OutboxManager::requestMade(InFlightRequest &request)
{
    if (request.read || !queues(*request.endpoint))
        return;
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    // Made offline or behind other changes: it waits, and a 5xx retries it too.
    if (core.shuttingDown || !core.online || m_sending != 0 || !box->queue.isEmpty())
        m_queued.insert(request.id);
    OutboxItem item;
    item.endpoint = Outbox::endpointIdentity(*request.endpoint);
    item.method = request.endpoint->method();
    item.url = request.endpoint->url(request.params);
    item.params = request.params;
    item.body = request.body;
    item.since = core.now();
    item.idempotencyKey = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    item.placeholder = request.newRowKey; // writes held for its row name it
    box->endpoints.insert(item.endpoint, request.endpoint);
    mark(request, item.idempotencyKey);
    box->append(request.id, std::move(item));
    write(); // before fetch() returns: a crash from now on replays it
}

void OutboxManager::pump()
{
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    while (!core.shuttingDown && core.online && !box->queue.isEmpty()) {
        const quint64 id = box->queue.idAt(0);
        InFlightRequest *request = core.inFlight.find(id);
        if (!request) {
            // Read from a file, and no endpoint of that name was registered since.
            qCWarning(lcController).noquote()
                << QStringLiteral("outbox: dropped %1: its endpoint \"%2\" is unknown (register "
                                  "it with Outbox::registerEndpoint() or registerResource())")
                       .arg(box->queue.at(0).describe(), box->queue.at(0).endpoint);
            box->remove(id);
            write();
            continue;
        }
        m_sending = id;
        // Its retry is scheduled (a reconnect does not shorten a backoff the server asked for),
        // or it is on the wire.
        if (request->betweenAttempts || !request->held)
            return;
        core.sendWaiting(*request);
        return;
    }
}

void OutboxManager::requestEnded(const InFlightRequest &request)
{
    const bool queued = m_queued.remove(request.id);
    const std::optional<NetworkError> failure = m_failures.contains(request.id)
        ? std::optional<NetworkError>(m_failures.take(request.id))
        : std::nullopt;
    if (!request.keepWithoutCallers)
        return;
    if (m_sending == request.id)
        m_sending = 0;
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    const OutboxItem *found = box->queue.find(request.id);
    if (!found)
        return;
    const OutboxItem item = *found;
    box->remove(request.id);
    write();
    const QPointer<Controller> alive(core.q);
    // A change made online that failed at once is reported by its future, as any mutation.
    if (queued && failure && failure->kind() != NetworkError::Kind::Canceled) {
        qCWarning(lcController).noquote()
            << QStringLiteral("outbox: dropped %1: %2").arg(item.describe(), failure->message());
        Q_EMIT core.q->outboxFailed(item.method, item.url, *failure);
    }
    if (alive)
        pump();
}

void OutboxManager::resolve()
{
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    QList<quint64> unknown;
    for (qsizetype row = 0; row < box->queue.size(); ++row) {
        if (!core.inFlight.find(box->queue.idAt(row)))
            unknown.append(box->queue.idAt(row));
    }
    ChangeSet changes;
    QStringList loading;
    for (const quint64 id : std::as_const(unknown)) {
        const OutboxItem item = *box->queue.find(id);
        const EndpointPtr endpoint = box->endpoint(item.endpoint);
        if (!endpoint)
            continue; // dropped with a warning when its turn comes, unless registered before
        auto [key, keyError] = detail::keyOf(endpoint, item.params, "outbox");
        if (keyError) {
            qCWarning(lcController).noquote() << QStringLiteral("outbox: dropped %1: %2")
                                                     .arg(item.describe(), keyError->message());
            box->remove(id);
            continue;
        }
        auto request = std::make_shared<InFlightRequest>();
        request->id = id;
        request->endpoint = endpoint;
        request->params = item.params;
        request->key = key;
        request->requestKey = endpoint->requestKey(item.params);
        request->read = false;
        request->date = 0; // dated when sent
        request->generation = core.generation;
        request->body = item.body;
        request->held = true; // until its turn
        m_queued.insert(id);
        mark(*request, item.idempotencyKey);
        if (endpoint->optimistic()) {
            ChangeSet shown;
            request->layer
                = core.guesses.show(*endpoint, item.params, item.body, OptimisticLayers::unsent,
                                    &shown, &request->newRowKey);
            changes.unite(shown);
        }
        if (!item.placeholder.isEmpty() && !request->newRowKey.isEmpty()) {
            // This run's key for the row: the writes held for it are renamed to it.
            core.managers->placeholders->renamed.insert(item.placeholder, request->newRowKey);
            box->queue.setPlaceholder(id, request->newRowKey);
        }
        core.inFlight.add(request);
        if (core.states.startLoading(key))
            loading.append(key);
    }
    core.managers->placeholders->restore(&changes);
    write();
    const QPointer<Controller> alive(core.q);
    core.emitOptimistic(changes); // no store write: it would rewrite what was just hydrated
    for (const QString &key : std::as_const(loading)) {
        if (!alive)
            return;
        Q_EMIT core.q->fetchStateChanged(key);
    }
}

void OutboxManager::setFile(const QString &path)
{
    if (path == m_file)
        return; // loaded already: reading it again would replay its items twice
    m_file = path;
    m_writeFailures = 0;
    if (core.scheduler)
        core.scheduler->cancel(std::exchange(m_writeRetry, 0));
    if (path.isEmpty())
        return;
    QList<OutboxItem> loaded;
    if (QFile::exists(path)) {
        QString why;
        const std::optional<QByteArray> bytes = OutboxFile::read(path, &why);
        std::optional<QList<OutboxItem>> items
            = bytes ? OutboxFile::decode(*bytes, &why) : std::nullopt;
        if (items) {
            loaded = std::move(*items);
        } else {
            qCWarning(lcController).noquote()
                << QStringLiteral("outbox file %1 dropped: %2; starting with an empty outbox")
                       .arg(path, why);
        }
    }
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    PlaceholderManager &placeholders = *core.managers->placeholders;
    for (OutboxItem &item : loaded) {
        if (!item.waitingFor.isEmpty())
            placeholders.pending.append({std::move(item)}); // held again by resolve()
        else
            box->append(core.inFlight.nextId(), std::move(item));
    }
    resolve(); // also rewrites the file: a dropped one is replaced at once
    // At the next event-loop turn: the application may register endpoints until then.
    QMetaObject::invokeMethod(
        core.q, [this] { pump(); }, Qt::QueuedConnection);
}

void OutboxManager::write()
{
    // Shutting down: the file keeps what it holds (held writes included) for the next start.
    if (m_file.isEmpty() || core.shuttingDown)
        return;
    core.scheduler->cancel(std::exchange(m_writeRetry, 0)); // this write is the retry
    QString why;
    const QList<OutboxItem> items
        = OutboxPrivate::get(outbox)->queue.items() + core.managers->placeholders->outboxItems();
    const QByteArray bytes = OutboxFile::encode(items);
    if (OutboxFile::write(m_file, bytes, &why)) {
        m_writeFailures = 0;
        return;
    }
    // A full disk or an unwritable folder: the items live on in memory, and the file is written
    // again at the next change or when the retry is due, whichever comes first.
    const qint64 retry = VerifiedWrite::retryDelayMs(++m_writeFailures, 0);
    m_writeRetry = core.scheduler->scheduleIn(retry, core.q, [this] {
        m_writeRetry = 0;
        write();
    });
    if (m_writeFailures > 1)
        return; // warned once until a write lands
    qCWarning(lcController).noquote()
        << QStringLiteral("cannot write the outbox file: %1; its %2 change(s) stay in memory and "
                          "are sent as usual, and the file is written again at the next change, "
                          "in %3 ms (then less often) and when the Controller is destroyed")
               .arg(why, QString::number(items.size()), QString::number(retry));
}

void OutboxManager::reset()
{
    // Requests still on the wire finish as ordinary mutations (their answers are dropped).
    for (InFlightRequest *request : core.inFlight.all())
        request->keepWithoutCallers = false;
    m_sending = 0;
    m_queued.clear();
    m_failures.clear();
    OutboxPrivate::get(outbox)->clear();
    write();
}

void OutboxManager::loggedOut()
{
    // The reset emptied the file; a logout removes it (nothing of the user stays on disk).
    core.scheduler->cancel(std::exchange(m_writeRetry, 0));
    if (!m_file.isEmpty() && QFile::exists(m_file) && !QFile::remove(m_file))
        qCWarning(lcController).noquote()
            << QStringLiteral("logout: cannot remove the outbox file %1").arg(m_file);
}

} // namespace DataClient::detail

namespace DataClient {

Outbox *Controller::outbox() const
{
    return d->managers->outbox->outbox;
}

void detail::setOutboxFile(Controller *controller, const QString &path)
{
    DATACLIENT_ASSERT_THREAD(controller);
    ControllerPrivate::get(controller)->managers->outbox->setFile(path);
}

} // namespace DataClient
