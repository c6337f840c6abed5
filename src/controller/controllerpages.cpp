// Paged lists (docs/pagination.md): every page of a list is merged into the one result stored
// under the list's key. A later answer for the first page (a refetch after expiry, a mutation,
// a reconnect, an invalidation) must not cut the list back to that page: the rows stored after
// the old first page (later pages, rows pushed since) stay after it, without duplicates, so a
// view never shows fewer rows than it loaded and its `hasMore` stays true where the server has
// more. The later pages are then read again, each once, so rows that moved between pages (a row
// deleted or added before them) show. A list is known as paged once a later page was read, or
// while a view pages it (detail::notePagedList()); a list restored from disk gets its later
// pages derived from its length.
#include "controller_p.h"
#include "logging_p.h"

#include <DataClient/private/pagedlists_p.h>
#include <DataClient/rowlist.h>

#include <QtCore/QSet>

namespace DataClient {

using detail::InFlightRequest;

bool ControllerPrivate::isPageRead(const InFlightRequest &request)
{
    const QString field = request.endpoint->paginationField();
    return request.read && !field.isEmpty() && request.params.contains(field);
}

qsizetype ControllerPrivate::storedRows(const InFlightRequest &request)
{
    const Denormalized stored = store->denormalize(
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

Schema ControllerPrivate::pagedListSchema(const InFlightRequest &request, const Schema &schema,
                                          std::shared_ptr<FirstPageMerge> *merge)
{
    const Schema collection = schema.collectionSchema();
    if (!request.read || collection.kind() != Schema::Kind::Collection)
        return schema;
    if (isPageRead(request)) {
        auto known = pagedLists.find(request.key);
        if (known == pagedLists.end()) {
            // The first later page of this list: what is stored now is what the first page gave.
            known = pagedLists.insert(request.key, PagedList {});
            known->firstPageRows = storedRows(request);
        }
        const std::pair<EndpointPtr, Params> page {request.endpoint, request.params};
        if (!known->pages.contains(page))
            known->pages.append(page);
        return schema;
    }
    const auto known = pagedLists.constFind(request.key);
    if (known == pagedLists.cend()
        || collection.collectionMode() != Schema::CollectionMode::Replace)
        return schema; // not paged: the answer is the whole list
    auto state = std::make_shared<FirstPageMerge>();
    *merge = state;
    // A list stored before any first page of this run (restored from disk): its first page had
    // as many rows as this one, as far as can be known.
    state->derive = known->firstPageRows < 0 && store->hasResult(request.key);
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

void ControllerPrivate::firstPageWritten(const InFlightRequest &request,
                                         const FirstPageMerge &merge)
{
    const auto known = pagedLists.find(request.key);
    if (known == pagedLists.end())
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

void ControllerPrivate::reloadLaterPages(const QString &key)
{
    const auto known = pagedLists.constFind(key);
    if (known == pagedLists.cend() || known->pages.isEmpty())
        return;
    qCDebug(lcController).noquote() << "a new first page of" << key << "; reading"
                                    << known->pages.size() << "later page(s) again";
    // Queued: the first page's commit finishes (and its callers resolve) first. Each page joins
    // a read of it already in flight; its answer is merged like any page (no duplicates). The
    // key loads from now on, so no view takes the list for complete in between.
    states.startLoading(key);
    QMetaObject::invokeMethod(
        q,
        [this, key, pages = known->pages, started = generation] {
            if (started != generation)
                return; // the store was reset: no list to merge into (nor its loading state)
            for (const auto &[endpoint, params] : pages)
                fetch(endpoint, params, QJsonValue());
            if (states.finishLoading(key))
                Q_EMIT q->fetchStateChanged(key);
        },
        Qt::QueuedConnection);
}

void detail::notePagedList(Controller *controller, const QString &key,
                           const EndpointPtr &pageEndpoint, const Params &listParams)
{
    ControllerPrivate *d = ControllerPrivate::get(controller);
    ControllerPrivate::PagedList &list = d->pagedLists[key];
    list.pageEndpoint = pageEndpoint;
    list.listParams = listParams;
}

detail::ListPages detail::listPages(const Controller *controller, const QString &key)
{
    const ControllerPrivate *d = ControllerPrivate::get(const_cast<Controller *>(controller));
    const auto known = d->pagedLists.constFind(key);
    if (known == d->pagedLists.cend() || known->firstPageRows <= 0)
        return {};
    return {int(1 + known->pages.size()), int(known->firstPageRows)};
}

} // namespace DataClient
