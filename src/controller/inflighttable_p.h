// Requests the Controller has in flight, and the index that lets reads share one request
// (reads are de-duplicated by their full request URL; mutations never are).
#pragma once

#include "callerpromises_p.h"

#include <DataClient/abortgroup.h>
#include <DataClient/compactanswer.h>
#include <DataClient/compactjson.h>
#include <DataClient/conditionalrequest.h>
#include <DataClient/requestcontext.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/networkerror.h>
#include <DataClient/params.h>

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

//! One request from fetch() to its answer: what the core needs of it. The managers keep their own
//! data about it, keyed by its id.
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
    //! When its attempt under way was sent, 0 while none is (held, between attempts): meta.date
    //! of what it writes (the race rule compares it).
    qint64 date = 0;
    //! The Controller's reset generation when it started: a reset drops its answer.
    quint64 generation = 0;
    //! Sent again with each attempt.
    QJsonValue body;
    //! The guess it shows (Guesses), 0 for none, and the key a new row shows under in it.
    quint64 layer = 0;
    QString newRowKey;
    //! Not sent: a manager holds it (offline, its turn in the outbox, an app's manager).
    bool held = false;
    //! An attempt failed and the next one is scheduled.
    bool betweenAttempts = false;
    //! Kept until the server answers it, whether or not a caller still waits (the outbox).
    bool keepWithoutCallers = false;

    //! Between attempts or before the first one: no network exchange runs.
    bool isWaiting() const { return held || betweenAttempts; }
    //! The futures fetch() returned: one per caller (the one that started it and those that
    //! joined it).
    CallerPromises callers;
    //! What every attempt is sent with: the abort group that stops its exchanges at once
    //! (shutdown, reset, last caller gone); the attempt's validators and the managers' headers;
    //! what the attempt's answer was (status, bytes, what it said of the validators).
    RequestContext context = RequestContext::create();
    //! The exchange: true when the answer comes from RestEndpoint::fetchCompact()
    //! (compactNetwork), false when from fetch() (network: endpoints whose hooks may need the
    //! GUI thread); the watcher that delivers it and the one of a worker's conversion (owned by
    //! the Controller).
    bool compact = false;
    QFuture<QJsonValue> network;
    QFuture<CompactAnswer> compactNetwork;
    QFutureWatcherBase *watcher = nullptr;
    QFutureWatcherBase *converter = nullptr;

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
