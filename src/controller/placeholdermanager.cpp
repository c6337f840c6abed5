#include "placeholdermanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "outboxmanager_p.h"
#include "outbox_p.h"

#include <DataClient/placeholderkey.h>
#include <DataClient/record.h>
#include <DataClient/rowlist.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QUuid>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

PlaceholderManager::PlaceholderManager(ControllerPrivate &core)
    : Lifecycle(core, CallArrived | NewRowKey | Committed | Failed | Reset | Shutdown)
{ }

QString PlaceholderManager::newRowKey()
{
    return held.allocate();
}

void PlaceholderManager::newRowKeyUnused(const QString &key)
{
    held.refuse(key);
}

std::optional<QFuture<QVariant>> PlaceholderManager::callArrived(FetchCall &call)
{
    const EndpointPtr &endpoint = call.endpoint;
    Params *params = &call.params;
    QJsonValue *body = &call.body;
    const Params named = *params;
    QString unknown;
    const QSet<QString> waiting = held.substitute(params, body, &unknown);
    const bool read = !endpoint->sideEffect();
    if (read && (!waiting.isEmpty() || !unknown.isEmpty())) {
        // A row that exists only on this side: what the store shows of it is all there is.
        const ResponseState state = core.q->getResponse(endpoint, named);
        if (state.found)
            return detail::readyFuture(state.data);
    }
    if (!unknown.isEmpty() || (read && !waiting.isEmpty())) {
        const QString placeholder = unknown.isEmpty() ? *waiting.cbegin() : unknown;
        const NetworkError error = NetworkError::invalidRequest(
            endpoint->method(), QUrl(),
            QStringLiteral("Controller::fetch(%1): the parameters or the body name the "
                           "placeholder key \"%2\" of a row %3; nothing was sent")
                .arg(endpoint->name(), placeholder.mid(1),
                     unknown.isEmpty() ? QStringLiteral("the server has not created yet")
                                       : QStringLiteral("whose create failed or was dropped")));
        qCDebug(lcController).noquote() << error.message();
        return QtFuture::makeExceptionalFuture<QVariant>(error);
    }
    if (waiting.isEmpty())
        return std::nullopt;

    ChangeSet changes;
    std::shared_ptr<HeldWrite> write = makeHeldWrite(
        endpoint, *params, *body, waiting, OutboxManager::queues(*endpoint), core.now(),
        QUuid::createUuid().toByteArray(QUuid::WithoutBraces), &changes);
    QFuture<QVariant> future = write->callers.add();
    qCDebug(lcController).noquote()
        << endpoint->name() << "held until" << waiting.size() << "placeholder row(s) are created";
    const bool durable = write->durable;
    held.hold(std::move(write));
    if (durable)
        writeOutbox(); // before fetch() returns, as for any change that queues
    core.emitOptimistic(changes);
    return future;
}

std::shared_ptr<HeldWrite>
PlaceholderManager::makeHeldWrite(const EndpointPtr &endpoint, const Params &params,
                                  const QJsonValue &body, const QSet<QString> &waiting,
                                  bool durable, qint64 since, const QByteArray &idempotencyKey,
                                  ChangeSet *changes)
{
    auto write = std::make_shared<HeldWrite>();
    write->endpoint = endpoint;
    write->params = params;
    write->body = body;
    write->waitingFor = waiting;
    write->durable = durable;
    write->since = since;
    write->idempotencyKey = idempotencyKey;
    // Shown at once on the placeholder row (an edit, a delete hiding it), like any write; not
    // sent yet, so above everything (the create's guess, itself waiting, included).
    if (endpoint->optimistic()) {
        ChangeSet shown;
        write->layer
            = core.guesses.show(*endpoint, params, body, OptimisticLayers::unsent, &shown, nullptr);
        changes->unite(shown);
    }
    return write;
}

void PlaceholderManager::committed(InFlightRequest &request, Commit *commit)
{
    if (request.newRowKey.isEmpty())
        return;
    // The placeholder row becomes the server's entity in this same change set, and the writes
    // that waited for it start with the server's key.
    const QVariant &answer = commit->answer;
    ChangeSet *changes = commit->changes;
    QString serverPk;
    if (answer.metaType() == QMetaType::fromType<Record>())
        serverPk = static_cast<const Record *>(answer.constData())->pk();
    if (serverPk.isEmpty()) {
        changes->unite(refuse(
            request,
            NetworkError(NetworkError::Kind::InvalidResponse, 0,
                         QStringLiteral("%1: the answer to the create names no entity with a "
                                        "primary key; the writes held for its row were not sent")
                             .arg(request.requestKey))));
        return;
    }
    const QList<std::shared_ptr<HeldWrite>> ready = held.confirm(request.newRowKey, serverPk);
    for (const std::shared_ptr<HeldWrite> &write : ready) {
        changes->unite(core.guesses.remove(write->layer, 0, {}));
        // Sent now, once, with the server's key; its guess joins the create's change set.
        const QFuture<QVariant> sent
            = core.fetch(write->endpoint, write->params, write->body, changes);
        auto *watcher = new QFutureWatcher<QVariant>(core.q);
        QObject::connect(watcher, &QFutureWatcherBase::finished, core.q, [write, watcher] {
            watcher->deleteLater();
            QFuture<QVariant> finished = watcher->future();
            try {
                finished.waitForFinished(); // rethrows the request's error
                if (finished.isCanceled() || finished.resultCount() == 0)
                    write->callers.cancel();
                else
                    write->callers.resolve(finished.result());
            } catch (...) {
                write->callers.fail(std::current_exception());
            }
        });
        watcher->setFuture(sent);
    }
}

void PlaceholderManager::failed(InFlightRequest &request, const NetworkError &error,
                                Failure *failure)
{
    if (!request.newRowKey.isEmpty())
        failure->rollback.unite(refuse(request, error));
}

ChangeSet PlaceholderManager::refuse(const InFlightRequest &request, const NetworkError &error)
{
    ChangeSet changes;
    const QList<std::shared_ptr<HeldWrite>> dropped = held.refuse(request.newRowKey);
    for (const std::shared_ptr<HeldWrite> &write : dropped) {
        changes.unite(core.guesses.remove(write->layer, 0, {}));
        const NetworkError unsent(
            error.kind(), error.status(),
            QStringLiteral("%1 was not sent: the create of its row failed: %2")
                .arg(write->endpoint->name(), error.message()));
        if (write->callers.size() == 0) // held again after a restart: nobody waits for it
            qCWarning(lcController).noquote() << u"outbox: dropped "_s + unsent.message();
        write->callers.fail(std::make_exception_ptr(unsent));
    }
    if (std::any_of(dropped.cbegin(), dropped.cend(), [](const auto &w) { return w->durable; }))
        writeOutbox();
    return changes;
}

void PlaceholderManager::reset()
{
    drop();
}

void PlaceholderManager::shutdown()
{
    drop();
}

void PlaceholderManager::drop()
{
    const QList<std::shared_ptr<HeldWrite>> dropped = held.clear();
    for (const std::shared_ptr<HeldWrite> &write : dropped)
        write->callers.cancel(); // like the answers a reset drops
    pending.clear();
    renamed.clear();
    writeOutbox(); // a reset: gone from the file too (at shutdown the file keeps them)
}

void PlaceholderManager::writeOutbox()
{
    core.managers->outbox->write();
}

QList<OutboxItem> PlaceholderManager::outboxItems() const
{
    QList<OutboxItem> items;
    for (const std::shared_ptr<HeldWrite> &write : held.all()) {
        if (!write->durable)
            continue;
        detail::OutboxItem item;
        item.endpoint = Outbox::endpointIdentity(*write->endpoint);
        item.method = write->endpoint->method();
        item.url = write->endpoint->url(write->params);
        item.params = write->params;
        item.body = write->body;
        item.since = write->since;
        item.idempotencyKey = write->idempotencyKey;
        item.waitingFor = QStringList(write->waitingFor.cbegin(), write->waitingFor.cend());
        item.waitingFor.sort();
        items.append(std::move(item));
    }
    for (const PendingHeld &waiting : pending)
        items.append(waiting.item);
    return items;
}

void PlaceholderManager::restore(ChangeSet *changes)
{
    const OutboxPrivate *box = OutboxPrivate::get(core.managers->outbox->outbox);
    // The file's keys of the creates not yet requests again (their endpoint unknown so far).
    QSet<QString> unresolved;
    for (qsizetype row = 0; row < box->queue.size(); ++row) {
        if (!core.inFlight.find(box->queue.idAt(row)))
            unresolved.insert(box->queue.at(row).placeholder);
    }
    QList<PendingHeld> stillPending;
    for (PendingHeld &waiting : pending) {
        OutboxItem &item = waiting.item;
        if (!waiting.renamed) {
            const auto isRenamed = [this](const QString &key) { return renamed.contains(key); };
            const auto waits
                = [&](const QString &key) { return isRenamed(key) || unresolved.contains(key); };
            if (std::all_of(item.waitingFor.cbegin(), item.waitingFor.cend(), isRenamed)) {
                HeldWrites::rename(&item.params, &item.body, &item.waitingFor, renamed);
                waiting.renamed = true;
            } else if (std::all_of(item.waitingFor.cbegin(), item.waitingFor.cend(), waits)) {
                stillPending.append(std::move(waiting));
                continue;
            } else {
                qCWarning(lcController).noquote()
                    << u"outbox: dropped %1: the create of its row is no longer in the outbox"_s
                           .arg(item.describe());
                continue;
            }
        }
        const EndpointPtr endpoint = box->endpoint(item.endpoint);
        if (!endpoint) {
            stillPending.append(std::move(waiting)); // until it is registered
            continue;
        }
        QString unknown;
        const QSet<QString> rows = held.substitute(&item.params, &item.body, &unknown);
        if (!unknown.isEmpty()) {
            qCWarning(lcController).noquote()
                << u"outbox: dropped %1: the create of its row failed"_s.arg(item.describe());
            continue;
        }
        if (rows.isEmpty()) { // its rows were created meanwhile: it queues now
            QFuture<QVariant> queued = core.fetch(endpoint, item.params, item.body, changes);
            Q_UNUSED(queued);
            continue;
        }
        held.hold(makeHeldWrite(endpoint, item.params, item.body, rows, true, item.since,
                                item.idempotencyKey, changes));
    }
    pending = std::move(stillPending);
}

} // namespace DataClient::detail

namespace DataClient {

QString Controller::confirmedKey(const QString &placeholderKey) const
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->managers->placeholders->held.confirmedKey(placeholderKey);
}

} // namespace DataClient
