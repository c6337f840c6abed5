// One recorded mutation as a QUndoCommand: what it changed (MutationState) and the command the
// stack holds. The state is shared with the requests in flight (weakly), so that a command the
// stack deletes (clear(), a merge, the stack's end) is simply forgotten by their answers.
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/params.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QFuture>
#include <QtCore/QJsonObject>
#include <QtCore/QPointer>
#include <QtGui/QUndoCommand>

#include <memory>
#include <optional>

namespace DataClient {

class UndoRecorder;

//! The record a command acts on. Shared by every command about the same record, so that a new
//! primary key (the record created again by an undo) replaces the old one in all of them.
struct UndoTarget
{
    QString entityKey;
    QString pk;
};

enum class MutationKind { Edit, Create, Delete };

struct MutationState
{
    MutationKind kind = MutationKind::Edit;
    std::shared_ptr<UndoTarget> target;
    //! Edit: the PATCH or PUT; Create: the create; Delete: the delete.
    EndpointPtr write;
    //! Create: the delete that undoes it; Delete: the create that undoes it.
    EndpointPtr inverse;
    //! The original's parameters (the pk is taken from the target when sending).
    Params params;
    //! Edit: the fields before and after. Create: after = the body sent. Delete: before = the
    //! record the store showed, without its pk.
    QJsonObject before;
    QJsonObject after;
    QString text;
    //! When it was made (merge window).
    QElapsedTimer made;
    //! The command holding this state (null once the stack deleted it).
    QUndoCommand *command = nullptr;
    //! The first redo (QUndoStack::push()) sent the original.
    bool sent = false;
    QFuture<QVariant> original;
    //! The direction of the last request made (true: redo, the original included).
    bool issuedForward = true;
    //! A request was made in this event-loop turn: later presses wait for the turn's end.
    bool busyThisTurn = false;
    //! What the presses after that one add up to: the request to make at the turn's end.
    std::optional<bool> pendingForward;
    //! A delete of a record whose create has no guess and no answer yet: sent (with the server's
    //! key) when the create answers; the value is the step's direction (true: redo).
    std::optional<bool> deleteWhenCreated;
};

class MutationCommand : public QUndoCommand
{
public:
    MutationCommand(UndoRecorder *recorder, std::shared_ptr<MutationState> state);
    ~MutationCommand() override;

    void undo() override;
    void redo() override;
    //! Edits only: one id for all, mergeWith() decides.
    int id() const override;
    /*!
        Merges \a other (the next command) into this one when both edit the same fields of the
        same record through the same endpoint and \a other was made within the recorder's merge
        window: this command's "after" becomes \a other's. An edit back to the values before
        makes the command obsolete (the stack drops it).
    */
    bool mergeWith(const QUndoCommand *other) override;

    const std::shared_ptr<MutationState> &state() const { return m_state; }

private:
    QPointer<UndoRecorder> m_recorder;
    std::shared_ptr<MutationState> m_state;
};

} // namespace DataClient
