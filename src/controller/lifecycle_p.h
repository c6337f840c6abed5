// The steps of a request's life that the Controller's core calls its managers at (see
// docs/architecture.md, "The request lifecycle"). The core makes, sends, answers, commits and
// fails requests and names no feature; every feature (retries, validators, the outbox,
// persistence, garbage collection, placeholders, the refetch triggers, the app's own managers)
// is a Lifecycle registered in a fixed order (managers.cpp) that acts at the steps it declares.
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/networkerror.h>
#include <DataClient/params.h>
#include <DataClient/requestinit.h>
#include <DataClient/retrypolicy.h>
#include <DataClient/schema.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonValue>
#include <QtCore/QVariant>

#include <memory>
#include <optional>

namespace DataClient {
class ControllerPrivate;
class RestEndpoint;
struct ResponseState;
} // namespace DataClient

namespace DataClient::detail {

struct InFlightRequest;

//! A call of Controller::fetch() before any request is made for it.
struct FetchCall
{
    EndpointPtr endpoint;
    Params params;
    QJsonValue body;
};

//! What becomes of a failed attempt: decided by the managers in order (one may make the attempt
//! retriable without a limit, the retry manager schedules it).
struct RetryPlan
{
    RetryPolicy policy; //!< the backoff to wait with (the endpoint's own by default)
    bool unlimited = false; //!< tried again whatever the attempts and callers (the outbox)
    bool retrying = false; //!< another attempt is scheduled
};

//! A request's final failure: what undoing it changed, and whether it is its key's error.
struct Failure
{
    ChangeSet rollback;
    //! Stored as the key's error (a later page's failure is the page's, not the list's).
    bool keysError = true;
};

//! A committed answer: where it was stored and what the callers get.
struct Commit
{
    QString resultKey; //!< empty when a newer stored result stayed
    QVariant answer;
    ChangeSet *changes = nullptr; //!< what is signalled; managers may add to it
};

/*!
    One feature of the Controller. Each step is called on every manager that declares it (steps()),
    in registration order, on the Controller's thread. A step's defaults do nothing.
*/
class Lifecycle
{
public:
    enum Step : quint32 {
        CallArrived = 1u << 0,
        Holds = 1u << 1,
        RequestMade = 1u << 2,
        Decorate = 1u << 3,
        AttemptFailed = 1u << 4,
        Answered = 1u << 5,
        TakesAnswer = 1u << 6,
        WriteSchema = 1u << 7,
        Committed = 1u << 8,
        Failed = 1u << 9,
        RequestEnded = 1u << 10,
        StoreChanged = 1u << 11,
        ResultsDropped = 1u << 12,
        Invalidated = 1u << 13,
        ResultSet = 1u << 14,
        Read = 1u << 15,
        OnlineChanged = 1u << 16,
        ApplicationStateChanged = 1u << 17,
        Reset = 1u << 18,
        StoreReset = 1u << 19,
        Closing = 1u << 20,
        Shutdown = 1u << 21,
        Describe = 1u << 22,
        Released = 1u << 23,
        Referenced = 1u << 24,
        Roots = 1u << 25,
        Expired = 1u << 26,
        NewRowKey = 1u << 27,
        LoggedOut = 1u << 28,
        StepCount = 29
    };

    explicit Lifecycle(ControllerPrivate &core, quint32 steps) : core(core), m_steps(steps) { }
    virtual ~Lifecycle() = default;
    Q_DISABLE_COPY_MOVE(Lifecycle)
    quint32 steps() const { return m_steps; }
    //! Every manager is registered: it may act now (read the system's state, connect signals).
    virtual void start() { }

    //! fetch() was called: a manager may rewrite the call or answer it (no request is made then).
    virtual std::optional<QFuture<QVariant>> callArrived(FetchCall &) { return std::nullopt; }
    //! \a request is about to be sent (each attempt): true keeps it waiting until a manager sends
    //! it (ControllerPrivate::sendWaiting()) or ends it.
    virtual bool holds(InFlightRequest &) { return false; }
    //! \a request entered the table, its guess shown; nothing is sent yet.
    virtual void requestMade(InFlightRequest &) { }
    //! An attempt of \a request is being sent: headers to add (and the request's validators).
    virtual void decorate(InFlightRequest &, Headers *) { }
    //! An attempt failed with \a error; \a plan says what becomes of it.
    virtual void attemptFailed(InFlightRequest &, const NetworkError &, RetryPlan *) { }
    //! The server's answer (or the exchange's failure) arrived, before anything is stored.
    virtual void answered(InFlightRequest &) { }
    //! A manager may take the answer over (a 304): the core then does nothing more with it.
    virtual bool takesAnswer(const std::shared_ptr<InFlightRequest> &) { return false; }
    //! The schema a successful answer is written with (a first page keeps the later ones).
    virtual Schema writeSchema(InFlightRequest &, const Schema &schema) { return schema; }
    //! The answer was stored; the callers are resolved after every manager saw it.
    virtual void committed(InFlightRequest &, Commit *) { }
    //! The request failed for good; what undoing it changes goes into \a failure.
    virtual void failed(InFlightRequest &, const NetworkError &, Failure *) { }
    //! The request left the table (answered, failed or ended waiting); not at reset or shutdown.
    virtual void requestEnded(const InFlightRequest &) { }
    //! changed() is about to be emitted with \a changes; \a committed: a store commit (also an
    //! empty one, which may renew a meta), not only optimistic layers.
    virtual void storeChanged(const ChangeSet &, bool) { }
    //! Results were dropped from the store (garbage collection).
    virtual void resultsDropped(const QSet<QString> &) { }
    //! Results were invalidated (invalidate(), invalidateAll()).
    virtual void invalidated(const QStringList &) { }
    //! Results were expired (expireAll()).
    virtual void expired(const QStringList &) { }
    //! A result was written without a request (setResponse()).
    virtual void resultSet(const QString &) { }
    //! \a endpoint's schema is about to be read or written; \a resultKey (may be empty) is the
    //! result concerned.
    virtual void read(const RestEndpoint &, const QString &) { }
    //! Controller::get() is about to read with \a schema.
    virtual void readSchema(const Schema &) { }
    //! Entities are about to be written with \a schema without an endpoint (Controller::set()).
    virtual void writingSchema(const Schema &) { }
    virtual void onlineChanged(bool) { }
    virtual void applicationStateChanged(Qt::ApplicationState, qint64) { }
    //! resetEntireStore(), before the store is emptied (requests waiting already ended).
    virtual void reset() { }
    //! resetEntireStore(), after changed() told what the reset removed.
    virtual void storeReset() { }
    //! Controller::logout(), after the reset: forget what belongs to the user (files, polls,
    //! tokens).
    virtual void loggedOut() { }
    //! The Controller is being destroyed, before anything stops: last writes.
    virtual void closing() { }
    //! The Controller is being destroyed: nothing may wait or run after this.
    virtual void shutdown() { }
    //! Fills what getResponse() tells of a read in flight (attempt, retrying).
    virtual void describe(const InFlightRequest &, ResponseState *) const { }
    //! The last viewer or subscriber of a key went.
    virtual void released(const QString &, const EndpointPtr &, const Params &) { }
    //! A key gained a viewer or subscriber.
    virtual void referenced() { }
    //! The keys something shows or polls, for garbage collection.
    virtual void roots(QList<std::pair<EndpointPtr, Params>> *) const { }
    //! Whether \a key is one of them.
    virtual bool refers(const QString &) const { return false; }
    //! A guess shows a new row whose primary key the server assigns: the key it shows under
    //! (empty: none, the row shows when the server answers). newRowKeyUnused() takes back one
    //! that no guess shows after all.
    virtual QString newRowKey() { return {}; }
    virtual void newRowKeyUnused(const QString &) { }

protected:
    ControllerPrivate &core;

private:
    quint32 m_steps;
};

} // namespace DataClient::detail
