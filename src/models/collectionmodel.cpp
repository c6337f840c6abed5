// CollectionModel: the public API and the QAbstractItemModel side. The query logic is in
// collectionquery.cpp, the row synchronisation in collectionrows.cpp.
#include "collectionmodel_p.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QThread>

namespace DataClient {

CollectionModel::CollectionModel(QObject *parent)
    : QAbstractListModel(parent), d(std::make_unique<CollectionModelPrivate>(this))
{
    d->configureRows(Schema());
}

CollectionModel::CollectionModel(Controller *controller, const EndpointPtr &endpoint,
                                 const Params &params, QObject *parent)
    : CollectionModel(parent)
{
    d->endpoint = endpoint;
    d->params = params;
    if (controller)
        setController(controller); // retargets
    else
        d->retarget();
}

CollectionModel::~CollectionModel()
{
    d->active = false;
    d->updateSubscription(); // leave the poll timer of the key to other subscribers
    // A read that waits to retry is not sent for a model that is gone (unless others wait).
    if (!d->fetching.isFinished())
        d->fetching.cancel();
}

Controller *CollectionModel::controller() const
{
    return d->controller;
}

void CollectionModel::setController(Controller *controller)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->controller == controller)
        return;
    disconnect(d->controllerDestroyedConnection);
    d->controller = controller;
    if (controller) {
        // A destroyed controller leaves the model idle rather than dangling.
        d->controllerDestroyedConnection
            = connect(controller, &QObject::destroyed, this, [this] { d->retarget(); });
    }
    d->retarget();
}

EndpointPtr CollectionModel::endpoint() const
{
    return d->endpoint;
}

void CollectionModel::setEndpoint(const EndpointPtr &endpoint)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->endpoint == endpoint)
        return;
    d->endpoint = endpoint;
    d->retarget();
}

Params CollectionModel::params() const
{
    return d->params;
}

void CollectionModel::setParams(const Params &params)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->params == params)
        return;
    d->params = params;
    d->retarget();
}

EndpointPtr CollectionModel::pageEndpoint() const
{
    return d->pageEndpoint;
}

void CollectionModel::setPageEndpoint(const EndpointPtr &endpoint)
{
    if (d->pageEndpoint == endpoint)
        return;
    d->pageEndpoint = endpoint;
    d->retarget();
}

CollectionModel::Status CollectionModel::status() const
{
    return d->status;
}

QVariant CollectionModel::value() const
{
    return d->value;
}

QVariant CollectionModel::dataValue() const
{
    if (!d->qmlValue)
        d->qmlValue = toQmlValue(d->value);
    return *d->qmlValue;
}

std::optional<NetworkError> CollectionModel::networkError() const
{
    return d->error;
}

QVariant CollectionModel::errorValue() const
{
    return errorToVariant(d->error);
}

bool CollectionModel::isLoading() const
{
    return d->loading;
}

bool CollectionModel::isStale() const
{
    return d->stale;
}

bool CollectionModel::isPaused() const
{
    return d->paused;
}

bool CollectionModel::isRetrying() const
{
    return d->retrying;
}

bool CollectionModel::isPending() const
{
    return d->pending;
}

int CollectionModel::attempt() const
{
    return d->attempt;
}

bool CollectionModel::isEnabled() const
{
    return d->enabled;
}

void CollectionModel::setEnabled(bool enabled)
{
    if (d->enabled == enabled)
        return;
    d->enabled = enabled;
    Q_EMIT enabledChanged();
    d->retarget();
}

bool CollectionModel::isLive() const
{
    return d->live;
}

void CollectionModel::setLive(bool live)
{
    if (d->live == live)
        return;
    d->live = live;
    Q_EMIT liveChanged();
    d->updateSubscription();
}

int CollectionModel::count() const
{
    return int(d->rows.size());
}

bool CollectionModel::hasMore() const
{
    return d->hasMore;
}

bool CollectionModel::isLoadingMore() const
{
    return d->loadingMore;
}

std::optional<NetworkError> CollectionModel::pageNetworkError() const
{
    return d->pageError;
}

QVariant CollectionModel::pageErrorValue() const
{
    return errorToVariant(d->pageError);
}

QStringList CollectionModel::columns() const
{
    return d->columns;
}

void CollectionModel::setColumns(const QStringList &columns)
{
    if (d->columns == columns)
        return;
    // The column count is structure: tell views with a layout change, not a reset.
    const int before = columnCount();
    const int after = columns.isEmpty() ? 1 : int(columns.size());
    if (after > before)
        beginInsertColumns(QModelIndex(), before, after - 1);
    else if (after < before)
        beginRemoveColumns(QModelIndex(), after, before - 1);
    d->columns = columns;
    if (after > before)
        endInsertColumns();
    else if (after < before)
        endRemoveColumns();
    if (!d->rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(d->rows.size()) - 1, after - 1),
                           {Qt::DisplayRole, Qt::EditRole});
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, after - 1);
    Q_EMIT columnsChanged();
}

bool CollectionModel::isPlaceholder() const
{
    return d->placeholder;
}

bool CollectionModel::keepsPrevious() const
{
    return d->keepPrevious;
}

void CollectionModel::setKeepPrevious(bool keep)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->keepPrevious == keep)
        return;
    d->keepPrevious = keep;
    Q_EMIT keepPreviousChanged();
    if (d->placeholder)
        d->refresh(CollectionModelPrivate::FetchPolicy::Never); // the kept rows go at once
}

QString CollectionModel::key() const
{
    return d->key;
}

QVariant CollectionModel::get(int row) const
{
    if (row < 0 || row >= d->rows.size())
        return {};
    return toQmlValue(d->rows.at(row));
}

void CollectionModel::loadMore()
{
    DATACLIENT_ASSERT_THREAD(this);
    d->loadMore();
}

void CollectionModel::retryPage()
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->pageError)
        d->loadMore();
}

void CollectionModel::refetch()
{
    DATACLIENT_ASSERT_THREAD(this);
    if (d->isActive())
        d->fetchNow(true);
    else if (!d->held)
        d->retarget(); // e.g. the controller or params became usable meanwhile
}

int CollectionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(d->rows.size());
}

int CollectionModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return d->columns.isEmpty() ? 1 : int(d->columns.size());
}

QVariant CollectionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return d->roleValue(d->rows.at(index.row()), role, index.column());
}

QVariant CollectionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0
        && section < columnCount())
        return d->columns.isEmpty() ? QVariant(d->pkField) : QVariant(d->columns.at(section));
    return QAbstractListModel::headerData(section, orientation, role);
}

QHash<int, QByteArray> CollectionModel::roleNames() const
{
    return d->roles;
}

bool CollectionModel::canFetchMore(const QModelIndex &parent) const
{
    // Not after a page failed: a view asks again at once, so a failing page would be asked
    // for in a loop; retryPage() asks for it.
    return !parent.isValid() && d->isActive() && d->hasMore && !d->loadingMore && d->status == Ready
        && !d->pageError;
}

void CollectionModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        d->loadMore();
}

void CollectionModel::setHeld(bool held)
{
    if (d->held == held)
        return;
    d->held = held;
    d->retarget();
}

bool CollectionModel::isHeld() const
{
    return d->held;
}

void CollectionModel::setConfigurationError(const QString &message)
{
    if (d->configurationError == message)
        return;
    d->configurationError = message;
    d->retarget();
}

} // namespace DataClient
