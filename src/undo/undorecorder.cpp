// UndoRecorder: what an application calls — the mutations it records, and its options. The steps
// the commands send are in undosteps.cpp.
#include "logging_p.h"
#include "undorecorder_p.h"

#include <DataClient/entityschema.h>
#include <DataClient/placeholderkey.h>
#include <DataClient/restendpoint.h>
#include <DataClient/store.h>

#include <QtCore/QJsonArray>

#include <algorithm>
#include <initializer_list>

using namespace Qt::StringLiterals;

namespace DataClient {

namespace {

//! The entity an endpoint writes (its own, or its list's rows), or null.
EntitySchema entityOf(const EndpointPtr &endpoint)
{
    if (!endpoint)
        return {};
    const Schema schema = endpoint->schema();
    switch (schema.kind()) {
    case Schema::Kind::Entity:
    case Schema::Kind::Invalidate:
    case Schema::Kind::Collection:
    case Schema::Kind::Array:
        return schema.entitySchema();
    default:
        return schema.rowEntity();
    }
}

//! The record's pk in \a params: the value of the endpoint's last path parameter.
QString pkIn(const EndpointPtr &endpoint, const Params &params)
{
    const QStringList names = endpoint->pathTemplate().parameterNames();
    return names.isEmpty() ? QString() : params.value(names.last()).toString();
}

//! Whether a call cannot be recorded: then it warns why (nothing is sent).
bool refuseCall(const char *function, const Controller *controller, const QUndoStack *stack,
                std::initializer_list<const EndpointPtr *> endpoints)
{
    QString missing;
    if (!controller)
        missing = u"its Controller is gone (or was never given)"_s;
    else if (!stack)
        missing = u"its QUndoStack is gone (or was never given)"_s;
    else if (std::any_of(endpoints.begin(), endpoints.end(), [](auto *e) { return !*e; }))
        missing = u"an endpoint is null (a member the resource lacks?)"_s;
    if (missing.isEmpty())
        return false;
    qCWarning(lcUndo).noquote() << u"UndoRecorder::%1(): %2; nothing was sent (the returned "
                                   "future is canceled)"_s.arg(QLatin1StringView(function),
                                                               missing);
    return true;
}

} // namespace

Params pathParams(const EndpointPtr &endpoint, const Params &params)
{
    Params out;
    const QStringList names = endpoint->pathTemplate().parameterNames();
    for (const QString &name : names) {
        if (params.contains(name))
            out.insert(name, params.value(name));
    }
    return out;
}

UndoRecorder::UndoRecorder(Controller *controller, QUndoStack *stack, QObject *parent)
    : QObject(parent), d(std::make_unique<UndoRecorderPrivate>(this))
{
    d->controller = controller;
    d->stack = stack;
    if (!controller || !stack) {
        qCWarning(lcUndo) << "UndoRecorder needs a Controller and a QUndoStack; got" << controller
                          << stack << ": nothing will be recorded";
        return;
    }
    // Registered with the Controller only while it orders requests (UndoRecorderPrivate::send()).
    d->sequencer = new UndoSequencer(this);
}

UndoRecorder::~UndoRecorder()
{
    // The requests the sequencer holds are sent, in order, when it is removed.
    if (d->controller && d->sequencer && d->sequencer->controller())
        d->controller->removeManager(d->sequencer);
}

Controller *UndoRecorder::controller() const
{
    return d->controller;
}

QUndoStack *UndoRecorder::undoStack() const
{
    return d->stack;
}

UndoRecorder::ConflictPolicy UndoRecorder::conflictPolicy() const
{
    return d->policy;
}

void UndoRecorder::setConflictPolicy(ConflictPolicy policy)
{
    if (d->policy == policy)
        return;
    d->policy = policy;
    Q_EMIT conflictPolicyChanged();
}

int UndoRecorder::mergeWindowMs() const
{
    return d->mergeWindowMs;
}

void UndoRecorder::setMergeWindowMs(int ms)
{
    if (ms < 0) {
        qCWarning(lcUndo) << "mergeWindowMs must be 0 (never merge) or more; got" << ms;
        return;
    }
    if (d->mergeWindowMs == ms)
        return;
    d->mergeWindowMs = ms;
    Q_EMIT mergeWindowMsChanged();
}

QFuture<QVariant> UndoRecorder::update(const EndpointPtr &endpoint, const Params &params,
                                       const QJsonObject &body, const QString &text)
{
    if (refuseCall("update", d->controller, d->stack, {&endpoint}))
        return {};
    const EntitySchema entity = entityOf(endpoint);
    const QString pk = pkIn(endpoint, params);
    auto state = std::make_shared<MutationState>();
    state->kind = MutationKind::Edit;
    state->target = d->target(entity.isNull() ? QString() : entity.key(), pk);
    const std::optional<QJsonObject> shown = d->shown(state->target);
    if (entity.isNull() || pk.isEmpty() || !shown) {
        qCWarning(lcUndo).noquote()
            << "UndoRecorder::update: the store holds no record" << pk << "of" << endpoint->name()
            << "to read its values before the change from; the change is"
            << "sent but cannot be undone (load the record first)";
        return d->controller->fetch(endpoint, params, body);
    }
    // The values the store shows now, before the optimistic change: what undo sends back.
    for (auto it = body.constBegin(); it != body.constEnd(); ++it) {
        if (it.key() == entity.pkField())
            continue;
        state->before.insert(it.key(), shown->value(it.key()));
        state->after.insert(it.key(), it.value());
    }
    state->write = endpoint;
    state->params = params;
    state->text = text.isEmpty() ? u"edit %1"_s.arg(state->after.keys().join(u", "_s)) : text;
    return d->record(std::move(state));
}

QFuture<QVariant> UndoRecorder::create(const EndpointPtr &create, const EndpointPtr &remove,
                                       const Params &params, const QJsonObject &body,
                                       const QString &text)
{
    if (refuseCall("create", d->controller, d->stack, {&create, &remove}))
        return {};
    auto state = std::make_shared<MutationState>();
    state->kind = MutationKind::Create;
    const EntitySchema entity = entityOf(create);
    // Its own target: the pk is known once the create shows (a placeholder) or is answered.
    state->target = std::make_shared<UndoTarget>(
        UndoTarget {entity.isNull() ? QString() : entity.key(), QString()});
    state->write = create;
    state->inverse = remove;
    state->params = params;
    state->after = body;
    state->text = text.isEmpty() ? u"create"_s : text;
    return d->record(std::move(state));
}

QFuture<QVariant> UndoRecorder::remove(const EndpointPtr &remove, const EndpointPtr &create,
                                       const Params &params, const QString &text)
{
    if (refuseCall("remove", d->controller, d->stack, {&remove, &create}))
        return {};
    const EntitySchema entity = entityOf(remove);
    const QString pk = pkIn(remove, params);
    auto state = std::make_shared<MutationState>();
    state->kind = MutationKind::Delete;
    state->target = d->target(entity.isNull() ? QString() : entity.key(), pk);
    std::optional<QJsonObject> shown = d->shown(state->target);
    if (entity.isNull() || pk.isEmpty() || !shown) {
        qCWarning(lcUndo).noquote()
            << "UndoRecorder::remove: the store holds no record" << pk << "of" << remove->name()
            << "to create again on undo; the delete is sent but cannot be undone";
        return d->controller->fetch(remove, params);
    }
    // Created again without its pk: the server assigns a new one (remapped on the answer).
    shown->remove(entity.pkField());
    state->before = d->withNestedRecords(entity, *shown);
    state->write = remove;
    state->inverse = create;
    state->params = params;
    state->text = text.isEmpty() ? u"delete"_s : text;
    return d->record(std::move(state));
}

QFuture<QVariant> UndoRecorder::partialUpdate(const Resource &resource, const Params &params,
                                              const QJsonObject &body, const QString &text)
{
    return update(resource.partialUpdate.endpoint(), params, body, text);
}

QFuture<QVariant> UndoRecorder::create(const Resource &resource, const Params &params,
                                       const QJsonObject &body, const QString &text)
{
    return create(resource.getList.push.endpoint(), resource.remove.endpoint(), params, body, text);
}

QFuture<QVariant> UndoRecorder::remove(const Resource &resource, const Params &params,
                                       const QString &text)
{
    return remove(resource.remove.endpoint(), resource.getList.push.endpoint(), params, text);
}

QFuture<QVariant> UndoRecorder::writeCell(const CellEdit &edit)
{
    const QJsonValue value = edit.body.value(edit.field);
    QString text;
    if (edit.label.isEmpty())
        text = u"edit %1"_s.arg(edit.field);
    else if (edit.field == edit.labelField)
        text = u"rename '%1'"_s.arg(edit.label);
    else if (value.isBool())
        text = (value.toBool() ? u"check '%1'"_s : u"uncheck '%1'"_s).arg(edit.label);
    else
        text = u"edit %1 of '%2'"_s.arg(edit.field, edit.label);
    // A PUT's body is the whole record: its undo sends the whole record as it was.
    return update(edit.endpoint, edit.params, edit.body, text);
}

// The shared parts -------------------------------------------------------------------------------

QFuture<QVariant> UndoRecorderPrivate::record(std::shared_ptr<MutationState> state)
{
    state->made.start();
    auto *command = new MutationCommand(q, state);
    stack->push(command); // runs redo(): the original is sent; a merge deletes the command
    return state->original;
}

std::shared_ptr<UndoTarget> UndoRecorderPrivate::target(const QString &entityKey, const QString &pk)
{
    const EntityRef ref {entityKey, pk};
    if (std::shared_ptr<UndoTarget> known = targets.value(ref).lock())
        return known;
    auto made = std::make_shared<UndoTarget>(UndoTarget {entityKey, pk});
    targets.insert(ref, made);
    return made;
}

void UndoRecorderPrivate::remap(const std::shared_ptr<UndoTarget> &target, const QString &pk)
{
    if (target->pk == pk)
        return;
    qCDebug(lcUndo).noquote() << target->entityKey << target->pk << "is now" << pk;
    targets.remove({target->entityKey, target->pk});
    target->pk = pk;
    if (!pk.isEmpty())
        targets.insert({target->entityKey, pk}, target);
}

QString UndoRecorderPrivate::currentPk(const std::shared_ptr<UndoTarget> &target)
{
    if (controller && isPlaceholderKey(target->pk)) {
        const QString confirmed = controller->confirmedKey(target->pk);
        if (!confirmed.isEmpty())
            remap(target, confirmed);
    }
    return target->pk;
}

QJsonObject UndoRecorderPrivate::withNestedRecords(const EntitySchema &entity,
                                                   QJsonObject record) const
{
    const Store &store = controller->store();
    const QStringList fields = entity.nestedFields();
    for (const QString &field : fields) {
        const Schema nested = entity.nested(field);
        const bool one = nested.kind() == Schema::Kind::Entity;
        const bool many
            = (nested.kind() == Schema::Kind::Array || nested.kind() == Schema::Kind::Collection)
            && nested.itemSchema().kind() == Schema::Kind::Entity;
        if (!one && !many)
            continue;
        const QString key
            = one ? nested.entitySchema().key() : nested.itemSchema().entitySchema().key();
        auto expand = [&](const QJsonValue &pk) -> QJsonValue {
            if (!pk.isString() && !pk.isDouble())
                return pk;
            const std::optional<QJsonObject> found
                = store.shownEntity({key, pk.toVariant().toString()});
            return found ? QJsonValue(*found) : pk;
        };
        const QJsonValue value = record.value(field);
        if (one) {
            record.insert(field, expand(value));
        } else if (value.isArray()) {
            QJsonArray items;
            for (const QJsonValue &item : value.toArray())
                items.append(expand(item));
            record.insert(field, items);
        }
    }
    return record;
}

std::optional<QJsonObject> UndoRecorderPrivate::shown(const std::shared_ptr<UndoTarget> &target)
{
    if (!controller || target->entityKey.isEmpty() || currentPk(target).isEmpty())
        return std::nullopt;
    return controller->store().shownEntity({target->entityKey, target->pk});
}

} // namespace DataClient
