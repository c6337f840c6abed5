// Placeholder rows and held writes (docs/optimistic-updates.md): a request never carries a
// placeholder key. A guess of a new row whose key the server assigns shows under a placeholder
// key; writes naming one wait for its create and are sent with the server's key; reads of one are
// answered from the store.
#pragma once

#include "heldwrites_p.h"
#include "lifecycle_p.h"
#include "outboxqueue_p.h"

#include <QtCore/QHash>

namespace DataClient::detail {

class PlaceholderManager final : public Lifecycle
{
public:
    explicit PlaceholderManager(ControllerPrivate &core);

    /*!
        A call naming placeholder keys is never sent with them: confirmed ones are replaced in
        its params and body; a read of a waiting one is answered from the store, a write held
        until its create is confirmed (the returned future); a key whose create failed fails the
        call.
    */
    std::optional<QFuture<QVariant>> callArrived(FetchCall &call) override;
    QString newRowKey() override;
    void newRowKeyUnused(const QString &key) override;
    //! The create showing a placeholder row was answered: the server's key is recorded and the
    //! writes that waited for it released (their guesses join the commit's changes).
    void committed(InFlightRequest &request, Commit *commit) override;
    //! That create failed: its held writes fail too, unsent.
    void failed(InFlightRequest &request, const NetworkError &error, Failure *failure) override;
    //! Every placeholder is forgotten and every held write canceled.
    void reset() override;
    void shutdown() override;

    //! The held writes of endpoints that queue (and those waiting to be held again), as outbox
    //! file items (with waitingFor).
    QList<OutboxItem> outboxItems() const;
    //! Writes held before a restart (read from the outbox file into pending) are held again once
    //! their endpoint is known and their rows' creates are requests again (under this run's
    //! placeholder keys: renamed); one whose create is gone is dropped.
    void restore(ChangeSet *changes);

    struct PendingHeld
    {
        OutboxItem item;
        bool renamed = false; // its keys are this run's (all at once: never a mix)
    };
    QList<PendingHeld> pending;
    //! A create's placeholder key in the outbox file -> the one its row shows under now.
    QHash<QString, QString> renamed;
    HeldWrites held;

private:
    //! A write of \a endpoint waiting for the rows \a waiting, its guess shown at once (what
    //! that changed goes to \a changes); \a since and \a idempotencyKey name it in the outbox
    //! file when \a durable. The caller holds it (held.hold()).
    std::shared_ptr<HeldWrite> makeHeldWrite(const EndpointPtr &endpoint, const Params &params,
                                             const QJsonValue &body, const QSet<QString> &waiting,
                                             bool durable, qint64 since,
                                             const QByteArray &idempotencyKey, ChangeSet *changes);
    ChangeSet refuse(const InFlightRequest &request, const NetworkError &error);
    void drop();
    void writeOutbox();
};

} // namespace DataClient::detail
