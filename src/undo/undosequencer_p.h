// The undo layer's Manager: requests for one record go out one at a time, in the order they were
// made, and a waiting edit that a later one of the same fields makes pointless is dropped unsent.
#pragma once

#include "mutationcommand_p.h"

#include <DataClient/manager.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QStringList>

#include <memory>
#include <optional>

namespace DataClient {

//! What the sequencer knows of one request of the recorder.
struct UndoStep
{
    std::shared_ptr<UndoTarget> target;
    //! The fields it sets (an edit), or empty (a create or delete: never dropped).
    QStringList fields;
    //! Set when a later step made it pointless and it was dropped unsent.
    std::shared_ptr<bool> superseded = std::make_shared<bool>(false);
};

class UndoSequencer : public Manager
{
    Q_OBJECT

public:
    using Manager::Manager;

    //! The next request fetch() makes is \a step; call finishExpect() after fetch() returns.
    void expect(const UndoStep &step);
    //! Ends expect(): drops the waiting edits the new request makes pointless. Returns the
    //! request's id (0: fetch() made none, e.g. a write waiting for a placeholder's create).
    quint64 finishExpect();
    //! Request \a id ended, however (also canceled: a reset, a logout): the next one for its
    //! record goes. Idempotent.
    void finish(quint64 id);

protected:
    void requestStarted(const ManagedRequest &request) override;
    Decision beforeSend(const ManagedRequest &request) override;
    void committed(const ManagedRequest &request, const DataClient::ChangeSet &changes) override;
    void failed(const ManagedRequest &request, const NetworkError &error) override;

private:
    void supersedeBefore(quint64 newest);

    std::optional<UndoStep> m_expected;
    quint64 m_started = 0;
    QHash<quint64, UndoStep> m_steps;
    //! Per record: the request on the wire, and those waiting behind it, oldest first.
    QHash<const UndoTarget *, quint64> m_onWire;
    QHash<const UndoTarget *, QList<quint64>> m_waiting;
};

} // namespace DataClient
