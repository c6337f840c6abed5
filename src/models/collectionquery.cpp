// CollectionModel as a query: which key it shows, reading the Controller's state for it,
// fetching when nothing fresh is stored, polling (live) and paging (loadMore).
#include "collectionmodel_p.h"
#include <DataClient/private/futurewatch_p.h>
#include <DataClient/private/pagedlists_p.h>
#include "logging_p.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QMetaEnum>

using namespace Qt::StringLiterals;

namespace DataClient {

QVariant errorToVariant(const std::optional<NetworkError> &error)
{
    if (!error)
        return QVariant::fromValue(nullptr);
    const QJsonValue json = error->json();
    const char *kind = QMetaEnum::fromType<NetworkError::Kind>().valueToKey(int(error->kind()));
    return QVariantMap {
        {u"status"_s, error->status()},
        {u"statusText"_s, error->statusText()},
        {u"message"_s, error->message()},
        {u"body"_s, json.isUndefined() ? QVariant(error->bodyText()) : json.toVariant()},
        {u"url"_s, error->url().toString()},
        {u"kind"_s, QString::fromLatin1(kind)},
    };
}

bool CollectionModelPrivate::isActive() const
{
    return active && controller && endpoint;
}

void CollectionModelPrivate::retarget()
{
    ++generation;
    QObject::disconnect(changedConnection);
    QObject::disconnect(fetchStateConnection);
    active = false;
    key.clear();
    std::optional<NetworkError> targetError;

    if (!configurationError.isEmpty()) {
        targetError = NetworkError(NetworkError::Kind::InvalidRequest, 0, configurationError);
    } else if (!held && enabled && controller && endpoint) {
        QString why;
        key = endpoint->key(params, &why);
        if (key.isEmpty()) {
            targetError = NetworkError(
                NetworkError::Kind::InvalidRequest, 0,
                u"%1 (%2): cannot read with these params: %3"_s.arg(
                    endpoint->name().isEmpty() ? endpoint->path() : endpoint->name(),
                    endpoint->methodName(), why.isEmpty() ? endpoint->errorString() : why));
        } else if (endpoint->sideEffect()) {
            targetError = NetworkError(
                NetworkError::Kind::InvalidRequest, 0,
                u"%1 is a mutation (%2): a query only reads; call mutations with "
                "Controller.fetch()"_s.arg(endpoint->name(), endpoint->methodName()));
            key.clear();
        } else {
            active = true;
        }
    }

    const RowShape shapeBefore = rowShape();
    configureRows(endpoint ? endpoint->schema() : Schema());
    limitKeptTo(shapeBefore);
    watchedEntityKeys = endpoint ? endpoint->schema().reachedKeys() : QSet<QString>();
    pagesLoaded = 0;
    firstPageSize = 0;
    autoFetchesWithoutData = 0;
    setLoadingMore(false);
    setHasMore(false);
    setPageError(std::nullopt);

    if (active) {
        if (const EndpointPtr page = pagingEndpoint())
            detail::notePagedList(controller, key, page, params);
        // The read starts before the first publish: whether the previous rows may stand in
        // depends on it (a read that is paused, offline, shows no other key's rows). What it
        // changes at once is in the state read after it.
        ResponseState state = controller->getResponse(endpoint, params);
        if (!state.loading && state.status != ExpiryStatus::Valid) {
            const quint64 target = generation;
            fetchNow(false);
            if (target != generation)
                return; // an application slot re-targeted the model meanwhile
            state = controller->getResponse(endpoint, params);
        }
        changedConnection = QObject::connect(controller, &Controller::changed, q,
                                             [this](const ChangeSet &c) { onStoreChanged(c); });
        fetchStateConnection
            = QObject::connect(controller, &Controller::fetchStateChanged, q,
                               [this](const QString &k) { onFetchStateChanged(k); });
        publish(state, targetError, true);
        updateSubscription();
        Q_EMIT q->retargeted();
    } else {
        publish(ResponseState(), targetError, true);
        updateSubscription();
        Q_EMIT q->retargeted();
    }
}

void CollectionModelPrivate::refresh(FetchPolicy policy)
{
    if (!isActive())
        return;
    const ResponseState state = controller->getResponse(endpoint, params);
    publish(state, std::nullopt, false);
    if (state.found)
        autoFetchesWithoutData = 0;
    // Refetch what was invalidated or expired meanwhile — but never retry an error by itself
    // (that is refetch(), a retarget or an invalidation), and give up on a key whose answers
    // never produce data, so a misbehaving endpoint cannot make the model fetch in a loop.
    qCDebug(lcModels).noquote() << "refresh" << key << "found" << state.found << "status"
                                << int(state.status) << "loading" << state.loading << "error"
                                << state.error.has_value();
    if (policy == FetchPolicy::IfNeeded && !state.loading && !state.error
        && state.status != ExpiryStatus::Valid && autoFetchesWithoutData < 2) {
        if (!state.found)
            ++autoFetchesWithoutData;
        fetchNow(false);
    }
}

void CollectionModelPrivate::publish(const ResponseState &state,
                                     const std::optional<NetworkError> &targetError, bool reset)
{
    // While the key has nothing to show yet, the previous key's rows stand in (keepPrevious).
    const ResponseState kept = keptState(state, targetError);
    const bool keeping = kept.found;
    const QVariant newValue = keeping ? kept.data : state.found ? state.data : QVariant();
    bool isList = false;
    const RowList list = listIn(newValue, &isList);
    // Re-targeted to the key already shown (back from a placeholder, or a page endpoint set):
    // the rows are that key's own, and the diff leaves them alone.
    const bool resetNow = reset && !keeping && shownKey != key;
    bool rowsChanged = resetNow;
    if (resetNow)
        resetRows(list);
    else
        rowsChanged = syncRows(list);
    if (!keeping)
        setShownKey(state.found);
    if (isList && state.found && !keeping && pagingEndpoint()) {
        if (pagesLoaded == 0) {
            pagesLoaded = 1;
            firstPageSize = int(rows.size());
            setHasMore(!rows.isEmpty());
        }
        // The stored list may hold more pages than this view loaded (another view, a restored
        // list, a refetch that read the later pages again): the next page is the one after.
        const detail::ListPages stored = detail::listPages(controller, key);
        if (stored.pages > 0) {
            pagesLoaded = std::max(pagesLoaded, stored.pages);
            firstPageSize = stored.firstPageRows;
        }
    }

    // A binding on `data` fires once per real change: the store's memoized read returns the
    // identical container when nothing changed, and equal content is not a change either.
    if (!sameShared(newValue, value)) {
        // (changed rows already prove a change: skip comparing a long list item by item)
        const bool changed
            = rowsChanged || newValue.metaType() != value.metaType() || newValue != value;
        QVariant before = std::exchange(value, newValue);
        qmlValue.reset();
        if (changed)
            Q_EMIT q->valueChanged();
        dropValue(std::move(before)); // often the last reference to the previous list
    }

    std::optional<NetworkError> newError = targetError;
    if (!newError && state.showsError())
        newError = state.error;
    const bool errorChanged = newError.has_value() != error.has_value()
        || (newError && error
            && (newError->message() != error->message() || newError->status() != error->status()
                || newError->body() != error->body()));
    error = newError;

    CollectionModel::Status newStatus = CollectionModel::Idle;
    if (error)
        newStatus = CollectionModel::Error;
    else if (isActive())
        newStatus = state.hasData() || keeping ? CollectionModel::Ready : CollectionModel::Loading;

    // A placeholder is loading by definition, also in the instant before its fetch starts.
    const bool newLoading = isActive() && (state.loading || keeping);
    const bool newStale
        = isActive() && !keeping && state.found && state.status == ExpiryStatus::Stale;
    if (errorChanged)
        Q_EMIT q->errorChanged();
    if (newLoading != loading) {
        loading = newLoading;
        Q_EMIT q->loadingChanged();
    }
    if (newStale != stale) {
        stale = newStale;
        Q_EMIT q->staleChanged();
    }
    setPlaceholder(keeping);
    // The read's progress on a real network: one notification per change.
    const auto update = [this](auto &field, auto value, void (CollectionModel::*changed)()) {
        if (field != value) {
            field = value;
            Q_EMIT(q->*changed)();
        }
    };
    update(paused, isActive() && state.paused, &CollectionModel::pausedChanged);
    update(retrying, isActive() && state.retrying, &CollectionModel::retryingChanged);
    update(pending, isActive() && !keeping && state.pending, &CollectionModel::pendingChanged);
    update(attempt, isActive() ? state.attempt : 0, &CollectionModel::attemptChanged);
    if (newStatus != status) {
        status = newStatus;
        Q_EMIT q->statusChanged();
    }
}

void CollectionModelPrivate::onStoreChanged(const ChangeSet &changes)
{
    if (!isActive())
        return;
    bool touches = changes.results.contains(key)
        || (placeholder && changes.results.contains(shownKey)); // the kept rows' own key
    for (auto it = watchedEntityKeys.cbegin(); !touches && it != watchedEntityKeys.cend(); ++it)
        touches = changes.entities.containsKey(*it); // no pk strings made
    if (touches)
        refresh(FetchPolicy::IfNeeded);
}

void CollectionModelPrivate::onFetchStateChanged(const QString &changedKey)
{
    if (isActive() && changedKey == key)
        refresh(FetchPolicy::IfNeeded);
}

void CollectionModelPrivate::fetchNow(bool force)
{
    if (!isActive())
        return;
    // The outcome arrives through changed() / fetchStateChanged(); the future is kept only to
    // be canceled when the model goes.
    fetching
        = force ? controller->fetch(endpoint, params) : controller->fetchIfStale(endpoint, params);
}

void CollectionModelPrivate::updateWatch()
{
    const bool same
        = watchedEndpoint == endpoint && watchedParams == params && watchedController == controller;
    if (watchedEndpoint && (!isActive() || !same)) {
        if (watchedController)
            watchedController->unwatch(watchedEndpoint, watchedParams);
        watchedEndpoint.reset();
        watchedParams.clear();
        watchedController = nullptr;
    }
    if (isActive() && !watchedEndpoint && controller->watch(endpoint, params)) {
        watchedEndpoint = endpoint;
        watchedParams = params;
        watchedController = controller;
    }
}

void CollectionModelPrivate::updateSubscription()
{
    updateWatch();
    const bool want = isActive() && live && endpoint->pollFrequency() > 0;
    const bool same = subscribedEndpoint == endpoint && subscribedParams == params
        && subscribedController == controller;
    if (subscribedEndpoint && (!want || !same)) {
        if (subscribedController)
            subscribedController->unsubscribe(subscribedEndpoint, subscribedParams);
        subscribedEndpoint.reset();
        subscribedParams.clear();
        subscribedController = nullptr;
    }
    if (want && !subscribedEndpoint) {
        if (controller->subscribe(endpoint, params)) {
            subscribedEndpoint = endpoint;
            subscribedParams = params;
            subscribedController = controller;
        }
    } else if (isActive() && live && endpoint->pollFrequency() <= 0) {
        qCWarning(lcModels).noquote()
            << u"Live query of %1: the endpoint has no pollFrequency, so it is read once"_s.arg(
                   endpoint->name().isEmpty() ? endpoint->path() : endpoint->name());
    }
}

EndpointPtr CollectionModelPrivate::pagingEndpoint() const
{
    if (pageEndpoint)
        return pageEndpoint;
    return endpoint && !endpoint->paginationField().isEmpty() ? endpoint : EndpointPtr();
}

void CollectionModelPrivate::loadMore()
{
    const EndpointPtr page = pagingEndpoint();
    if (!isActive() || loadingMore || !page || pagesLoaded == 0 || !hasMore)
        return; // hasMore is false after the last (short) page
    Params pageParams = params;
    const int number = pagesLoaded + 1;
    pageParams.insert(page->paginationField(), number);
    const quint64 target = generation;
    const int rowsBefore = int(rows.size());
    setLoadingMore(true);
    Models::watchFuture(
        q, controller->fetch(page, pageParams),
        [this, target, number, rowsBefore](const QVariant &answer) {
            // A page resolves with its own items (not the whole list).
            bool isList = false;
            finishPage(target, number, rowsBefore, int(listIn(answer, &isList).size()),
                       std::nullopt);
        },
        [this, target, number, rowsBefore](const NetworkError &error) {
            finishPage(target, number, rowsBefore, 0, error);
        });
}

void CollectionModelPrivate::finishPage(quint64 target, int number, int rowsBefore, int pageRows,
                                        const std::optional<NetworkError> &failure)
{
    if (target != generation)
        return; // an answer for a key the model no longer shows
    setLoadingMore(false);
    if (failure && failure->kind() == NetworkError::Kind::Canceled)
        return; // nobody waits for it any more; loadMore() asks again
    if (failure && failure->status() == 404) {
        // A page past the end (Django REST Framework answers 404 "Invalid page." there): the
        // list is complete.
        setPageError(std::nullopt);
        setHasMore(false);
        return;
    }
    // Any other failure is the page's, not the list's: the rows stay, hasMore too, and
    // retryPage() (or loadMore()) asks for the same page again.
    setPageError(failure);
    if (failure)
        return;
    pagesLoaded = std::max(pagesLoaded, number); // publish() may have counted it already
    // A full page: the server may have more (its rows may already be shown: merged, no
    // duplicates).
    // A page that adds no row at all ends the list: a server that ignores the page field must
    // not make the list page for ever.
    const bool added = int(rows.size()) > rowsBefore;
    setHasMore(added && pageRows > 0 && pageRows >= firstPageSize);
    // Rows went from the pages before this one since they were read (deleted, also while this
    // page was read): the server's list moved up by as many, so this page began after rows
    // nobody read. Reading the list again (its first page, then each page loaded:
    // docs/pagination.md) brings them.
    // (Not after a page that added nothing: that server ignores the page field.)
    if (added && int(rows.size()) - pageRows < (number - 1) * firstPageSize)
        fetchNow(true);
}

void CollectionModelPrivate::setPageError(const std::optional<NetworkError> &failure)
{
    if (!pageError && !failure)
        return;
    pageError = failure;
    Q_EMIT q->pageErrorChanged();
}

void CollectionModelPrivate::setLoadingMore(bool value)
{
    if (loadingMore == value)
        return;
    loadingMore = value;
    Q_EMIT q->loadingMoreChanged();
}

void CollectionModelPrivate::setHasMore(bool value)
{
    if (hasMore == value)
        return;
    hasMore = value;
    Q_EMIT q->hasMoreChanged();
}

} // namespace DataClient
