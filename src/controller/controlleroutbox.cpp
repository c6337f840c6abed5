// The outbox (issue 16, docs/offline-outbox.md): every mutation of an endpoint with
// queueWhenOffline is recorded (and its file written) before fetch() returns, and stays until
// the server answered it. Items go one at a time, in the order they were made (strictly
// serial: a change never overtakes an earlier one, whichever entity it touches). Offline an
// item waits; a network error or a 5xx retries it with the backoff of issue 13, through the
// scheduler; a 4xx drops it, rolls back its optimistic layer and reports outboxFailed().
// Each item is an InFlightRequest like any other: the same commit, layers and fetch state.
#include "controller_p.h"
#include "logging_p.h"
#include "outbox_p.h"
#include "outboxfile_p.h"
#include "retrybackoff_p.h"

#include <DataClient/private/controlleroutbox_p.h>
#include <DataClient/private/verifiedwrite_p.h>

#include <QtCore/QFile>
#include <QtCore/QUuid>

namespace DataClient {

using detail::InFlightRequest;
using detail::OutboxFile;
using detail::OutboxItem;

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

Outbox *Controller::outbox() const
{
    return d->outbox;
}

bool ControllerPrivate::queues(const RestEndpoint &endpoint)
{
    return endpoint.sideEffect() && endpoint.queueWhenOffline();
}

void ControllerPrivate::markOutbox(InFlightRequest &request, const QByteArray &idempotencyKey)
{
    request.outbox = true;
    request.endpoint = withIdempotencyKey(request.endpoint, idempotencyKey);
}

bool ControllerPrivate::outboxRetries(InFlightRequest &request, const NetworkError &error,
                                      RetryPolicy *policy)
{
    // No answer (host not found too: the usual offline symptom) queues a change made online;
    // an answer to one that was not queued is final as for any mutation (the demo's rollback).
    const bool noAnswer = error.kind() == NetworkError::Kind::Network
        || error.kind() == NetworkError::Kind::Timeout;
    if (noAnswer)
        request.queued = true;
    if (!request.queued || !(noAnswer || detail::RetryBackoff::isRetriable(error)))
        return false;
    // The endpoint's own backoff, or that of reads; never a last attempt.
    if (policy->count == 0)
        *policy = RetryPolicy::forReads();
    return true;
}

void ControllerPrivate::enqueue(InFlightRequest &request)
{
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    OutboxItem item;
    item.endpoint = Outbox::endpointIdentity(*request.endpoint);
    item.method = request.endpoint->method();
    item.url = request.endpoint->url(request.params);
    item.params = request.params;
    item.body = request.body;
    item.since = now();
    item.idempotencyKey = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    item.placeholder = request.placeholder; // writes held for its row name it
    box->endpoints.insert(item.endpoint, request.endpoint);
    markOutbox(request, item.idempotencyKey);
    box->append(request.id, std::move(item));
    writeOutbox(); // before fetch() returns: a crash from now on replays it
}

bool ControllerPrivate::outboxIdle() const
{
    return !shuttingDown && online && outboxSending == 0
        && OutboxPrivate::get(outbox)->queue.isEmpty();
}

void ControllerPrivate::pumpOutbox()
{
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    while (!shuttingDown && online && !box->queue.isEmpty()) {
        const quint64 id = box->queue.idAt(0);
        InFlightRequest *request = inFlight.find(id);
        if (!request) {
            // Read from a file, and no endpoint of that name was registered since.
            qCWarning(lcController).noquote()
                << QStringLiteral("outbox: dropped %1: its endpoint \"%2\" is unknown (register "
                                  "it with Outbox::registerEndpoint() or registerResource())")
                       .arg(box->queue.at(0).describe(), box->queue.at(0).endpoint);
            box->remove(id);
            writeOutbox();
            continue;
        }
        outboxSending = id;
        // Its retry is scheduled (a reconnect does not shorten a backoff the server asked for),
        // or it is on the wire.
        if (request->backoff != 0 || !request->paused)
            return;
        sendWaiting(*request);
        return;
    }
}

void ControllerPrivate::outboxFinished(const InFlightRequest &request)
{
    if (!request.outbox)
        return;
    if (outboxSending == request.id)
        outboxSending = 0;
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    const OutboxItem *found = box->queue.find(request.id);
    if (!found)
        return;
    const OutboxItem item = *found;
    box->remove(request.id);
    writeOutbox();
    const QPointer<Controller> alive(q);
    // A change made online that failed at once is reported by its future, as any mutation.
    if (request.queued && request.failure
        && request.failure->kind() != NetworkError::Kind::Canceled) {
        qCWarning(lcController).noquote() << QStringLiteral("outbox: dropped %1: %2")
                                                 .arg(item.describe(), request.failure->message());
        Q_EMIT q->outboxFailed(item.method, item.url, *request.failure);
    }
    if (alive)
        pumpOutbox();
}

void ControllerPrivate::resolveOutbox()
{
    OutboxPrivate *box = OutboxPrivate::get(outbox);
    QList<quint64> unknown;
    for (qsizetype row = 0; row < box->queue.size(); ++row) {
        if (!inFlight.find(box->queue.idAt(row)))
            unknown.append(box->queue.idAt(row));
    }
    ChangeSet changes;
    QStringList loading;
    for (const quint64 id : std::as_const(unknown)) {
        const OutboxItem item = *box->queue.find(id);
        const EndpointPtr endpoint = box->endpoint(item.endpoint);
        if (!endpoint)
            continue; // dropped with a warning when its turn comes, unless registered before
        auto [key, keyError] = keyOf(endpoint, item.params, "outbox");
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
        request->generation = generation;
        request->body = item.body;
        request->paused = true; // until its turn
        request->queued = true;
        request->retry = endpoint->retryPolicy();
        markOutbox(*request, item.idempotencyKey);
        if (endpoint->optimistic()) {
            ChangeSet shown;
            request->layer
                = applyOptimistic(*endpoint, item.params, item.body,
                                  detail::OptimisticLayers::unsent, &shown, &request->placeholder);
            changes.unite(shown);
        }
        if (!item.placeholder.isEmpty() && !request->placeholder.isEmpty()) {
            // This run's key for the row: the writes held for it are renamed to it.
            renamedPlaceholders.insert(item.placeholder, request->placeholder);
            box->queue.setPlaceholder(id, request->placeholder);
        }
        inFlight.add(request);
        if (states.startLoading(key))
            loading.append(key);
    }
    restoreHeldWrites(&changes);
    writeOutbox();
    const QPointer<Controller> alive(q);
    emitOptimistic(changes); // no store write: it would rewrite what was just hydrated
    for (const QString &key : std::as_const(loading)) {
        if (!alive)
            return;
        Q_EMIT q->fetchStateChanged(key);
    }
}

void ControllerPrivate::setOutboxFile(const QString &path)
{
    if (path == outboxFile)
        return; // loaded already: reading it again would replay its items twice
    outboxFile = path;
    outboxWriteFailures = 0;
    if (scheduler)
        scheduler->cancel(std::exchange(outboxWriteRetry, 0));
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
    for (OutboxItem &item : loaded) {
        if (!item.waitingFor.isEmpty())
            pendingHeld.append({std::move(item)}); // held again by resolveOutbox()
        else
            box->append(inFlight.nextId(), std::move(item));
    }
    resolveOutbox(); // also rewrites the file: a dropped one is replaced at once
    // At the next event-loop turn: the application may register endpoints until then.
    QMetaObject::invokeMethod(
        q, [this] { pumpOutbox(); }, Qt::QueuedConnection);
}

void ControllerPrivate::writeOutbox()
{
    // Shutting down: the file keeps what it holds (held writes included) for the next start.
    if (outboxFile.isEmpty() || shuttingDown)
        return;
    scheduler->cancel(std::exchange(outboxWriteRetry, 0)); // this write is the retry
    QString why;
    QList<OutboxItem> items = OutboxPrivate::get(outbox)->queue.items() + heldOutboxItems();
    for (const PendingHeld &pending : std::as_const(pendingHeld))
        items.append(pending.item);
    const QByteArray bytes = OutboxFile::encode(items);
    if (OutboxFile::write(outboxFile, bytes, &why)) {
        outboxWriteFailures = 0;
        return;
    }
    // A full disk or an unwritable folder: the items live on in memory, and the file is written
    // again at the next change or when the retry is due, whichever comes first.
    const qint64 retry = detail::VerifiedWrite::retryDelayMs(++outboxWriteFailures, 0);
    outboxWriteRetry = scheduler->scheduleIn(retry, q, [this] {
        outboxWriteRetry = 0;
        writeOutbox();
    });
    if (outboxWriteFailures > 1)
        return; // warned once until a write lands
    qCWarning(lcController).noquote()
        << QStringLiteral("cannot write the outbox file: %1; its %2 change(s) stay in memory and "
                          "are sent as usual, and the file is written again at the next change, "
                          "in %3 ms (then less often) and when the Controller is destroyed")
               .arg(why, QString::number(items.size()), QString::number(retry));
}

void ControllerPrivate::flushOutbox()
{
    if (outboxWriteFailures > 0)
        writeOutbox();
}

void ControllerPrivate::clearOutbox()
{
    // Requests still on the wire finish as ordinary mutations (their answers are dropped).
    for (InFlightRequest *request : inFlight.all())
        request->outbox = false;
    outboxSending = 0;
    OutboxPrivate::get(outbox)->clear();
    writeOutbox();
}

void detail::setOutboxFile(Controller *controller, const QString &path)
{
    DATACLIENT_ASSERT_THREAD(controller);
    ControllerPrivate::get(controller)->setOutboxFile(path);
}

} // namespace DataClient
