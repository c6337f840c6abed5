// Controller: the owner of the normalized store — fetch, de-duplication, expiry, invalidation,
// optimistic updates and polling (docs/controller.md).
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/compactjson.h>
#include <DataClient/denormalized.h>
#include <DataClient/endpointoptions.h>
#include <DataClient/global.h>
#include <DataClient/networkerror.h>
#include <DataClient/outbox.h>
#include <DataClient/params.h>
#include <DataClient/responsestate.h>
#include <DataClient/schema.h>
#include <DataClient/storewrite.h>
#include <DataClient/tokensource.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonValue>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QVariant>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace DataClient {

class Connectivity;
class ControllerPrivate;
class Manager;
class Store;

/*!
    The single owner of one normalized store (see docs/controller.md). Every view that shows an
    entity reads it through a Controller, so a change made by any request shows everywhere.

    - fetch() runs an endpoint, normalizes its answer into the store and resolves with the
      denormalized value. Reads (endpoints without a side effect) with the same request URL
      share one request while it is in flight; mutations never do.
    - getResponse() reads what is stored for an endpoint + params: data, freshness (Valid /
      Stale / Invalid), error, loading. It never sends a request; fetchIfStale() does when the
      data is not fresh.
    - Mutations of an optimistic endpoint show their predicted result at once, as a layer over
      the committed data; the server's answer replaces the layer, a failure removes only it.
    - changed() is emitted once per store commit with what changed, never for a no-op;
      fetchStateChanged() when a key starts/stops loading, gets/loses an error or is
      invalidated/expired.

    Threads: a Controller lives on the thread that created it (the GUI thread) and must be used
    there; debug builds assert it. Ownership: the QNetworkAccessManager passed in is not owned
    (it must outlive the Controller's requests); with none, the Controller makes and owns one.
    Destroying a Controller with requests in flight aborts them; their futures end canceled.
*/
class DATACLIENT_CONTROLLER_EXPORT Controller : public QObject
{
    Q_OBJECT
    //! Garbage collection (docs/memory.md): whether results and entities nothing references are
    //! dropped (on by default). Off: nothing is dropped, collectGarbage() included.
    Q_PROPERTY(bool gcEnabled READ isGcEnabled WRITE setGcEnabled NOTIFY gcEnabledChanged)
    //! How long (ms) data nothing references stays before it is dropped (default 300000: five
    //! minutes). A negative value is refused with a warning.
    Q_PROPERTY(qint64 gcGracePeriodMs READ gcGracePeriodMs WRITE setGcGracePeriodMs NOTIFY
                   gcGracePeriodMsChanged)
    //! When > 0: while the store takes more (Store::memoryUsage()), what nothing references goes
    //! at once, least recently used first. 0 (default): no budget; negative: refused.
    Q_PROPERTY(qint64 memoryBudgetBytes READ memoryBudgetBytes WRITE setMemoryBudgetBytes NOTIFY
                   memoryBudgetBytesChanged)
    //! The changes waiting for the server (endpoints with queueWhenOffline; never null).
    Q_PROPERTY(DataClient::Outbox *outbox READ outbox CONSTANT)

    //! The persisted store (docs/offline.md): empty = off (the default); "default" = a file
    //! under QStandardPaths::AppLocalDataLocation ("dataclient/store.dcstore"); else the file's
    //! path. Setting it hydrates an empty store from the file at once (before any query reads:
    //! persisted data shows Stale and revalidates); then the committed store is written behind,
    //! at most once per persistIntervalMs, off the GUI thread. A file another Controller holds
    //! is refused (persistenceError()).
    Q_PROPERTY(QString persistence READ persistence WRITE setPersistence NOTIFY persistenceChanged)
    //! The least time (ms) between two writes of the persisted store (default 1000).
    Q_PROPERTY(int persistIntervalMs READ persistIntervalMs WRITE setPersistIntervalMs NOTIFY
                   persistIntervalMsChanged)
    //! Where the access token comes from (docs/authentication.md); null (the default): none.
    Q_PROPERTY(DataClient::TokenSource *tokenSource READ tokenSource WRITE setTokenSource NOTIFY
                   tokenSourceChanged)

public:
    //! Milliseconds since the epoch; replaceable for tests (setClock()).
    using Clock = std::function<qint64()>;
    //! Uniform random numbers in [0, 1): the jitter of retry backoff (setRandomSource()).
    using RandomSource = std::function<double()>;
    //! Selects cache keys ("GET http://host/todos?userId=1") for invalidateAll() / expireAll().
    using KeyPredicate = std::function<bool(const QString &key)>;

    //! \a network: the manager to send requests with (not owned); nullptr: the Controller
    //! creates its own.
    explicit Controller(QNetworkAccessManager *network = nullptr, QObject *parent = nullptr);
    ~Controller() override;

    //! The default global Controller (the QML singleton's, unless an application sets another).
    //! Created on first use, on the calling thread (call it first from the GUI thread), as a
    //! child of the application object.
    static Controller *instance();
    //! Makes \a controller the default (not owned; nullptr restores a lazily created one).
    static void setInstance(Controller *controller);

    QNetworkAccessManager *networkAccessManager() const;
    /*!
        Sends later requests with \a network (not owned; nullptr: a manager of the Controller's
        own). Requests in flight finish on the manager they started on. For tests that attach a
        Testing::MockNetwork to a Controller made elsewhere (the QML singleton).
    */
    void setNetworkAccessManager(QNetworkAccessManager *network);

    // Requests ---------------------------------------------------------------------------------

    /*!
        Runs \a endpoint with \a params and \a body, normalizes the answer into the store (with
        meta.date = when the request was sent, so an older answer never overwrites a newer one)
        and resolves with the denormalized value (a delete resolves with the processed answer,
        e.g. the URL parameters). Fails with NetworkError: a null endpoint or unusable params
        (kind InvalidRequest, nothing sent), an HTTP or network error, or an answer that does
        not fit the schema (kind InvalidResponse, status 400, store unchanged). Errors are also
        stored for the key (getError()). Ends canceled when resetEntireStore() ran after the
        request started (its answer is dropped) or the Controller was destroyed.
    */
    QFuture<QVariant> fetch(const EndpointPtr &endpoint, const Params &params = {},
                            const QJsonValue &body = QJsonValue());
    /*!
        fetch() unless the stored response is fresh: Valid data resolves at once with it (a
        fresh hard error fails at once with it); a read already in flight is joined.
        Mutations always fetch.
    */
    QFuture<QVariant> fetchIfStale(const EndpointPtr &endpoint, const Params &params = {},
                                   const QJsonValue &body = QJsonValue());

    // Reading ----------------------------------------------------------------------------------

    /*!
        What is stored for \a endpoint + \a params. When no result is stored for the key, an
        entity or collection schema is looked up in the entity table (a `get` of an entity
        loaded through a list needs no request). Never sends anything.
    */
    ResponseState getResponse(const EndpointPtr &endpoint, const Params &params = {}) const;
    //! The key's stored error (soft or hard), until a later response clears it.
    std::optional<NetworkError> getError(const EndpointPtr &endpoint,
                                         const Params &params = {}) const;
    //! A request for the key of \a endpoint + \a params is in flight.
    bool isLoading(const EndpointPtr &endpoint, const Params &params = {}) const;
    /*!
        The primary key the server gave the row created under \a placeholderKey (see
        isPlaceholderKey()); empty while its create is unanswered, if it failed, or after
        resetEntireStore(). Models use it to keep the row in place; a write naming the
        placeholder key after the answer is sent with this key.
    */
    QString confirmedKey(const QString &placeholderKey) const;
    //! Reads the entity table directly (Store::query): an Entity schema with its pk in \a args,
    //! or a Collection with its arguments.
    Denormalized get(const Schema &schema, const Params &args = {}) const;
    //! The store, read-only (for inspection; write through the Controller).
    const Store &store() const;

    // Writing without a request ----------------------------------------------------------------

    /*!
        Stores \a value as if the server had answered \a endpoint + \a params now. Returns what
        changed, or the SchemaError (nothing written) when the value does not fit the schema.
    */
    StoreWrite setResponse(const EndpointPtr &endpoint, const Params &params,
                           const QJsonValue &value);
    //! The same from the store's compact form (CompactJson::parse() of the raw bytes): the
    //! fastest way to load a large payload.
    StoreWrite setResponse(const EndpointPtr &endpoint, const Params &params,
                           const CompactJson &value);
    // Writing entities without an endpoint ------------------------------------------------------
    //
    // For data that did not come from an endpoint (a push source, a manager, the app itself):
    // entities are written as an answer writes them, but no result key is stored. Every list
    // and view holding them shows the change. \a date is when the data was true, in ms since
    // the epoch on now()'s clock; 0 means now, dated after every request already sent. The race
    // rule of answers applies: data stored with a newer date is not replaced (an older set()
    // only fills fields the stored record lacks, and cannot bring back a newer removal), and a
    // write removes the optimistic guesses of changes sent before it about its entities.
    // Bad input (see each function) writes nothing, emits nothing, warns and returns the
    // SchemaError. A write that changed nothing emits nothing either.

    /*!
        Upserts the entities of \a value: an object, or an array of objects. \a schema is an
        Entity schema, or an Array or Collection of one (only the entities are written: no
        stored list changes membership); nested entities are normalized too. Refused: another
        schema, a value that is not an object or an array of objects, an entity whose primary
        key cannot be computed, a negative date.
    */
    StoreWrite set(const Schema &schema, const QJsonValue &value, qint64 date = 0);
    /*!
        Deletes the entity \a pk of \a entity, as the answer of a delete endpoint does: lists
        drop it, views of it find nothing. Kept when the stored entity is dated after \a date
        (an answer or a set() newer than the removal). Refused: a null entity, an empty or
        unknown \a pk (never stored), a negative date. Removing an entity removed before
        changes nothing.
    */
    StoreWrite remove(const EntitySchema &entity, const QString &pk, qint64 date = 0);
    //! The same with an Entity schema (anything else is refused).
    StoreWrite remove(const Schema &schema, const QString &pk, qint64 date = 0);

    //! Stores \a error for the key as if the request had failed now.
    void setError(const EndpointPtr &endpoint, const Params &params, const NetworkError &error);
    //! Forgets the key's result and error: getResponse() reports Invalid until the next answer
    //! (the entities stay in the entity table).
    void invalidate(const EndpointPtr &endpoint, const Params &params = {});
    //! invalidate() for every stored key \a predicate accepts.
    void invalidateAll(const KeyPredicate &predicate);
    //! Makes every stored key \a predicate accepts Stale now (data stays visible; queries
    //! refetch).
    void expireAll(const KeyPredicate &predicate);
    //! Empties the store (entities, results, errors, optimistic layers). Answers to requests
    //! started before are dropped; their futures end canceled.
    void resetEntireStore();

    // Polling ----------------------------------------------------------------------------------

    /*!
        Adds a live subscriber: the key of \a endpoint + \a params is refetched every
        endpoint->pollFrequency() ms — one timer per key, at the fastest frequency of its
        subscribers. Does not fetch by itself (pair it with fetchIfStale()). Returns false (and
        warns) when the endpoint is null, its params unusable, or pollFrequency is 0.
    */
    bool subscribe(const EndpointPtr &endpoint, const Params &params = {});
    //! Removes one subscriber added with the same endpoint; the last one stops the timer.
    bool unsubscribe(const EndpointPtr &endpoint, const Params &params = {});
    //! The key's polling interval in ms, 0 when nobody subscribes.
    int pollInterval(const EndpointPtr &endpoint, const Params &params = {}) const;

    /*!
        Registers a viewer of the key of \a endpoint + \a params (CollectionModel, Suspense and
        Live do it while active). A shown key that is stale or invalid is refetched, once, when
        connectivity returns and when the application becomes active again. Counted by
        reference; does not fetch by itself. Returns false (and warns) when the endpoint is null
        or its params unusable.
    */
    bool watch(const EndpointPtr &endpoint, const Params &params = {});
    //! Removes one viewer added with watch().
    bool unwatch(const EndpointPtr &endpoint, const Params &params = {});

    // Connectivity and application state -------------------------------------------------------

    /*!
        The Connectivity the Controller asks before sending a read (not owned; it must outlive
        the Controller or be reset first). nullptr: Connectivity::system(), the default.
    */
    void setConnectivity(Connectivity *connectivity);
    Connectivity *connectivity() const;
    bool isOnline() const;
    //! How long the application must have been inactive before becoming active refetches the
    //! stale keys something shows (default 30000 ms).
    void setRefetchOnActivateAfter(int ms);
    int refetchOnActivateAfter() const;
    Qt::ApplicationState applicationState() const;

    // Memory (docs/memory.md) -----------------------------------------------------------------

    bool isGcEnabled() const;
    void setGcEnabled(bool enabled);
    qint64 gcGracePeriodMs() const;
    void setGcGracePeriodMs(qint64 ms);
    qint64 memoryBudgetBytes() const;
    void setMemoryBudgetBytes(qint64 bytes);
    /*!
        Runs a garbage-collection pass now: drops every result nothing references (no watch(),
        subscribe() or optimistic layer) that was last written or read more than
        gcGracePeriodMs() ago, then every entity and collection no remaining result, shown key
        or layer reaches that was last written before that; then, over memoryBudgetBytes(),
        what else nothing references, least recently used first. Emits changed() with what was
        dropped. Returns how many results, entities and collections were dropped (0 when
        garbage collection is off). Passes also run by themselves, through the scheduler.
    */
    int collectGarbage();

    // Outbox (docs/offline-outbox.md) --------------------------------------------------------

    /*!
        The mutations of endpoints with the option queueWhenOffline that the server has not
        answered yet: a count and a list model. Made while offline they wait here (shown
        optimistically) and are replayed in order on reconnect; a network error or a 5xx keeps
        them and retries with backoff; a 4xx drops one (outboxFailed()).
    */
    Outbox *outbox() const;
    // Persisted store (docs/offline.md) ------------------------------------------------------

    QString persistence() const;
    void setPersistence(const QString &persistence);
    int persistIntervalMs() const;
    void setPersistIntervalMs(int ms);
    //! Deletes the persisted file now (logout); the store in memory stays. resetEntireStore()
    //! does it too.
    Q_INVOKABLE void clearPersisted();

    // Authentication (docs/authentication.md) -----------------------------------------------

    /*!
        The token source whose token goes with the requests to its origins (not owned; cleared
        when it is destroyed). Requests waiting for the previous one's token are sent without.
    */
    void setTokenSource(TokenSource *source);
    TokenSource *tokenSource() const;
    /*!
        Forgets everything of the user: every request ends canceled (on the wire or waiting,
        mutations too), the store, the optimistic guesses and the outbox are emptied, the
        persisted store file and the outbox file are deleted, polling stops (every
        subscription is dropped) and the token source forgets its tokens
        (TokenSource::forget()). The outbox's changes are not kept for a next login: they were
        made by this user, and sent with another user's token they would be applied as that
        user's. Also done when the token source emits loggedOut().
    */
    Q_INVOKABLE void logout();

    // Time -------------------------------------------------------------------------------------

    /*!
        Replaces the clock; an empty function restores the system clock. Everything that waits
        (polling, retry backoff) waits through the Controller's one scheduler on this clock: with
        the system clock a timer runs it; with another clock its owner calls runDueTimers()
        after moving time (Testing::VirtualClock does).
    */
    void setClock(Clock clock);
    qint64 now() const;
    //! When the earliest wait (a poll, a retry) is due on the clock, or -1 when none is.
    qint64 nextTimerDue() const;
    //! Runs every wait due at now(), earliest first; returns how many ran.
    int runDueTimers();
    //! Replaces the jitter source of retry backoff (tests: deterministic delays); an empty
    //! function restores QRandomGenerator.
    void setRandomSource(RandomSource source);

    // Managers (docs/managers.md) ---------------------------------------------------------------
    /*!
        Registers \a manager: from now on it sees every request's lifecycle steps, after the
        Controller's own managers, in the order managers were added. Not owned (a manager
        destroyed while registered is removed). Returns false, with a warning saying why, for a
        null manager, one already registered here or with another Controller, or one living on
        another thread.
    */
    bool addManager(DataClient::Manager *manager);
    //! Unregisters \a manager; the requests it held are sent. False when it was not registered.
    bool removeManager(DataClient::Manager *manager);
    //! The registered managers, in the order they act.
    QList<DataClient::Manager *> managers() const;

public Q_SLOTS:
    /*!
        Tells the Controller the application's state. Suspended and Hidden pause polling; Active
        after at least refetchOnActivateAfter() ms inactive refetches the stale keys something
        shows (endpoints with refetchOnActivate). Connected by itself to
        QGuiApplication::applicationStateChanged when the application is a QGuiApplication.
    */
    void setApplicationState(Qt::ApplicationState state);

Q_SIGNALS:
    //! After each store commit that changed something: the entities (and collections) and
    //! result keys it changed. Never emitted for a no-op.
    void changed(const DataClient::ChangeSet &changes);
    //! \a key started or stopped loading, got or lost an error, or was invalidated/expired;
    //! also when its read starts or stops waiting to retry or for connectivity.
    void fetchStateChanged(const QString &key);
    //! The Connectivity went offline or online (or another one was set).
    void onlineChanged(bool online);
    void gcEnabledChanged();
    void gcGracePeriodMsChanged();
    void memoryBudgetBytesChanged();
    /*!
        The server refused a change of the outbox (an HTTP 4xx, or an answer that does not fit
        the schema): it was dropped and its optimistic layer rolled back. Later changes go on.
    */
    void outboxFailed(const QByteArray &method, const QUrl &url,
                      const DataClient::NetworkError &error);
    //! The persisted file changed (opened, closed, refused).
    void persistenceChanged();
    void persistIntervalMsChanged();
    //! The persisted store could not be used or written (refused lock, unwritable path, full
    //! disk); the Controller keeps working in memory. Emitted once until a write succeeds.
    void persistenceError(const QString &message);
    void tokenSourceChanged();
    /*!
        Requests to the token source's origins were refused (401) and no new token helps: the
        token source failed or gave an empty token, or the server refused the new one too. The
        requests concerned failed with \a error (NetworkError::Kind::Unauthorized). Typically
        the app shows its login again.
    */
    void authenticationFailed(const DataClient::NetworkError &error);

private:
    friend class ControllerPrivate;
    friend class Outbox;
    std::unique_ptr<ControllerPrivate> d;
};

} // namespace DataClient
