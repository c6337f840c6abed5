#include "undosequencer_p.h"

#include "logging_p.h"

#include <DataClient/controller.h>

#include <QtCore/QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace DataClient {

void UndoSequencer::expect(const UndoStep &step)
{
    m_expected = step;
    m_started = 0;
}

quint64 UndoSequencer::finishExpect()
{
    m_expected.reset();
    const quint64 started = std::exchange(m_started, 0);
    if (started != 0)
        supersedeBefore(started);
    return started;
}

void UndoSequencer::requestStarted(const ManagedRequest &request)
{
    // fetch() makes its request before it returns: the one made between expect() and
    // finishExpect() is the step's. A write that waits for a placeholder's create starts later
    // and is not sequenced (the Controller orders it after the create).
    if (!m_expected)
        return;
    m_steps.insert(request.id(), *m_expected);
    m_started = request.id();
    m_expected.reset();
}

Manager::Decision UndoSequencer::beforeSend(const ManagedRequest &request)
{
    const auto step = m_steps.constFind(request.id());
    if (step == m_steps.cend())
        return Decision::Send;
    const UndoTarget *target = step->target.get();
    const quint64 onWire = m_onWire.value(target);
    if (onWire == 0 || onWire == request.id()) { // a retry of the one on the wire goes too
        m_onWire.insert(target, request.id());
        return Decision::Send;
    }
    m_waiting[target].append(request.id());
    qCDebug(lcUndo) << "request" << request.id() << "waits for" << onWire;
    return Decision::Hold;
}

void UndoSequencer::committed(const ManagedRequest &request, const ChangeSet &)
{
    finish(request.id());
}

void UndoSequencer::failed(const ManagedRequest &request, const NetworkError &)
{
    finish(request.id());
}

void UndoSequencer::finish(quint64 id)
{
    const auto step = m_steps.constFind(id);
    if (step == m_steps.cend())
        return;
    const std::shared_ptr<UndoTarget> target = step->target;
    m_steps.erase(step);
    if (m_steps.isEmpty()) {
        // Nothing left to order: unregistered (after the step telling of this answer returns).
        QTimer::singleShot(0, this, [this] {
            if (m_steps.isEmpty() && controller())
                controller()->removeManager(this);
        });
    }
    QList<quint64> &waiting = m_waiting[target.get()];
    waiting.removeAll(id);
    if (m_onWire.value(target.get()) != id) {
        if (waiting.isEmpty())
            m_waiting.remove(target.get());
        return;
    }
    m_onWire.remove(target.get());
    if (waiting.isEmpty()) {
        m_waiting.remove(target.get());
        return;
    }
    const quint64 next = waiting.takeFirst();
    m_onWire.insert(target.get(), next);
    // After the step that told of this answer has returned: the Controller is still handling it.
    QTimer::singleShot(0, this, [this, next] {
        if (heldRequests().contains(next))
            release(next);
    });
}

void UndoSequencer::supersedeBefore(quint64 newest)
{
    const auto step = m_steps.constFind(newest);
    if (step == m_steps.cend() || step->fields.isEmpty())
        return;
    const UndoStep latest = *step;
    const QList<quint64> waiting = m_waiting.value(latest.target.get());
    for (const quint64 id : waiting) {
        if (id == newest)
            continue;
        const UndoStep older = m_steps.value(id);
        const bool covered = !older.fields.isEmpty()
            && std::all_of(older.fields.cbegin(), older.fields.cend(),
                           [&](const QString &field) { return latest.fields.contains(field); });
        if (!covered)
            continue;
        // Never sent, and a later request sets the same fields: the server only needs the last.
        *older.superseded = true;
        m_waiting[latest.target.get()].removeAll(id); // never released, even before it fails
        fail(
            id,
            NetworkError(NetworkError::Kind::Canceled, 0,
                         u"dropped unsent: a later undo or redo of the same fields replaced it"_s));
    }
}

} // namespace DataClient
