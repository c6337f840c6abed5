#include "mutationcommand_p.h"

#include "logging_p.h"
#include "undorecorder_p.h"

#include <DataClient/restendpoint.h>

namespace DataClient {

namespace {
// QUndoStack merges commands of equal id(); every edit has this one and mergeWith() decides.
constexpr int EditCommandId = 0x44436544; // "DCeD"
} // namespace

MutationCommand::MutationCommand(UndoRecorder *recorder, std::shared_ptr<MutationState> state)
    : QUndoCommand(state->text), m_recorder(recorder), m_state(std::move(state))
{
    m_state->command = this;
}

MutationCommand::~MutationCommand()
{
    m_state->command = nullptr;
}

void MutationCommand::undo()
{
    if (m_recorder)
        UndoRecorderPrivate::get(m_recorder)->step(m_state, UndoRecorderPrivate::Direction::Undo);
    else
        qCWarning(lcUndo).noquote() << "undo of" << text() << "not sent: its UndoRecorder is gone";
}

void MutationCommand::redo()
{
    if (m_recorder)
        UndoRecorderPrivate::get(m_recorder)->step(m_state, UndoRecorderPrivate::Direction::Redo);
    else
        qCWarning(lcUndo).noquote() << "redo of" << text() << "not sent: its UndoRecorder is gone";
}

int MutationCommand::id() const
{
    return m_state->kind == MutationKind::Edit ? EditCommandId : -1;
}

bool MutationCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = dynamic_cast<const MutationCommand *>(other);
    if (!next || !m_recorder)
        return false;
    const MutationState &mine = *m_state;
    const MutationState &theirs = *next->m_state;
    const int window = UndoRecorderPrivate::get(m_recorder)->mergeWindowMs;
    if (window <= 0 || theirs.kind != MutationKind::Edit || mine.target != theirs.target
        || mine.write->method() != theirs.write->method()
        || mine.write->path() != theirs.write->path() || mine.before.keys() != theirs.before.keys()
        || mine.made.elapsed() - theirs.made.elapsed() > window)
        return false;
    m_state->after = theirs.after;
    m_state->made = theirs.made;
    // An edit back to where it started (a box ticked twice): nothing left to undo.
    setObsolete(m_state->after == m_state->before);
    return true;
}

} // namespace DataClient
