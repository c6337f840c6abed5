// Requests the Controller has in flight, and the index that lets reads share one request
// (DESIGN.md §5: reads are de-duplicated by their full request URL; mutations never are).
#pragma once

#include "callerpromises_p.h"

#include <DataClient/abortgroup.h>
#include <DataClient/compactanswer.h>
#include <DataClient/compactjson.h>
#include <DataClient/conditionalrequest.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/networkerror.h>
#include <DataClient/params.h>
#include <DataClient/retrypolicy.h>

#include <QtCore/QFuture>
#include <QtCore/QHash>
#include <QtCore/QJsonValue>
#include <QtCore/QString>
#include <QtCore/QVariant>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QFutureWatcherBase;
QT_END_NAMESPACE

namespace DataClient::detail {

//! One request from fetch() to its answer.
struct InFlightRequest
{
    quint64 id = 0;
    //! Held so the endpoint outlives its request even if its owner drops it meanwhile.
    EndpointPtr endpoint;
    Params params;
    //! The cache key (result key in the store) and the de-duplication key.
    QString key;
    QString requestKey;
    bool read = true;
    //! When its attempt under way was sent, 0 while none is (queued, paused, between
    //! attempts): meta.date of what it writes (the race rule compares it).
    qint64 date = 0;
    //! The Controller's reset generation when it started: a reset drops its answer.
    quint64 generation = 0;
    //! The optimistic layer it shows, 0 for none.
    quint64 layer = 0;
    //! The placeholder key its layer shows a new row under (a create without a pk), or empty.
    QString placeholder;
    //! Sent again with each attempt.
    QJsonValue body;
    //! The attempt under way or waited for: 1 = the first; a retry chain counts on (issue 13).
    int attempt = 1;
    RetryPolicy retry;
    //! The Scheduler entry that sends the next attempt (backoff), 0 when none waits.
    quint64 backoff = 0;
    //! Not sent: it waits for connectivity (a read started or due while offline), or, in the
    //! outbox, for its turn.
    bool paused = false;
    //! A mutation kept in the Controller's outbox (queueWhenOffline) until the server answers
    //! it, whether or not a caller still waits (controlleroutbox.cpp).
    bool outbox = false;
    //! An outbox mutation that had to wait: made offline or behind other changes, read from the
    //! outbox file, or an attempt got no answer. A 5xx then retries it too, without a limit.
    bool queued = false;
    //! Its final failure, for Controller::outboxFailed().
    std::optional<NetworkError> failure;

    //! Between attempts or before the first one: no network exchange runs.
    bool isWaiting() const { return backoff != 0 || paused; }
    //! The futures fetch() returned: one per caller (the one that started it and those that
    //! joined it).
    CallerPromises callers;
    //! Aborts the request's network exchanges synchronously (shutdown, reset, last caller gone).
    AbortGroup abort;
    //! True when the answer comes from RestEndpoint::fetchCompact() (compactNetwork), false
    //! when it comes from fetch() (network): endpoints whose hooks may need the GUI thread.
    bool compact = false;
    //! The endpoint's future (cancelled to abort the request).
    QFuture<QJsonValue> network;
    QFuture<CompactAnswer> compactNetwork;
    //! Delivers the answer on the Controller's thread (a QFutureWatcher of network or
    //! compactNetwork); owned by the Controller.
    QFutureWatcherBase *watcher = nullptr;
    //! Delivers what a worker made of a large answer (a QFutureWatcher<BackgroundJson::Result>);
    //! owned by the Controller.
    QFutureWatcherBase *converter = nullptr;

    //! The HTTP validators it sends and what its answer said of them (null: none used).
    ConditionalRequest conditional;
    //! It repeats a read whose 304 confirmed nothing stored: a 304 now fails it.
    bool refetchAfter304 = false;

    //! The endpoint's future, whichever it is.
    QFuture<void> networkFuture() const
    {
        return compact ? QFuture<void>(compactNetwork) : QFuture<void>(network);
    }
};

class InFlightTable
{
public:
    InFlightRequest &add(std::shared_ptr<InFlightRequest> request);
    InFlightRequest *find(quint64 id) const;
    //! The read in flight with that request key, or nullptr.
    InFlightRequest *findRead(const QString &requestKey) const;
    //! Removes the request (and its de-duplication entry) and hands it over.
    std::shared_ptr<InFlightRequest> take(quint64 id);
    //! New reads stop joining the requests in flight (after a reset, their answers are dropped).
    void forgetReads() { m_readsByRequestKey.clear(); }
    //! Every request, for shutdown.
    QList<InFlightRequest *> all() const;
    qsizetype size() const { return m_requests.size(); }
    quint64 nextId() { return ++m_lastId; }

private:
    QHash<quint64, std::shared_ptr<InFlightRequest>> m_requests;
    QHash<QString, quint64> m_readsByRequestKey;
    quint64 m_lastId = 0;
};

} // namespace DataClient::detail
