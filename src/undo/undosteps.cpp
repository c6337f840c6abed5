// The requests of a command: its original, its undo and its redo. Each is checked against what
// the store shows now (conflicts), sent through the Controller with a fresh Idempotency-Key and
// sequenced per record; a refusal puts the stack back.
#include "logging_p.h"
#include "undorecorder_p.h"

#include <DataClient/entityschema.h>
#include <DataClient/placeholderkey.h>
#include <DataClient/private/futurewatch_p.h>
#include <DataClient/record.h>
#include <DataClient/restendpoint.h>
#include <DataClient/store.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QUuid>

using namespace Qt::StringLiterals;

namespace DataClient {

namespace {

//! A fresh Idempotency-Key for this one request (every attempt of it sends the same). An
//! endpoint that queues offline gets one from the outbox instead.
EndpointPtr withFreshKey(const EndpointPtr &endpoint)
{
    if (endpoint->queueWhenOffline())
        return endpoint;
    EndpointOverrides overrides;
    overrides.headers = endpoint->options().headers;
    overrides.headers->append({QByteArrayLiteral("Idempotency-Key"),
                               QUuid::createUuid().toByteArray(QUuid::WithoutBraces)});
    return endpoint->extend(overrides);
}

QString jsonText(const QJsonValue &value)
{
    if (value.isString())
        return u"'%1'"_s.arg(value.toString());
    if (value.isUndefined())
        return u"nothing"_s;
    return QString::fromUtf8(QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

//! The pk of a create's answer: a Record, or a map with the pk field.
QString answeredPk(const QVariant &value, const QString &pkField)
{
    if (value.metaType() == QMetaType::fromType<Record>())
        return value.value<Record>().pk();
    return value.toMap().value(pkField).toString();
}

//! \a params with \a pk as \a endpoint's last path parameter, of the type the caller gave
//! (a number stays a number: the optimistic guess copies it into the record).
Params withPk(const EndpointPtr &endpoint, Params params, const QString &pk)
{
    const QStringList names = endpoint->pathTemplate().parameterNames();
    if (names.isEmpty())
        return params;
    const QVariant given = params.value(names.last());
    if (given.isValid() && given.toString() == pk)
        return params;
    bool number = false;
    const qlonglong asNumber = pk.toLongLong(&number);
    const int type = given.typeId();
    const bool wasNumber = type == QMetaType::Int || type == QMetaType::LongLong
        || type == QMetaType::Double || type == QMetaType::UInt || type == QMetaType::ULongLong;
    params.insert(names.last(), number && wasNumber ? QVariant(asNumber) : QVariant(pk));
    return params;
}

} // namespace

void UndoRecorderPrivate::step(const std::shared_ptr<MutationState> &state, Direction direction)
{
    if (silent)
        return;
    if (!controller) {
        Q_EMIT q->refused(state->text,
                          u"the Controller was destroyed: nothing can be sent (the stack moved, "
                          "the server did not change)"_s);
        return;
    }
    const bool forward = direction == Direction::Redo;
    if (state->busyThisTurn) {
        // Presses faster than the event loop (key repeat, a script): only where they end up is
        // sent, at the end of the turn; back where the last request goes, nothing is.
        state->pendingForward
            = forward == state->issuedForward ? std::nullopt : std::optional<bool>(forward);
        return;
    }
    if (state->sent && policy == UndoRecorder::ConflictPolicy::Refuse) {
        const QString why = conflict(*state, direction);
        if (!why.isEmpty()) {
            refuse(state, direction, why);
            return;
        }
    }
    issue(state, direction);
}

void UndoRecorderPrivate::issue(const std::shared_ptr<MutationState> &state, Direction direction)
{
    const bool original = !state->sent;
    const bool forward = direction == Direction::Redo;
    state->sent = true;
    state->issuedForward = forward;
    state->busyThisTurn = true;
    const std::weak_ptr<MutationState> weak = state;
    QMetaObject::invokeMethod(
        q, [this, weak] { flush(weak); }, Qt::QueuedConnection);
    // Created without a guess (no placeholder row) and not answered yet: the delete needs the
    // server's key, so it goes when the create answers (sendCreate()).
    const bool deletes
        = state->kind != MutationKind::Edit && (state->kind == MutationKind::Create) != forward;
    if (deletes && currentPk(state->target).isEmpty()) {
        state->deleteWhenCreated = forward;
        return;
    }
    std::shared_ptr<bool> superseded = std::make_shared<bool>(false);
    QFuture<QVariant> future;
    switch (state->kind) {
    case MutationKind::Edit:
        future = sendEdit(state, forward ? state->after : state->before, &superseded);
        break;
    case MutationKind::Create:
        future = forward ? sendCreate(state, state->write, state->after)
                         : sendDelete(state, state->inverse);
        break;
    case MutationKind::Delete:
        future = forward ? sendDelete(state, state->write)
                         : sendCreate(state, state->inverse, state->before);
        break;
    }
    if (original) {
        state->original = future; // the caller's: it handles a refusal of the original
        return;
    }
    Models::watchFuture(
        q, future, [](const QVariant &) {},
        [this, weak, direction, superseded](const NetworkError &error) {
            const std::shared_ptr<MutationState> alive = weak.lock();
            if (!alive || *superseded || !controller)
                return; // forgotten by the stack, replaced by a later press, or shut down
            const QString verb = direction == Direction::Undo ? u"undo"_s : u"redo"_s;
            QString why;
            if (error.kind() == NetworkError::Kind::Canceled)
                why = u"it was canceled before the server answered (the store was reset, or "
                      "the user logged out): the server may have applied it or not; refetch "
                      "to see its data"_s;
            else if (error.status() == 404)
                why = u"the server no longer has %1 %2 (404): it was deleted there. The %3 was "
                      "rolled back; refetch to see the server's data"_s.arg(
                          alive->target->entityKey, alive->target->pk, verb);
            else
                why = u"the server refused the %1 (%2). It was rolled back"_s.arg(verb,
                                                                                  error.message());
            refuse(alive, direction, why);
        });
}

void UndoRecorderPrivate::flush(const std::weak_ptr<MutationState> &weak)
{
    const std::shared_ptr<MutationState> state = weak.lock();
    if (!state) // the stack deleted the command: what it had not sent is not sent
        return;
    state->busyThisTurn = false;
    const std::optional<bool> pending = std::exchange(state->pendingForward, std::nullopt);
    if (pending && controller)
        issue(state, *pending ? Direction::Redo : Direction::Undo);
}

QString UndoRecorderPrivate::conflict(const MutationState &state, Direction direction)
{
    const auto target = state.target;
    const std::optional<QJsonObject> now = shown(target);
    const QString record = u"%1 %2"_s.arg(target->entityKey, target->pk);
    const bool forward = direction == Direction::Redo;
    switch (state.kind) {
    case MutationKind::Edit: {
        if (!now)
            return u"%1 is no longer in the store (deleted since)"_s.arg(record);
        // The record must show what the command left (or, for a redo, what it found).
        const QJsonObject &expected = forward ? state.before : state.after;
        for (auto it = expected.constBegin(); it != expected.constEnd(); ++it) {
            if (now->value(it.key()) != it.value())
                return u"%1 changed since: %2 is %3, not %4 as this change left it. Nothing was "
                       "sent (UndoRecorder::conflictPolicy ApplyAnyway would overwrite it)"_s.arg(
                           record, it.key(), jsonText(now->value(it.key())), jsonText(it.value()));
        }
        return {};
    }
    case MutationKind::Create:
    case MutationKind::Delete: {
        // Undo of a create and redo of a delete remove the record: it must still be there
        // (unless its create, without a guess, is not answered yet: nothing to compare then).
        const bool removes = (state.kind == MutationKind::Create) != forward;
        if (target->pk.isEmpty())
            return {};
        if (removes && !now)
            return u"%1 is no longer in the store (deleted since): nothing to delete"_s.arg(record);
        if (!removes && now && !target->pk.isEmpty())
            return u"%1 exists again: it is not created twice"_s.arg(record);
        return {};
    }
    }
    return {};
}

void UndoRecorderPrivate::refuse(const std::shared_ptr<MutationState> &state, Direction direction,
                                 const QString &reason)
{
    const QString verb = direction == Direction::Undo ? u"Undo"_s : u"Redo"_s;
    qCInfo(lcUndo).noquote() << verb << "of" << state->text << "refused:" << reason;
    Q_EMIT q->refused(state->text, u"%1 of \"%2\" refused: %3."_s.arg(verb, state->text, reason));
    // After QUndoStack has finished moving its index (a refusal found in undo() is told before).
    const std::weak_ptr<MutationState> weak = state;
    QMetaObject::invokeMethod(
        q,
        [this, weak, direction] {
            const std::shared_ptr<MutationState> alive = weak.lock();
            if (!alive || !alive->command || !stack)
                return;
            int at = -1;
            for (int i = 0; i < stack->count(); ++i) {
                if (stack->command(i) == alive->command)
                    at = i;
            }
            // Only if the user has not moved on since: moving further back would leave other
            // commands claiming a state the server does not have.
            const bool undo = direction == Direction::Undo;
            if (at < 0 || stack->index() != (undo ? at : at + 1))
                return;
            silent = true;
            stack->setIndex(undo ? at + 1 : at);
            silent = false;
        },
        Qt::QueuedConnection);
}

QFuture<QVariant> UndoRecorderPrivate::send(const std::shared_ptr<MutationState> &state,
                                            const EndpointPtr &endpoint, const Params &params,
                                            const QJsonValue &body, const QStringList &fields,
                                            std::shared_ptr<bool> *superseded)
{
    UndoStep step {state->target, fields, std::make_shared<bool>(false)};
    if (superseded)
        *superseded = step.superseded;
    // Registered while it has requests to order: the Controller's managers() stay the app's.
    if (sequencer && !sequencer->controller())
        controller->addManager(sequencer);
    if (sequencer)
        sequencer->expect(step);
    QFuture<QVariant> future = controller->fetch(withFreshKey(endpoint), params, body);
    const quint64 id = sequencer ? sequencer->finishExpect() : 0;
    if (id != 0) {
        // However it ends (a reset or a logout cancels it without an answer), the next step for
        // the record may go.
        const QPointer<UndoSequencer> order = sequencer;
        auto finished = [order, id] {
            if (order)
                order->finish(id);
        };
        Models::watchFuture(
            q, future, [finished](const QVariant &) { finished(); },
            [finished](const NetworkError &) { finished(); });
    }
    return future;
}

QFuture<QVariant> UndoRecorderPrivate::sendEdit(const std::shared_ptr<MutationState> &state,
                                                const QJsonObject &body,
                                                std::shared_ptr<bool> *superseded)
{
    const Params params = withPk(state->write, state->params, currentPk(state->target));
    return send(state, state->write, params, body, body.keys(), superseded);
}

QFuture<QVariant> UndoRecorderPrivate::sendCreate(const std::shared_ptr<MutationState> &state,
                                                  const EndpointPtr &endpoint,
                                                  const QJsonObject &body)
{
    const std::shared_ptr<UndoTarget> target = state->target;
    // The optimistic row shows under a placeholder key at once: it is the record's pk until the
    // answer names the server's.
    QString placeholder;
    const QMetaObject::Connection shows
        = QObject::connect(controller, &Controller::changed, q, [&](const ChangeSet &changes) {
              for (const EntityRef &ref : changes.entities) {
                  if (ref.key == target->entityKey && isPlaceholderKey(ref.pk))
                      placeholder = ref.pk;
              }
          });
    // The create's own parameters (its list's, e.g. userId); a delete's without its pk.
    Params params = state->params;
    if (state->kind == MutationKind::Delete) {
        const QStringList names = state->write->pathTemplate().parameterNames();
        if (!names.isEmpty())
            params.remove(names.last());
    }
    QFuture<QVariant> future = send(state, endpoint, params, body, {}, nullptr);
    QObject::disconnect(shows);
    remap(target, placeholder);
    const EntitySchema entity = endpoint->schema().entitySchema();
    const QString pkField = entity.isNull() ? QString() : entity.pkField();
    const std::weak_ptr<UndoTarget> weak = target;
    const std::weak_ptr<MutationState> weakState = state;
    Models::watchFuture(
        q, future,
        [this, weak, weakState, pkField](const QVariant &value) {
            const QString pk = answeredPk(value, pkField);
            if (const std::shared_ptr<UndoTarget> alive = weak.lock(); alive && !pk.isEmpty())
                remap(alive, pk);
            const std::shared_ptr<MutationState> waiting = weakState.lock();
            if (waiting && waiting->deleteWhenCreated && controller && !pk.isEmpty()) {
                const bool forward = *std::exchange(waiting->deleteWhenCreated, std::nullopt);
                issue(waiting, forward ? Direction::Redo : Direction::Undo);
            }
        },
        [](const NetworkError &) {});
    return future;
}

QFuture<QVariant> UndoRecorderPrivate::sendDelete(const std::shared_ptr<MutationState> &state,
                                                  const EndpointPtr &endpoint)
{
    // A placeholder key (a create not answered yet) is fine: the Controller holds the delete
    // until the create is confirmed and sends it with the server's key.
    const Params params
        = withPk(endpoint, pathParams(endpoint, state->params), currentPk(state->target));
    return send(state, endpoint, params, QJsonValue(), {}, nullptr);
}

} // namespace DataClient
