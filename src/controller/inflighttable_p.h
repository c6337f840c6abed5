// Requests the Controller has in flight, and the index that lets reads share one request
// (DESIGN.md §5: reads are de-duplicated by their full request URL; mutations never are).
#pragma once

#include <DataClient/compactjson.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/params.h>

#include <QtCore/QFuture>
#include <QtCore/QHash>
#include <QtCore/QJsonValue>
#include <QtCore/QPromise>
#include <QtCore/QString>
#include <QtCore/QVariant>

#include <memory>

QT_BEGIN_NAMESPACE
template<typename T> class QFutureWatcher;
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
    //! Request start time: meta.date of what it writes (the race rule compares it).
    qint64 date = 0;
    //! The Controller's reset generation when it started: a reset drops its answer.
    quint64 generation = 0;
    //! The optimistic layer it shows, 0 for none.
    quint64 layer = 0;
    //! What fetch() returned to its callers.
    QPromise<QVariant> promise;
    QFuture<QVariant> future;
    //! The endpoint's future (cancelled to abort the request).
    QFuture<QJsonValue> network;
    //! Delivers the answer on the Controller's thread; owned by the Controller.
    QFutureWatcher<QJsonValue> *watcher = nullptr;
    //! Delivers a large answer converted on a worker (see BackgroundJson); owned by the
    //! Controller.
    QFutureWatcher<CompactJson> *converter = nullptr;
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
