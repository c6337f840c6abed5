// CollectionModel: a live query of one endpoint + params as a list model, for Qt Widgets views
// (and the base of the QML Suspense / Live types).
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/global.h>
#include <DataClient/networkerror.h>
#include <DataClient/params.h>
#include <DataClient/resource.h>

#include <QtCore/QAbstractListModel>
#include <QtCore/QStringList>
#include <QtCore/QVariant>

#include <memory>
#include <optional>

namespace DataClient {

class CellWriter;

class Controller;
class CollectionModelPrivate;

/*!
    Shows what a Controller stores for one endpoint + params, and keeps it current:

    \code
    auto *model = new DataClient::CollectionModel(controller, todos.getList,
                                                  {{u"userId"_s, 1}}, this);
    model->setPageEndpoint(todos.getList.getPage);   // enables loadMore() / fetchMore()
    model->setColumns({u"title"_s, u"completed"_s});  // QTableView columns (default: 1 column)
    tableView->setModel(model);
    \endcode

    It fetches when nothing fresh is stored (and again after the key is invalidated or expired),
    and re-reads the store after every Controller::changed() that touches its result or one of
    its entity types. When the result holds a list (a Collection, an array, or an object wrapping
    one, like {results, total}) the rows are its items; otherwise there are no rows and value()
    holds the result (a single entity).

    Precise signals: a store change is turned into the smallest model signals — one changed
    entity gives one dataChanged() for its row with only the roles whose values changed; an
    added entity one rowsInserted(); a removed one rowsRemoved(); a reorder rowsMoved(). The
    model is reset only when it is re-targeted (another endpoint, params or controller) to a key
    with data stored, or with keepPrevious() off.

    Kept data: re-targeted to a key with nothing stored, the model keeps showing the rows and
    value it showed, with isPlaceholder() and isLoading() true, while the new key's read is
    under way; the new rows then replace them through the same precise signals (no reset, no
    empty list in between). An error for the new key ends the placeholder: its rows are removed
    and the error shows. A read that does not go out (paused offline, isPaused()) or waits out a
    backoff (isRetrying()) ends it too: the model then shows what is stored for the new key,
    often nothing, never another key's rows as this key's. Placeholder rows are not editable
    (flags() without Qt::ItemIsEnabled, setData() refuses). setKeepPrevious(false) restores an
    empty model at once.

    Roles: `entity` (EntityRole: the whole denormalized record), `pending` (PendingRole: the row
    shows an optimistic change the server has not confirmed yet; it flips to false with one
    dataChanged() when the answer comes) and one role per declared field of the list's entity
    schema (its primary key field, fields with defaults, deserialized and nested fields; a field
    named `entity` or `pending` is read through `entity`), in roleNames(). Qt::DisplayRole gives
    the field of the column (see setColumns()).

    Optimistic creates: a row created without a primary key shows at once under a placeholder
    key; when the server answers, the same row becomes the server's entity (one dataChanged(),
    no removal and insertion, so views keep their delegates and selection).

    Editing: setEditable(todos) makes the shown columns editable (flags()); setData() sends a
    partialUpdate of that one field with the row's primary key. On an optimistic resource the
    row shows the new value at once (one dataChanged()); a refusal (4xx/5xx) rolls it back (one
    more dataChanged()) and emits writeFailed(). A value that does not fit the field (a word into
    a number) is refused: setData() returns false and nothing is sent. Boolean columns are check
    boxes (Qt::CheckStateRole, no display text); QDateTime columns show a localized text in
    Qt::DisplayRole and give the QDateTime in Qt::EditRole (a date editor in a QTableView).

    Threads: GUI thread only, like the Controller.
*/
class DATACLIENT_MODELS_EXPORT CollectionModel : public QAbstractListModel
{
    Q_OBJECT
    //! Idle, Loading (nothing to show yet), Ready (data to show) or Error.
    Q_PROPERTY(Status status READ status NOTIFY statusChanged)
    //! The whole denormalized result (also while stale or refetching), entities as JS objects
    //! (QVariantMap); null before any. For long lists prefer the model's rows.
    Q_PROPERTY(QVariant data READ dataValue NOTIFY valueChanged)
    //! The error to show: {status, statusText, message, body, url, kind}, or null.
    Q_PROPERTY(QVariant error READ errorValue NOTIFY errorChanged)
    //! A request for this key is in flight (also a background refetch or a page); always true
    //! while a placeholder shows.
    Q_PROPERTY(bool loading READ isLoading NOTIFY loadingChanged)
    //! The shown data is past its expiry (a refetch is under way or due).
    Q_PROPERTY(bool stale READ isStale NOTIFY staleChanged)
    //! The key's read waits for connectivity (offline); the data shown stays.
    Q_PROPERTY(bool paused READ isPaused NOTIFY pausedChanged)
    //! The key's read failed and waits to try again (backoff); the data shown stays.
    Q_PROPERTY(bool retrying READ isRetrying NOTIFY retryingChanged)
    //! The attempt of the key's read under way or waited for (1, 2, ...); 0 when none.
    Q_PROPERTY(int attempt READ attempt NOTIFY attemptChanged)
    //! false: the model does nothing (Idle); true (default): it queries.
    Q_PROPERTY(bool enabled READ isEnabled WRITE setEnabled NOTIFY enabledChanged)
    //! Subscribes to polling (Controller::subscribe) while active: the `Live` QML type.
    Q_PROPERTY(bool live READ isLive WRITE setLive NOTIFY liveChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    //! A further page may exist (a page endpoint is set and the last page added as many rows
    //! as the first; false after a short page or a 404 on a later page). A refetch of the list
    //! keeps the pages loaded and hasMore (docs/pagination.md).
    Q_PROPERTY(bool hasMore READ hasMore NOTIFY hasMoreChanged)
    //! loadMore() is waiting for its page.
    Q_PROPERTY(bool loadingMore READ isLoadingMore NOTIFY loadingMoreChanged)
    //! The last page load's error ({status, statusText, message, body, url, kind}, like
    //! `error`), or null: a page's failure is the page's, the rows shown stay and so does
    //! hasMore; retryPage() asks for that page again. A 404 on a later page is no error: it ends
    //! hasMore (a page past the end).
    Q_PROPERTY(QVariant pageError READ pageErrorValue NOTIFY pageErrorChanged)
    //! Fields shown as columns (Qt::DisplayRole, headerData()); empty: one column.
    Q_PROPERTY(QStringList columns READ columns WRITE setColumns NOTIFY columnsChanged)
    //! The rows and value shown are those of the key shown before, kept while the new key's
    //! first read is under way (see keepPrevious). Such rows are not the current key's: they
    //! are not editable (flags() without Qt::ItemIsEnabled: views grey them), and a view
    //! should show them dimmed and refuse edits of them.
    Q_PROPERTY(bool placeholder READ isPlaceholder NOTIFY placeholderChanged)
    //! true (default): re-targeted to a key with nothing stored, keep showing the previous
    //! rows as a placeholder while its read is under way (not while it is paused offline or
    //! waits to retry); false: show an empty model at once.
    Q_PROPERTY(
        bool keepPrevious READ keepsPrevious WRITE setKeepPrevious NOTIFY keepPreviousChanged)
    //! What the model shows includes an optimistic change the server has not confirmed yet
    //! (ResponseState::pending; per row: the `pending` role).
    Q_PROPERTY(bool pending READ isPending NOTIFY pendingChanged)
    //! setData() writes through an endpoint (see setEditable()).
    Q_PROPERTY(bool editable READ isEditable NOTIFY editableChanged)

public:
    enum Status { Idle, Loading, Ready, Error };
    Q_ENUM(Status)
    //! PendingRole (`pending`): the row shows an unconfirmed optimistic change
    //! (Record::isPending()): a row created under a placeholder key, or an optimistic edit.
    enum Role { EntityRole = Qt::UserRole + 1, PendingRole, FirstFieldRole };
    //! How setEditable(Resource) writes a cell: a PATCH of the field, or a PUT of the record.
    enum class WriteMethod { PartialUpdate, Update };
    Q_ENUM(WriteMethod)

    //! An idle model: set a controller, an endpoint and params to start.
    explicit CollectionModel(QObject *parent = nullptr);
    //! Starts at once: cached data shows immediately, a fetch runs if nothing fresh is stored.
    CollectionModel(Controller *controller, const EndpointPtr &endpoint, const Params &params = {},
                    QObject *parent = nullptr);
    ~CollectionModel() override;

    Controller *controller() const;
    void setController(Controller *controller);
    EndpointPtr endpoint() const;
    void setEndpoint(const EndpointPtr &endpoint);
    Params params() const;
    void setParams(const Params &params);
    //! The getPage endpoint loadMore() uses (e.g. resource.getList.getPage).
    EndpointPtr pageEndpoint() const;
    void setPageEndpoint(const EndpointPtr &endpoint);

    Status status() const;
    //! The result as the store gives it (entities as DataClient::Record).
    QVariant value() const;
    //! value() with every Record converted to a QVariantMap (the `data` property; cached).
    QVariant dataValue() const;
    std::optional<NetworkError> networkError() const;
    QVariant errorValue() const;
    bool isLoading() const;
    bool isStale() const;
    bool isPaused() const;
    bool isRetrying() const;
    bool isPending() const;
    int attempt() const;
    bool isEnabled() const;
    void setEnabled(bool enabled);
    bool isLive() const;
    void setLive(bool live);
    int count() const;
    bool hasMore() const;
    bool isLoadingMore() const;
    //! The last page load's failure (see `pageError`); empty after a page answered.
    std::optional<NetworkError> pageNetworkError() const;
    QVariant pageErrorValue() const;
    QStringList columns() const;
    void setColumns(const QStringList &columns);
    //! The rows and value() are the previous key's, kept until this key's first answer.
    bool isPlaceholder() const;
    bool keepsPrevious() const;
    //! false: a re-target to a key with nothing stored empties the model at once (and ends a
    //! placeholder being shown).
    void setKeepPrevious(bool keep);
    //! The cache key the model shows ("GET http://host/todos?userId=1"); empty when idle.
    QString key() const;

    /*!
        Makes the columns \a fields (empty: every column but the primary key) editable, written
        through \a resource's partialUpdate (PATCH of the one field) or, with WriteMethod::Update,
        its update (PUT of the whole record with the field replaced). The row's primary key
        fills the write path's last parameter; its other parameters come from params().
    */
    void setEditable(const Resource &resource, const QStringList &fields = {},
                     WriteMethod method = WriteMethod::PartialUpdate);
    /*!
        The same, but each edit is sent by \a writer (not owned; it must outlive the model, or
        be replaced first) instead of the Controller: an UndoRecorder (DataClient::Undo) makes
        every cell edit a command of its undo stack.
    */
    void setEditable(const Resource &resource, CellWriter *writer, const QStringList &fields = {},
                     WriteMethod method = WriteMethod::PartialUpdate);
    //! Writes through \a writeEndpoint (PATCH: the field alone; another method: the record);
    //! a null endpoint makes the model read-only again. \a writer as above (nullptr: the
    //! Controller sends).
    void setEditable(const EndpointPtr &writeEndpoint, const QStringList &fields = {},
                     CellWriter *writer = nullptr);
    //! What sends the edits (setEditable()), or nullptr for the Controller.
    CellWriter *cellWriter() const;
    bool isEditable() const;
    EndpointPtr writeEndpoint() const;
    //! The fields setEditable() was given (empty: every shown column but the primary key).
    QStringList editableFields() const;

    //! The record of \a row as a QVariantMap (EntityRole), or null.
    Q_INVOKABLE QVariant get(int row) const;
    //! Fetches the next page with pageEndpoint() (page numbers: 2, 3, ...). Does nothing while
    //! a page is in flight, when there is no page endpoint, or after the last page (!hasMore).
    Q_INVOKABLE void loadMore();
    //! Asks again for the page whose load failed (pageError); does nothing without one.
    Q_INVOKABLE void retryPage();
    //! Fetches again now, whatever is stored (the retry after an error).
    Q_INVOKABLE void refetch();

    // QAbstractItemModel
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    //! Qt::EditRole (any editable column) or Qt::CheckStateRole (boolean columns): sends the
    //! change (see setEditable()) and returns true; false when the cell is not editable or the
    //! value does not fit the field (nothing is sent). An unchanged value sends nothing.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void statusChanged();
    void valueChanged();
    void errorChanged();
    void loadingChanged();
    void staleChanged();
    void pausedChanged();
    void retryingChanged();
    void pendingChanged();
    void attemptChanged();
    void enabledChanged();
    void liveChanged();
    void countChanged();
    void hasMoreChanged();
    void loadingMoreChanged();
    void pageErrorChanged();
    void columnsChanged();
    void placeholderChanged();
    void keepPreviousChanged();
    //! The model now shows another key (endpoint, params or controller changed).
    void retargeted();
    void editableChanged();
    //! The server refused the write setData() sent for \a index (rolled back by then); \a index
    //! is invalid when the row is gone.
    void writeFailed(const QModelIndex &index, const DataClient::NetworkError &error);

protected:
    //! For subclasses that configure themselves first (QML: until componentComplete()): while
    //! held, changes are recorded but nothing is read or fetched.
    void setHeld(bool held);
    bool isHeld() const;
    //! Reports a configuration mistake as the model's error (status Error); empty clears it.
    void setConfigurationError(const QString &message);

private:
    friend class CollectionModelPrivate;
    std::unique_ptr<CollectionModelPrivate> d;
};

} // namespace DataClient
