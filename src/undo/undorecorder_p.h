// UndoRecorder's private part: the Controller, the stack, the sequencer, and the steps (the
// original, an undo, a redo) each command sends through them.
#pragma once

#include "mutationcommand_p.h"
#include "undosequencer_p.h"

#include <DataClient/controller.h>
#include <DataClient/entityref.h>
#include <DataClient/entityschema.h>
#include <DataClient/undorecorder.h>

#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtGui/QUndoStack>

#include <memory>
#include <optional>

namespace DataClient {

class UndoRecorderPrivate
{
public:
    enum class Direction { Undo, Redo };

    explicit UndoRecorderPrivate(UndoRecorder *q) : q(q) { }
    static UndoRecorderPrivate *get(UndoRecorder *recorder) { return recorder->d.get(); }

    //! A command's undo() or redo(): the first redo sends the original.
    void step(const std::shared_ptr<MutationState> &state, Direction direction);
    //! Sends \a state's request for \a direction and watches for its refusal.
    void issue(const std::shared_ptr<MutationState> &state, Direction direction);
    //! At the end of the event-loop turn of a request: the presses made since, added up.
    void flush(const std::weak_ptr<MutationState> &state);
    //! Pushes a command for \a state on the stack (which sends the original) and returns the
    //! original's future.
    QFuture<QVariant> record(std::shared_ptr<MutationState> state);

    //! The target shared by every command about (\a entityKey, \a pk).
    std::shared_ptr<UndoTarget> target(const QString &entityKey, const QString &pk);
    //! The record's pk now: a placeholder key its create has confirmed since becomes the
    //! server's key.
    QString currentPk(const std::shared_ptr<UndoTarget> &target);
    void remap(const std::shared_ptr<UndoTarget> &target, const QString &pk);
    //! The record as the store shows it (optimistic layers included).
    std::optional<QJsonObject> shown(const std::shared_ptr<UndoTarget> &target);
    //! \a record (stored form: nested entities as their pks) with its nested entities as the
    //! store shows them: a body a create takes, and its optimistic guess can normalize.
    QJsonObject withNestedRecords(const EntitySchema &entity, QJsonObject record) const;

    //! Why \a state cannot take \a direction now (the record changed since), or empty.
    QString conflict(const MutationState &state, Direction direction);
    //! Tells refused() and puts the stack back where it was before the step, if it is still
    //! where the step left it.
    void refuse(const std::shared_ptr<MutationState> &state, Direction direction,
                const QString &reason);

    //! Sends one request of \a state, sequenced per record; \a fields: what it sets (an edit).
    QFuture<QVariant> send(const std::shared_ptr<MutationState> &state, const EndpointPtr &endpoint,
                           const Params &params, const QJsonValue &body, const QStringList &fields,
                           std::shared_ptr<bool> *superseded);
    QFuture<QVariant> sendEdit(const std::shared_ptr<MutationState> &state, const QJsonObject &body,
                               std::shared_ptr<bool> *superseded);
    QFuture<QVariant> sendCreate(const std::shared_ptr<MutationState> &state,
                                 const EndpointPtr &endpoint, const QJsonObject &body);
    QFuture<QVariant> sendDelete(const std::shared_ptr<MutationState> &state,
                                 const EndpointPtr &endpoint);

    UndoRecorder *q;
    QPointer<Controller> controller;
    QPointer<QUndoStack> stack;
    UndoSequencer *sequencer = nullptr;
    UndoRecorder::ConflictPolicy policy = UndoRecorder::ConflictPolicy::Refuse;
    int mergeWindowMs = 2000;
    //! Set while the stack is moved back after a refusal: the commands send nothing.
    bool silent = false;
    QHash<EntityRef, std::weak_ptr<UndoTarget>> targets;
};

//! \a params with only the path parameters of \a endpoint (the rest would go to the query).
Params pathParams(const EndpointPtr &endpoint, const Params &params);

} // namespace DataClient
