// Private state of CollectionModel, split by concern: collectionquery.cpp (targeting, reading the
// Controller, fetching, paging), collectionrows.cpp (turning a new list into model signals) and
// collectionplaceholder.cpp (keeping the previous key's rows while the new key loads).
#pragma once

#include <DataClient/cellwriter.h>
#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/entityschema.h>
#include <DataClient/responsestate.h>
#include <DataClient/rowlist.h>
#include <DataClient/schema.h>
#include <DataClient/private/testexport_p.h>

#include <DataClient/private/variantaccess_p.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QPointer>
#include <QtCore/QSet>

namespace DataClient {

// Exported only so the unit tests can drive the row synchronisation directly (tst_collectionrows).
class DATACLIENT_TEST_EXPORT CollectionModelPrivate
{
public:
    explicit CollectionModelPrivate(CollectionModel *model) : q(model) { }
    static CollectionModelPrivate *get(CollectionModel *model) { return model->d.get(); }

    // --- collectionquery.cpp -----------------------------------------------------------------
    //! Recomputes the target (key, schema facts) after an input changed; resets the model when
    //! the key changes, then reads the store and fetches if needed.
    void retarget();
    enum class FetchPolicy { IfNeeded, Never };
    //! Reads the Controller's state for the current key and publishes it (value, rows, status).
    void refresh(FetchPolicy policy);
    //! Publishes \a state: rows (reset or precise), value, error, status, loading, stale.
    void publish(const ResponseState &state, const std::optional<NetworkError> &targetError,
                 bool reset);
    void loadMore();
    //! The endpoint that reads the next pages (the page endpoint, or a paged endpoint itself).
    EndpointPtr pagingEndpoint() const;
    void onStoreChanged(const ChangeSet &changes);
    void onFetchStateChanged(const QString &key);
    void updateSubscription();
    //! Registers the shown key with Controller::watch() while active (and unregisters).
    void updateWatch();
    void fetchNow(bool force);
    //! Page \a number answered \a pageRows rows (\a failure empty) or failed: hasMore, pageError.
    //! \a rowsBefore: the rows shown when it was asked for.
    //! \a answer: the page's answer (what a pagination preset says of the next page).
    void finishPage(quint64 generation, int number, int rowsBefore, int pageRows,
                    const std::optional<NetworkError> &failure, const QVariant &answer = {});
    //! What a list answer read by a pagination preset says: `hasMore` (when the server said
    //! it) and the next page's value (`next`), kept for loadMore().
    std::optional<bool> readPageSays(const QVariant &answer);
    void setPageError(const std::optional<NetworkError> &failure);
    bool isActive() const;
    void setLoadingMore(bool loadingMore);
    void setHasMore(bool hasMore);

    // --- collectionplaceholder.cpp ------------------------------------------------------------
    //! The row layout retarget() compares to tell whether the shown rows can stand in for the
    //! new target's (a view cannot change its roles without a reset).
    struct RowShape
    {
        QHash<int, QByteArray> roles;
        int listPlace = 0;
        QString listField;
        bool operator==(const RowShape &) const = default;
    };
    RowShape rowShape() const;
    //! Called by retarget() once the new target is known: forgets the shown key when its rows
    //! cannot stand in for the new key's (keepPrevious off, other rows, another controller).
    void limitKeptTo(const RowShape &shapeBefore);
    //! The shown key's state when it stands in for \a state (the current key's, with nothing
    //! stored and no error yet); a state with nothing found otherwise.
    ResponseState keptState(const ResponseState &state,
                            const std::optional<NetworkError> &targetError) const;
    //! Records where the rows now come from: the current key when \a found, else nowhere.
    void setShownKey(bool found);
    void setPlaceholder(bool placeholder);

    // --- collectionrows.cpp ------------------------------------------------------------------
    //! Learns, from the endpoint's schema, where the list is and which roles its rows have.
    void configureRows(const Schema &schema);
    //! The list inside \a value (or null when the result holds none).
    RowList listIn(const QVariant &value, bool *isList) const;
    //! Turns the current rows into \a items with the smallest signals (no reset). Returns
    //! whether any row changed.
    bool syncRows(const RowList &items);
    //! Adopts \a items (rows already in place) and emits dataChanged for the rows whose item is
    //! not the same snapshot and differs; returns whether any was emitted.
    //! With \a only, just those rows can differ (the store's list patch said so).
    bool updateChangedRows(const RowList &items, const QList<qsizetype> *only = nullptr);
    //! Lets go of \a value; a long list only it still holds is freed with its rows' Records
    //! prefetched ahead (at 1M rows each is a cache miss: QList's destructor waits for each).
    static void dropValue(QVariant &&value);
    //! Makes \a items the shown list.
    void adoptRows(const RowList &items);
    //! Gives the server's entity of a confirmed placeholder row (Controller::confirmedKey()) the
    //! placeholder's key in \a rawKeys, so the diff keeps that row in place (one dataChanged).
    //! Returns whether it did.
    bool keepConfirmedRows(const QStringList &oldRawKeys, QStringList *rawKeys) const;
    //! Replaces every row (only when re-targeted).
    void resetRows(const RowList &items);
    QString rowKey(const QVariant &item, int index) const;
    QList<int> changedRoles(const QVariant &before, const QVariant &after) const;
    QVariant roleValue(const QVariant &item, int role, int column) const;

    // --- collectionedit.cpp ------------------------------------------------------------------
    QString columnField(int column) const;
    bool isEditableColumn(int column) const;
    //! The CellEdit of \a field of \a item, sent to the cell writer.
    CellEdit cellEdit(const QVariant &item, const QString &field, const Params &writeTo,
                      const QJsonObject &body) const;
    //! The field's value in \a item, or its schema default when null: what a new value must fit.
    QVariant fieldType(const QVariant &item, const QString &field) const;
    //! A shown column's value for \a role: check state for booleans, localized dates.
    static QVariant columnValue(const QVariant &fieldValue, int role);
    //! The write endpoint's parameters for the row \a item (empty when it has no pk).
    Params writeParams(const QVariant &item) const;
    bool writeCell(const QModelIndex &index, const QVariant &value, int role);

    CollectionModel *q;

    // inputs
    QPointer<Controller> controller;
    EndpointPtr endpoint;
    EndpointPtr pageEndpoint;
    Params params;
    bool enabled = true;
    bool live = false;
    bool held = false;
    QString configurationError;
    QStringList columns;
    bool keepPrevious = true;
    EndpointPtr writeEndpoint; // setEditable(): null while read-only
    QStringList editableFields;
    bool writeWholeRecord = false; // PUT: the record with the field replaced
    CellWriter *cellWriter = nullptr; // setEditable(..., writer): sends instead of the Controller

    // target (what the model currently shows)
    bool active = false;
    QString key;
    QSet<QString> watchedEntityKeys; // entity/collection keys whose changes may touch the result
    QMetaObject::Connection controllerDestroyedConnection;
    QMetaObject::Connection changedConnection;
    QMetaObject::Connection fetchStateConnection;
    EndpointPtr subscribedEndpoint;
    Params subscribedParams;
    QPointer<Controller> subscribedController;
    // The key registered with Controller::watch(): refetched on reconnect and activation.
    EndpointPtr watchedEndpoint;
    Params watchedParams;
    QPointer<Controller> watchedController;
    //! The model's own read (canceled when the model is destroyed).
    QFuture<QVariant> fetching;
    int autoFetchesWithoutData = 0;
    quint64 generation
        = 0; // bumped on every retarget: late page answers for an old key are ignored

    // published state
    CollectionModel::Status status = CollectionModel::Idle;
    QVariant value;
    mutable std::optional<QVariant> qmlValue; // value with Records as maps, made on first read
    std::optional<NetworkError> error;
    bool loading = false;
    bool stale = false;
    bool paused = false;
    bool retrying = false;
    bool pending = false;
    int attempt = 0;
    bool hasMore = false;
    bool loadingMore = false;
    std::optional<NetworkError> pageError; // the last page load's failure, until it succeeds
    int pagesLoaded = 0;
    // A pagination preset's value of the next page (a number or a cursor), null when the
    // server named none; the values of the pages loaded, to stop at a cursor that repeats.
    QVariant nextPage;
    QSet<QString> pagesRead;
    int firstPageSize = 0;

    // kept data: the key the rows and value come from (the current key, or while `placeholder`
    // the key shown before it); empty when nothing is shown
    bool placeholder = false;
    QString shownKey;
    EndpointPtr shownEndpoint;
    Params shownParams;
    QPointer<Controller> shownController;

    // rows: the list as the store returned it, shared (showing N rows costs no per-row work).
    // A row's key is a function of its item and place (rowKey()), computed only when a diff
    // needs it: neither kept nor sorted for a list that only ever changes in place.
    RowList rows;
    quint64 rowsSince = 0; // detail::listPatchClock() when `rows` was adopted
    RowList shownList; // the list the rows were last synced to (the same list once synced)
    //! The unique keys of \a items (rowKey() + occurrence), for a diff.
    QStringList rawKeysOf(const RowList &items) const;
    enum class ListPlace { None, Self, Field };
    ListPlace listPlace = ListPlace::None;
    QString listField;
    QString pkField;
    EntitySchema rowEntity;
    //! The Union of the rows, when they are one: a `type` role (the member's name) and the
    //! roles of every member's fields; rows are keyed by entity key and pk.
    Schema rowUnion;
    int typeField = -1; // index in roleFields of the `type` role of a Union's rows
    QStringList roleFields; // role FirstFieldRole + i shows field roleFields[i]
    QHash<int, QByteArray> roles;
};

} // namespace DataClient
