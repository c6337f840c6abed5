// The outbox (docs/offline-outbox.md): every mutation of an endpoint with queueWhenOffline is
// recorded (and its file written) before fetch() returns, and stays until the server answered it.
// Items go one at a time, in the order they were made (strictly serial: a change never overtakes an
// earlier one, whichever entity it touches). Offline an item waits; a network error or a 5xx
// retries it with backoff, through the scheduler; a 4xx drops it, rolls back its guess and
// reports outboxFailed(). Each item is a request like any other: the same commit, guesses and
// fetch state.
#pragma once

#include "lifecycle_p.h"
#include "outboxqueue_p.h"

#include <DataClient/outbox.h>

#include <QtCore/QHash>
#include <QtCore/QSet>

namespace DataClient::detail {

class OutboxManager final : public Lifecycle
{
public:
    explicit OutboxManager(ControllerPrivate &core);

    //! A mutation that queues: recorded in the outbox (and its file) before it is sent.
    void requestMade(InFlightRequest &request) override;
    //! An item waits for its turn: online, and every item before it answered.
    bool holds(InFlightRequest &request) override;
    //! An item is tried again whatever its attempts and callers when it got no answer (which
    //! queues it), or a 5xx / 408 / 429 once it is queued.
    void attemptFailed(InFlightRequest &request, const NetworkError &error,
                       RetryPlan *plan) override;
    void failed(InFlightRequest &request, const NetworkError &error, Failure *) override;
    //! The item was answered or ended: it leaves the outbox, the next goes.
    void requestEnded(const InFlightRequest &request) override;
    //! Online again: the items are replayed (one at a time) before the reads they affect.
    void onlineChanged(bool online) override;
    //! Every item is dropped (a logout): requests still in flight leave the outbox.
    void reset() override;
    void loggedOut() override;
    //! The file is written if its last write failed.
    void closing() override;

    //! Whether \a endpoint's calls go through the outbox: a mutation with queueWhenOffline.
    static bool queues(const RestEndpoint &endpoint);
    //! Loads the outbox file at \a path (replaying its items) and writes every change there;
    //! an empty path: memory only.
    void setFile(const QString &path);
    //! Writes the outbox file (when one is set). When it cannot (a full disk), warns once and
    //! tries again later, until a write lands.
    void write();
    //! Items read from a file whose endpoint is known become requests (waiting for their turn).
    void resolve();
    //! Sends the next item when none is under way (online only, one at a time). An item that
    //! waited only for the network goes; one waiting out its backoff (a Retry-After included)
    //! keeps waiting, however often the network comes back.
    void pump();

    //! The pending changes (a child of the Controller).
    Outbox *outbox = nullptr;

private:
    //! Makes \a request one of the outbox: sent with \a idempotencyKey on every attempt.
    static void mark(InFlightRequest &request, const QByteArray &idempotencyKey);

    QString m_file;
    //! Writes of the file that failed in a row (warned at the first), and the retry.
    int m_writeFailures = 0;
    quint64 m_writeRetry = 0;
    //! The item sent or waiting out its backoff (one at a time), 0 when none.
    quint64 m_sending = 0;
    //! Items that had to wait: made offline or behind other changes, read from the file, or an
    //! attempt got no answer. A 5xx then retries them too, without a limit.
    QSet<quint64> m_queued;
    //! Their final failures, for Controller::outboxFailed().
    QHash<quint64, NetworkError> m_failures;
};

} // namespace DataClient::detail
