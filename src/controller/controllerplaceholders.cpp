// Placeholder rows and held writes (docs/optimistic-updates.md): a request never carries a
// placeholder key. Writes naming one wait for its create and are sent with the server's key;
// reads of one are answered from the store.
#include "controller_p.h"
#include "logging_p.h"
#include "outbox_p.h"

#include <DataClient/placeholderkey.h>
#include <DataClient/record.h>
#include <DataClient/rowlist.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QUuid>

using namespace Qt::StringLiterals;

namespace DataClient {

using detail::HeldWrite;
using detail::InFlightRequest;

namespace {

bool pendingIn(const QVariant &value, int depth)
{
    if (value.metaType() == QMetaType::fromType<Record>())
        return static_cast<const Record *>(value.constData())->isPending();
    if (depth > 1)
        return false;
    bool isList = false;
    if (const RowList list = rowsOf(value, &isList); isList) {
        return std::any_of(list.cbegin(), list.cend(),
                           [depth](const QVariant &item) { return pendingIn(item, depth + 1); });
    }
    if (value.metaType().id() == QMetaType::QVariantMap) { // {results: [...], total: n}
        const auto &map = *static_cast<const QVariantMap *>(value.constData());
        return std::any_of(map.cbegin(), map.cend(),
                           [depth](const QVariant &field) { return pendingIn(field, depth + 1); });
    }
    return false;
}

} // namespace

QString Controller::confirmedKey(const QString &placeholderKey) const
{
    DATACLIENT_ASSERT_THREAD(this);
    return d->held.confirmedKey(placeholderKey);
}

std::optional<QFuture<QVariant>> ControllerPrivate::holdForPlaceholders(const EndpointPtr &endpoint,
                                                                        Params *params,
                                                                        QJsonValue *body)
{
    const Params named = *params;
    QString unknown;
    const QSet<QString> waiting = held.substitute(params, body, &unknown);
    const bool read = !endpoint->sideEffect();
    if (read && (!waiting.isEmpty() || !unknown.isEmpty())) {
        // A row that exists only on this side: what the store shows of it is all there is.
        const ResponseState state = q->getResponse(endpoint, named);
        if (state.found)
            return readyFuture(state.data);
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
    std::shared_ptr<HeldWrite> write
        = makeHeldWrite(endpoint, *params, *body, waiting, queues(*endpoint), now(),
                        QUuid::createUuid().toByteArray(QUuid::WithoutBraces), &changes);
    QFuture<QVariant> future = write->callers.add();
    qCDebug(lcController).noquote()
        << endpoint->name() << "held until" << waiting.size() << "placeholder row(s) are created";
    const bool durable = write->durable;
    held.hold(std::move(write));
    if (durable)
        writeOutbox(); // before fetch() returns, as for any change that queues
    emitOptimistic(changes);
    return future;
}

std::shared_ptr<HeldWrite>
ControllerPrivate::makeHeldWrite(const EndpointPtr &endpoint, const Params &params,
                                 const QJsonValue &body, const QSet<QString> &waiting, bool durable,
                                 qint64 since, const QByteArray &idempotencyKey, ChangeSet *changes)
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
        write->layer = applyOptimistic(*endpoint, params, body, detail::OptimisticLayers::unsent,
                                       &shown, nullptr);
        changes->unite(shown);
    }
    return write;
}

void ControllerPrivate::confirmPlaceholder(const InFlightRequest &request, const QVariant &answer,
                                           ChangeSet *changes)
{
    QString serverPk;
    if (answer.metaType() == QMetaType::fromType<Record>())
        serverPk = static_cast<const Record *>(answer.constData())->pk();
    if (serverPk.isEmpty()) {
        changes->unite(refusePlaceholder(
            request,
            NetworkError(NetworkError::Kind::InvalidResponse, 0,
                         QStringLiteral("%1: the answer to the create names no entity with a "
                                        "primary key; the writes held for its row were not sent")
                             .arg(request.requestKey))));
        return;
    }
    const QList<std::shared_ptr<HeldWrite>> ready = held.confirm(request.placeholder, serverPk);
    for (const std::shared_ptr<HeldWrite> &write : ready) {
        if (write->layer && layers.contains(write->layer)) {
            changes->unite(store->removeOptimistic(write->layer));
            layers.forget(write->layer);
        }
        // Sent now, once, with the server's key; its guess joins the create's change set.
        const QFuture<QVariant> sent = fetch(write->endpoint, write->params, write->body, changes);
        auto *watcher = new QFutureWatcher<QVariant>(q);
        QObject::connect(watcher, &QFutureWatcherBase::finished, q, [write, watcher] {
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

ChangeSet ControllerPrivate::refusePlaceholder(const InFlightRequest &request,
                                               const NetworkError &error)
{
    ChangeSet changes;
    const QList<std::shared_ptr<HeldWrite>> dropped = held.refuse(request.placeholder);
    for (const std::shared_ptr<HeldWrite> &write : dropped) {
        if (write->layer && layers.contains(write->layer)) {
            changes.unite(store->removeOptimistic(write->layer));
            layers.forget(write->layer);
        }
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

void ControllerPrivate::dropPlaceholders()
{
    const QList<std::shared_ptr<HeldWrite>> dropped = held.clear();
    for (const std::shared_ptr<HeldWrite> &write : dropped)
        write->callers.cancel(); // like the answers a reset drops
    pendingHeld.clear();
    renamedPlaceholders.clear();
    writeOutbox(); // a reset: gone from the file too (at shutdown the file keeps them)
}

QList<detail::OutboxItem> ControllerPrivate::heldOutboxItems() const
{
    QList<detail::OutboxItem> items;
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
    return items;
}

void ControllerPrivate::restoreHeldWrites(ChangeSet *changes)
{
    const OutboxPrivate *box = OutboxPrivate::get(outbox);
    // The file's keys of the creates not yet requests again (their endpoint unknown so far).
    QSet<QString> unresolved;
    for (qsizetype row = 0; row < box->queue.size(); ++row) {
        if (!inFlight.find(box->queue.idAt(row)))
            unresolved.insert(box->queue.at(row).placeholder);
    }
    QList<PendingHeld> stillPending;
    for (PendingHeld &pending : pendingHeld) {
        detail::OutboxItem &item = pending.item;
        if (!pending.renamed) {
            const auto renamed
                = [this](const QString &key) { return renamedPlaceholders.contains(key); };
            const auto waits
                = [&](const QString &key) { return renamed(key) || unresolved.contains(key); };
            if (std::all_of(item.waitingFor.cbegin(), item.waitingFor.cend(), renamed)) {
                detail::HeldWrites::rename(&item.params, &item.body, &item.waitingFor,
                                           renamedPlaceholders);
                pending.renamed = true;
            } else if (std::all_of(item.waitingFor.cbegin(), item.waitingFor.cend(), waits)) {
                stillPending.append(std::move(pending));
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
            stillPending.append(std::move(pending)); // until it is registered
            continue;
        }
        QString unknown;
        const QSet<QString> waiting = held.substitute(&item.params, &item.body, &unknown);
        if (!unknown.isEmpty()) {
            qCWarning(lcController).noquote()
                << u"outbox: dropped %1: the create of its row failed"_s.arg(item.describe());
            continue;
        }
        if (waiting.isEmpty()) { // its rows were created meanwhile: it queues now
            fetch(endpoint, item.params, item.body, changes);
            continue;
        }
        held.hold(makeHeldWrite(endpoint, item.params, item.body, waiting, true, item.since,
                                item.idempotencyKey, changes));
    }
    pendingHeld = std::move(stillPending);
}

bool ControllerPrivate::showsPending(const ResponseState &state, const RestEndpoint &endpoint,
                                     const Params &params) const
{
    if (layers.size() == 0) // nothing unconfirmed: no need to look at 10k rows
        return false;
    if (!state.found) // an entity an optimistic delete hides, until the server answers
        return hiddenByPendingMutation(endpoint, params);
    return pendingIn(state.data, 0);
}

} // namespace DataClient
