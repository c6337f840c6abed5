#include "pagemanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"

#include <DataClient/private/pagedlists_p.h>
#include <DataClient/rowlist.h>

#include <QtCore/QSet>

namespace DataClient::detail {

PageManager::PageManager(ControllerPrivate &core)
    : Lifecycle(core, WriteSchema | Committed | Failed | RequestEnded | ResultsDropped | Reset)
{ }

void PageManager::failed(InFlightRequest &request, const NetworkError &, Failure *failure)
{
    m_merges.remove(request.id);
    if (isPageRead(request))
        failure->keysError = false;
}

void PageManager::requestEnded(const InFlightRequest &request)
{
    m_merges.remove(request.id);
}

void PageManager::resultsDropped(const QSet<QString> &keys)
{
    for (const QString &key : keys)
        lists.remove(key);
}

void PageManager::reset()
{
    lists.clear(); // the lists whose pages they counted are gone
    m_merges.clear();
}

bool PageManager::isPageRead(const InFlightRequest &request)
{
    const QString field = request.endpoint->paginationField();
    return request.read && !field.isEmpty() && request.params.contains(field);
}

qsizetype PageManager::storedRows(const InFlightRequest &request)
{
    const Denormalized stored = core.store->denormalize(
        request.key, request.endpoint->schema(), request.endpoint->storeArguments(request.params));
    if (!stored.found)
        return 0;
    bool isList = false;
    if (const RowList rows = rowsOf(stored.data, &isList); isList)
        return rows.size();
    // A wrapper such as {results: [...], next: ...}: the list is one of its fields.
    const QVariantMap wrapper = stored.data.toMap();
    for (auto it = wrapper.cbegin(); it != wrapper.cend(); ++it) {
        if (const RowList rows = rowsOf(*it, &isList); isList)
            return rows.size();
    }
    return 0;
}

Schema PageManager::writeSchema(InFlightRequest &request, const Schema &schema)
{
    const Schema collection = schema.collectionSchema();
    if (!request.read || collection.kind() != Schema::Kind::Collection)
        return schema;
    if (isPageRead(request)) {
        auto known = lists.find(request.key);
        if (known == lists.end()) {
            // The first later page of this list: what is stored now is what the first page gave.
            known = lists.insert(request.key, PagedList {});
            known->firstPageRows = storedRows(request);
        }
        const std::pair<EndpointPtr, Params> page {request.endpoint, request.params};
        if (!known->pages.contains(page))
            known->pages.append(page);
        return schema;
    }
    const auto known = lists.constFind(request.key);
    if (known == lists.cend() || collection.collectionMode() != Schema::CollectionMode::Replace)
        return schema; // not paged: the answer is the whole list
    auto state = std::make_shared<FirstPageMerge>();
    m_merges.insert(request.id, state);
    // A list stored before any first page of this run (restored from disk): its first page had
    // as many rows as this one, as far as can be known.
    state->derive = known->firstPageRows < 0 && core.store->hasResult(request.key);
    const qsizetype laterPagesStart = known->firstPageRows;
    // The new first page, then the stored rows that came after the old first page (later pages,
    // and rows pushed onto the list since) that the new first page does not hold. The old first
    // page's rows that the answer no longer holds go: deleted, or moved onto a later page (read
    // again next, reloadLaterPages()).
    return schema.addWith(
        [laterPagesStart, state](const QStringList &existing, const QStringList &incoming) {
            state->answered = incoming.size();
            state->before = existing.size();
            QStringList merged = incoming;
            QSet<QString> seen(incoming.cbegin(), incoming.cend());
            for (qsizetype i = laterPagesStart < 0 ? incoming.size() : laterPagesStart;
                 i < existing.size(); ++i) {
                if (!seen.contains(existing.at(i))) {
                    seen.insert(existing.at(i));
                    merged.append(existing.at(i));
                }
            }
            return merged;
        });
}

void PageManager::committed(InFlightRequest &request, Commit *)
{
    const std::shared_ptr<FirstPageMerge> written = m_merges.take(request.id);
    if (!written)
        return;
    const FirstPageMerge &merge = *written;
    const auto known = lists.find(request.key);
    if (known == lists.end())
        return;
    const qsizetype rows = merge.answered >= 0 ? merge.answered : storedRows(request);
    if (merge.derive && known->pageEndpoint && rows > 0) {
        // The later pages of a restored list are not on record: as many as its rows after the
        // first page fill, numbered from 2.
        const QString field = known->pageEndpoint->paginationField();
        const qsizetype later = (std::max<qsizetype>(0, merge.before - rows) + rows - 1) / rows;
        for (qsizetype number = 2; number < 2 + later; ++number) {
            Params params = known->listParams;
            params.insert(field, int(number));
            const std::pair<EndpointPtr, Params> page {known->pageEndpoint, params};
            if (!known->pages.contains(page))
                known->pages.append(page);
        }
    }
    known->firstPageRows = rows;
    reloadLaterPages(request.key);
}

void PageManager::reloadLaterPages(const QString &key)
{
    const auto known = lists.constFind(key);
    if (known == lists.cend() || known->pages.isEmpty())
        return;
    qCDebug(lcController).noquote() << "a new first page of" << key << "; reading"
                                    << known->pages.size() << "later page(s) again";
    // Queued: the first page's commit finishes (and its callers resolve) first. Each page joins
    // a read of it already in flight; its answer is merged like any page (no duplicates). The
    // key loads from now on, so no view takes the list for complete in between.
    core.states.startLoading(key);
    QMetaObject::invokeMethod(
        core.q,
        [this, key, pages = known->pages, started = core.generation] {
            if (started != core.generation)
                return; // the store was reset: no list to merge into (nor its loading state)
            for (const auto &[endpoint, params] : pages)
                core.fetch(endpoint, params, QJsonValue());
            if (core.states.finishLoading(key))
                Q_EMIT core.q->fetchStateChanged(key);
        },
        Qt::QueuedConnection);
}

} // namespace DataClient::detail

namespace DataClient {

void detail::notePagedList(Controller *controller, const QString &key,
                           const EndpointPtr &pageEndpoint, const Params &listParams)
{
    PageManager::PagedList &list = ControllerPrivate::get(controller)->managers->pages->lists[key];
    list.pageEndpoint = pageEndpoint;
    list.listParams = listParams;
}

detail::ListPages detail::listPages(const Controller *controller, const QString &key)
{
    const QHash<QString, PageManager::PagedList> &lists
        = ControllerPrivate::get(controller)->managers->pages->lists;
    const auto known = lists.constFind(key);
    if (known == lists.cend() || known->firstPageRows <= 0)
        return {};
    return {int(1 + known->pages.size()), int(known->firstPageRows)};
}

} // namespace DataClient
