// The Controller's state: the store, the requests in flight, per-key fetch state, optimistic
// layers and polling subscriptions.
#pragma once

#include "backgroundjson_p.h"
#include "controllerpersist_p.h"
#include "fetchstates_p.h"
#include "garbagecollector_p.h"
#include "heldwrites_p.h"
#include "inflighttable_p.h"
#include "optimisticlayers_p.h"
#include "outboxqueue_p.h"
#include "pollsubscriptions_p.h"
#include "validatortable_p.h"
#include "scheduler_p.h"
#include "shownkeys_p.h"

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>
#include <DataClient/store.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QPointer>

#include <memory>
#include <optional>

namespace DataClient {

class ControllerPrivate
{
public:
    explicit ControllerPrivate(Controller *controller);
    static ControllerPrivate *get(Controller *controller) { return controller->d.get(); }

    //! The cache key of \a endpoint + \a params, or the InvalidRequest error saying why there is
    //! none (null endpoint, malformed path, missing parameter). \a caller names the API in it.
    struct KeyOrError
    {
        QString key;
        std::optional<NetworkError> error;
    };
    static KeyOrError keyOf(const EndpointPtr &endpoint, const Params &params, const char *caller);
    //! The arguments the store identifies collections by: \a params without the pagination
    //! field, so every page of a list writes the same collection as getList.
    //! Whether a result-less key can be answered from the entity table (a read of an Entity
    //! or Collection schema).
    static bool canQueryEntityTable(const RestEndpoint &endpoint);
    //! Whether the entity a single-entity read shows is written by an optimistic layer whose
    //! request is still in flight.
    bool hiddenByPendingMutation(const RestEndpoint &endpoint, const Params &params) const;

    qint64 now() const;
    //! A request's send date: the clock, but strictly increasing, so that two requests sent in
    //! the same millisecond are still ordered (three rapid toggles must end on the last).
    qint64 nextRequestDate();
    Meta responseMeta(const RestEndpoint &endpoint, qint64 date) const;

    //! Controller::setResponse() for a QJsonValue or a CompactJson.
    template<typename Value>
    StoreWrite setResponse(const EndpointPtr &endpoint, const Params &params, const Value &value);

    //! After a commit: schedules a write of the persisted store, then emits changed() unless
    //! \a changes is empty.
    void emitChanged(const ChangeSet &changes);
    //! After a change of the optimistic layers only (shown, rolled back), which are never
    //! persisted: emits changed() unless \a changes is empty, and writes nothing.
    void emitOptimistic(const ChangeSet &changes);

    // Fetching (controllerfetch.cpp) -----------------------------------------------------------
    //! \a deferred: add the optimistic changes to it instead of emitting them (a held write
    //! released within the commit of its create).
    QFuture<QVariant> fetch(const EndpointPtr &endpoint, const Params &params,
                            const QJsonValue &body, ChangeSet *deferred = nullptr);
    static QFuture<QVariant> readyFuture(const QVariant &value);
    //! Starts \a request's network exchange (its first attempt or a retry), dated now unless
    //! fetch() dated it a moment ago. Returns what dating its optimistic layer changed of what
    //! is shown (the caller emits it).
    [[nodiscard]] ChangeSet send(detail::InFlightRequest &request);
    //! send() for a request that waited (its turn, its backoff, the network), then the signals:
    //! changed() for its layer, fetchStateChanged(). A slot may destroy the Controller.
    void sendWaiting(detail::InFlightRequest &request);
    //! Layer \a layer's request was sent at \a date, or waits again (OptimisticLayers::unsent);
    //! returns what that changed of what is shown.
    ChangeSet redateLayer(quint64 layer, qint64 date);
    //! A new caller of \a request: its own future (Qt 6.4 keeps one continuation per future).
    QFuture<QVariant> join(detail::InFlightRequest &request);
    //! Aborts \a request's network exchange at once (its answer then fails as Canceled). A
    //! finished future is left alone: in Qt 6.4, cancelling a finished future that has a
    //! continuation can cancel an unrelated newer one.
    void abort(detail::InFlightRequest &request);
    //! Shows the optimistic response of a mutation, if any; returns its layer id or 0 and sets
    //! \a changes (the caller emits them once the request is set up). A guess without a primary
    //! key gets a placeholder key, returned in \a placeholder (nullptr: no guess then).
    quint64 applyOptimistic(const RestEndpoint &endpoint, const Params &params,
                            const QJsonValue &body, qint64 date, ChangeSet *changes,
                            QString *placeholder);

    // Placeholder rows and held writes (controllerplaceholders.cpp) ----------------------------
    /*!
        A request naming placeholder keys (isPlaceholderKey()) is never sent with them: confirmed
        ones are replaced in \a params and \a body; a read of a waiting one is answered from the
        store, a write held until its create is confirmed (the returned future); a key whose
        create failed fails the call. nullopt: send the request (with \a params and \a body).
    */
    std::optional<QFuture<QVariant>> holdForPlaceholders(const EndpointPtr &endpoint,
                                                         Params *params, QJsonValue *body);
    //! The create showing \a request.placeholder was answered with \a answer: records the
    //! server's key and releases the writes that waited for it (their guesses go to \a changes).
    void confirmPlaceholder(const detail::InFlightRequest &request, const QVariant &answer,
                            ChangeSet *changes);
    //! That create failed with \a error: its held writes fail too, unsent; returns what removing
    //! their guesses changed.
    ChangeSet refusePlaceholder(const detail::InFlightRequest &request, const NetworkError &error);
    //! Every placeholder is forgotten and every held write canceled (reset, shutdown).
    void dropPlaceholders();
    //! A write of \a endpoint waiting for the rows \a waiting, its guess shown at once (what
    //! that changed goes to \a changes); \a since and \a idempotencyKey name it in the outbox
    //! file when \a durable. The caller holds it (held.hold()).
    std::shared_ptr<detail::HeldWrite> makeHeldWrite(const EndpointPtr &endpoint,
                                                     const Params &params, const QJsonValue &body,
                                                     const QSet<QString> &waiting, bool durable,
                                                     qint64 since, const QByteArray &idempotencyKey,
                                                     ChangeSet *changes);
    //! The held writes of endpoints that queue, as outbox file items (with waitingFor).
    QList<detail::OutboxItem> heldOutboxItems() const;
    //! Writes held before a restart (read from the outbox file into pendingHeld) are held
    //! again once their endpoint is known and their rows' creates are requests again (under
    //! this run's placeholder keys: renamedPlaceholders); one whose create is gone is dropped.
    void restoreHeldWrites(ChangeSet *changes);
    struct PendingHeld
    {
        detail::OutboxItem item;
        bool renamed = false; // its keys are this run's (all at once: never a mix)
    };
    QList<PendingHeld> pendingHeld;
    //! A create's placeholder key in the outbox file -> the one its row shows under now.
    QHash<QString, QString> renamedPlaceholders;
    //! ResponseState::pending of a read of \a endpoint + \a params showing \a state.
    bool showsPending(const ResponseState &state, const RestEndpoint &endpoint,
                      const Params &params) const;
    // Answers (controlleranswer.cpp) ----------------------------------------------------------
    //! The endpoint's future finished: convert or normalize a large answer on a worker, or
    //! complete().
    void onAnswer(quint64 id);
    //! A watcher of \a future owned by the Controller that calls \a slot on the Controller's
    //! thread when it finishes: destroying the Controller destroys the watcher, so no callback
    //! can reach a dead Controller.
    template<typename T, typename Slot>
    QFutureWatcher<T> *watch(const QFuture<T> &future, Slot slot)
    {
        auto *watcher = new QFutureWatcher<T>(q);
        QObject::connect(watcher, &QFutureWatcherBase::finished, q, std::move(slot));
        watcher->setFuture(future);
        return watcher;
    }
    //! The worker's job on a large answer finished.
    void onConverted(quint64 id);
    //! Takes the request out of flight and commits its answer (\a worked when a worker
    //! converted or prepared it) or fails it; resolves the caller's future.
    void complete(quint64 id, detail::BackgroundJson::Result *worked);
    //! Writes a successful answer (QJsonValue or CompactJson; \a prepared when it was
    //! normalized on a worker) and gives the caller its value (or fails it when the answer does
    //! not fit the schema). Returns whether the key's fetch state changed.
    template<typename Value>
    bool commit(detail::InFlightRequest &request, const Value &value,
                PreparedWrite *prepared = nullptr);
    //! What the callers of \a request get for its committed answer \a value: what the store now
    //! shows for it, read with the endpoint schema's answerSchema().
    template<typename Value>
    QVariant answerValue(const detail::InFlightRequest &request, const Params &args,
                         const Value &value, const Meta &meta);
    // Paged lists (controllerpages.cpp) --------------------------------------------------------
    //! A read of a later page: its endpoint's paginationField is among its params (the page
    //! lands in the list stored under the key without that field).
    static bool isPageRead(const detail::InFlightRequest &request);
    //! What a first-page answer of a paged list did to it (filled while it is written).
    struct FirstPageMerge
    {
        qsizetype answered = -1; //!< the answer's rows (-1: written as it is, counted after)
        qsizetype before = 0; //!< the rows stored before it
        bool derive = false; //!< no first page seen this run: derive the later pages
    };
    //! The schema \a request's answer is written with: a first-page answer of a paged list keeps
    //! the rows after the old first page behind it (\a merge then says what it wrote); otherwise
    //! \a schema.
    Schema pagedListSchema(const detail::InFlightRequest &request, const Schema &schema,
                           std::shared_ptr<FirstPageMerge> *merge);
    //! After a first-page answer of a paged list was written: records its size and reads the
    //! later pages again.
    void firstPageWritten(const detail::InFlightRequest &request, const FirstPageMerge &merge);
    //! The rows stored under \a request's key now (its list, or the list its result wraps).
    qsizetype storedRows(const detail::InFlightRequest &request);
    //! After a new first page of \a key was written: reads its later pages again (queued).
    void reloadLaterPages(const QString &key);
    /*!
        The date a change's answer is written with: when it arrives, not when the change was sent.
        A read sent before the answer arrived (while the change was waiting or on the wire) may
        have reached the server before the change, whatever the order of the two sends: the
        change's confirmed answer is newer than it, and a read sent after the answer arrived is
        newer than the change. A change answered after a change sent later was confirmed keeps its
        send date (it was applied before that one). The guesses of changes sent after it and
        not answered yet take dates after it (what that shows goes into \a changes).
    */
    qint64 confirmationDate(const detail::InFlightRequest &change, ChangeSet *changes);
    qint64 newestConfirmedChange = 0; //!< the send date of the newest change confirmed so far
    //! A paged list: later pages were merged into it, or a view pages it.
    struct PagedList
    {
        //! The rows its last first page gave, the later pages (and pushed rows) after them; -1
        //! while no first page was answered in this run (a list restored from disk).
        qsizetype firstPageRows = -1;
        QList<std::pair<EndpointPtr, Params>> pages; // the later pages' reads, in load order
        EndpointPtr pageEndpoint; // set by a view that pages it (notePagedList())
        Params listParams; // the list's params, for the later pages derived from a restored list
    };
    //! Key of a list -> its pages (only lists that later pages were merged into).
    QHash<QString, PagedList> pagedLists;
    //! Removes the request's layer, stores the error, fails the caller. Returns whether the
    //! key's fetch state changed.
    bool fail(detail::InFlightRequest &request, const NetworkError &error);
    //! Removes layer \a own (if any) and every layer the commit of \a committed at \a date makes
    //! obsolete; returns what that changed.
    ChangeSet removeLayers(quint64 own, qint64 date, const EntityRefSet &committed);
    //! Stops everything in flight (destruction): no callback runs afterwards.
    void shutdown();
    // HTTP validators (controllervalidators.cpp) ----------------------------------------------
    //! What a new \a request sends of its key's validators, and records of its answer.
    ConditionalRequest conditionalFor(const detail::InFlightRequest &request) const;
    //! \a request's answer was 304: keeps the stored result (expiry renewed), or refetches
    //! once without validators, or fails. Takes over the request's loading state and callers.
    void answeredNotModified(const std::shared_ptr<detail::InFlightRequest> &request);
    //! \a request's 2xx answer was stored under \a resultKey (empty: a newer one stays).
    void rememberValidators(const detail::InFlightRequest &request, const QString &resultKey);

    // Retries and waiting requests (controllerretry.cpp) ----------------------------------------
    //! \a request's attempt failed: when the failure is worth another attempt and attempts
    //! remain, waits (backoff) to send it again and returns true; false: the failure is final.
    bool retryLater(detail::InFlightRequest &request);
    //! The backoff of request \a id is over: sends it, or pauses it while offline.
    void retryNow(quint64 id);
    //! Ends a request that waits (backoff or paused) without an answer: its callers are
    //! canceled, nothing is stored. Emits fetchStateChanged when the key stops loading.
    void endWaiting(quint64 id, const char *why);
    //! Every waiting request ends canceled (resetEntireStore()).
    void endAllWaiting();
    //! The state of \a requestKey's read for getResponse(): paused, retrying, attempt.
    void readProgress(const QString &requestKey, ResponseState *state) const;

    // The outbox (controlleroutbox.cpp, docs/offline-outbox.md) -------------------------------
    //! Whether \a endpoint's calls go through the outbox: a mutation with queueWhenOffline.
    static bool queues(const RestEndpoint &endpoint);
    //! fetch() of such a mutation: records it in the outbox (and its file) before it is sent.
    void enqueue(detail::InFlightRequest &request);
    //! Makes \a request one of the outbox: sent with \a idempotencyKey on every attempt.
    static void markOutbox(detail::InFlightRequest &request, const QByteArray &idempotencyKey);
    //! Whether the failed attempt of outbox \a request is tried again whatever its attempts and
    //! callers: no answer (which queues it), or a 5xx / 408 / 429 once it is queued. Sets
    //! \a policy to the backoff to wait with.
    static bool outboxRetries(detail::InFlightRequest &request, const NetworkError &error,
                              RetryPolicy *policy);
    //! Whether a new outbox item may be sent at once: online, and no item waits before it.
    bool outboxIdle() const;
    //! Sends the next item when none is under way (online only, one at a time). An item that
    //! waited only for the network goes; one waiting out its backoff (a Retry-After included)
    //! keeps waiting, however often the network comes back.
    void pumpOutbox();
    //! \a request (of the outbox) was answered or ended: it leaves the outbox, the next goes.
    void outboxFinished(const detail::InFlightRequest &request);
    //! Items read from a file whose endpoint is known become requests (waiting for their turn).
    void resolveOutbox();
    //! Loads the outbox file at \a path (replaying its items) and writes every change there;
    //! an empty path: memory only.
    void setOutboxFile(const QString &path);
    //! Writes the outbox file (when one is set). When it cannot (a full disk), warns once and
    //! tries again later, until a write lands.
    void writeOutbox();
    //! The Controller ends: writes the outbox file if its last write failed.
    void flushOutbox();
    //! Drops every item (resetEntireStore()): requests still in flight leave the outbox.
    void clearOutbox();

    // Refetch triggers (controllertriggers.cpp) ------------------------------------------------
    bool offline() const { return !online; }
    //! Connectivity changed (or another source was set).
    void onOnline(bool isOnline);
    //! Sends the paused requests, refetches what is shown and stale, resumes polling.
    void reconnect();
    //! Queues a refetch of every shown or polled key that is not Valid; \a activation: only
    //! endpoints with refetchOnActivate. The queue drains a batch per event-loop turn.
    void refetchShown(bool activation);
    //! Fetches the next RefetchBatch queued keys that still need it; queues the rest for the
    //! next event-loop turn, so that 100 shown keys never stall the GUI thread in one turn.
    void drainRefetches();
    //! Connects QGuiApplication::applicationStateChanged, when there is one.
    void followApplicationState();
    //! Polling runs only while online and the application is not suspended or hidden.
    void updatePolling();

    // Garbage collection (controllergc.cpp) ----------------------------------------------------
    //! What garbage collection keeps: shown and polled keys (and, with \a released, keys let go
    //! less than a grace period ago), as keys and as reads of the entity table.
    struct GcRoots
    {
        QSet<QString> keys;
        QList<std::pair<Schema, Params>> reads;
        void add(const QString &key, const EndpointPtr &endpoint, const Params &params);
    };
    GcRoots gcRoots(bool released);
    //! The pass of Controller::collectGarbage(); returns how much it dropped.
    int collectGarbage();
    //! Schedules a pass after something changed what could be dropped; \a mayCancel: a key
    //! became referenced, so the pass scheduled may have nothing left to do (cancels it).
    void updateGcSchedule(bool mayCancel);
    //! Schedules a pass at \a due unless one is due earlier; -1 cancels it.
    void armGc(qint64 due);
    //! The last viewer of \a key went (unwatch, unsubscribe).
    void gcReleased(const QString &key, const EndpointPtr &endpoint, const Params &params);
    //! The store changed (changed() was emitted).
    void gcNoteChanges(const ChangeSet &changes);
    //! The store was hydrated with data written from \a oldest to \a newest: none of it is
    //! collected before it could be revalidated (gcRevalidatable()).
    void gcHydrated(qint64 oldest, qint64 newest);
    //! The network is there: the grace period of what was read from disk starts.
    void gcRevalidatable();

    // Persisted store (controllerpersist.cpp, docs/offline.md) -------------------------------
    //! The file the store is persisted in (absolute), empty while persistence is off or refused.
    //! Controller::persistenceChanged() is emitted when it changes (the outbox keeps
    //! `<path>.outbox` beside it).
    QString persistenceFilePath() const;
    //! Opens \a setting's file (hydrating an empty store from it) after closing the current one.
    void openPersistence(const QString &setting);
    //! Writes what is not on disk yet, synchronously (closing, destruction).
    void flushPersisted();
    //! Before reading or writing with \a endpoint's schema: its fingerprints are this run's, and
    //! a loaded file made with other schemas is dropped. \a resultKey (may be empty) is left out
    //! of the file when the endpoint has `persist: false`.
    void persistNote(const RestEndpoint &endpoint, const QString &resultKey = {});
    void persistNoteSchema(const Schema &schema);
    //! The store changed: a write is scheduled (at most one per persistIntervalMs).
    void persistDirty();
    void persistWrite();
    void persistWritten(const QString &error);
    std::unique_ptr<detail::PersistState> persist = std::make_unique<detail::PersistState>();

    Controller *q;
    QPointer<QNetworkAccessManager> network;
    std::unique_ptr<Store> store;
    Controller::Clock clock;
    qint64 lastRequestDate = 0;
    //! Incremented by resetEntireStore(); answers of older generations are dropped.
    quint64 generation = 0;
    bool shuttingDown = false;
    detail::InFlightTable inFlight;
    detail::FetchStates states;
    detail::OptimisticLayers layers;
    detail::HeldWrites held;
    detail::ValidatorTable validators;
    detail::PollSubscriptions *polls = nullptr;
    //! Everything that waits (polls, backoff) waits here (DESIGN.md §6).
    detail::Scheduler *scheduler = nullptr;
    Controller::RandomSource random;
    detail::ShownKeys shown;
    detail::GarbageCollector gc;
    QPointer<Connectivity> connectivity;
    QMetaObject::Connection connectivityConnection;
    bool online = true;
    Qt::ApplicationState applicationState = Qt::ApplicationActive;
    //! When the application stopped being active (clock time), -1 while active.
    qint64 inactiveSince = -1;
    int refetchOnActivateAfter = 30000;
    //! Shown keys waiting to be refetched (reconnect, activation), each once.
    QList<std::pair<EndpointPtr, Params>> refetchQueue;
    QSet<QString> refetchQueued;
    bool drainScheduled = false;
    static constexpr int RefetchBatch = 8;
    //! The pending changes (a child of q) and where they are kept.
    Outbox *outbox = nullptr;
    QString outboxFile;
    //! Writes of the outbox file that failed in a row (warned at the first), and the retry.
    int outboxWriteFailures = 0;
    quint64 outboxWriteRetry = 0;
    //! The outbox item sent or waiting out its backoff (one at a time), 0 when none.
    quint64 outboxSending = 0;
};

} // namespace DataClient
