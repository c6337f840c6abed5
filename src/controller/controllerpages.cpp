// Paged lists (docs/pagination.md): every page of a list is merged into the one result stored
// under the list's key. A later answer for the first page (a refetch after expiry, a mutation,
// a reconnect) must not cut the list back to that page: the rows of the later pages already
// merged stay after it, without duplicates, so a view never shows fewer rows than it loaded
// and its `hasMore` stays true where the server has more. The later pages are then read again,
// each once, so rows that moved between pages (a row deleted or added before them) show.
#include "controller_p.h"
#include "logging_p.h"

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
                                          std::shared_ptr<qsizetype> *firstRows)
{
    const Schema collection = schema.collectionSchema();
    if (!request.read || collection.kind() != Schema::Kind::Collection)
        return schema;
    if (isPageRead(request)) {
        auto known = pagedLists.find(request.key);
        if (known == pagedLists.end()) {
            // The first later page of this list: what is stored now is what the first page gave.
            known = pagedLists.insert(request.key, PagedList {storedRows(request), {}});
        }
        const std::pair<EndpointPtr, Params> page {request.endpoint, request.params};
        if (!known->pages.contains(page))
            known->pages.append(page);
        return schema;
    }
    const auto known = pagedLists.find(request.key);
    if (known == pagedLists.end() || collection.collectionMode() != Schema::CollectionMode::Replace)
        return schema; // no later page was merged: the answer is the whole list
    if (!store->hasResult(request.key)) {
        // The list went meanwhile (collected, invalidated away): this answer starts it anew.
        pagedLists.erase(known);
        return schema;
    }
    const qsizetype laterPagesStart = known->firstPageRows;
    auto written = std::make_shared<qsizetype>(-1);
    *firstRows = written;
    // The new first page, then the stored rows that came after the old first page (later pages,
    // and rows pushed onto the list since) that the new first page does not hold. The old first
    // page's rows that the answer no longer holds go: deleted, or moved onto a later page (read
    // again next, reloadLaterPages()).
    return schema.addWith(
        [laterPagesStart, written](const QStringList &existing, const QStringList &incoming) {
            *written = incoming.size();
            QStringList merged = incoming;
            QSet<QString> seen(incoming.cbegin(), incoming.cend());
            for (qsizetype i = laterPagesStart; i < existing.size(); ++i) {
                if (!seen.contains(existing.at(i))) {
                    seen.insert(existing.at(i));
                    merged.append(existing.at(i));
                }
            }
            return merged;
        });
}

void ControllerPrivate::reloadLaterPages(const QString &key)
{
    const auto known = pagedLists.constFind(key);
    if (known == pagedLists.cend() || known->pages.isEmpty())
        return;
    qCDebug(lcController).noquote() << "a new first page of" << key << "; reading"
                                    << known->pages.size() << "later page(s) again";
    // Queued: the first page's commit finishes (and its callers resolve) first. Each page joins
    // a read of it already in flight; its answer is merged like any page (no duplicates).
    QMetaObject::invokeMethod(
        q,
        [this, pages = known->pages, started = generation] {
            if (started != generation)
                return; // the store was reset: no list to merge into
            for (const auto &[endpoint, params] : pages)
                fetch(endpoint, params, QJsonValue());
        },
        Qt::QueuedConnection);
}

} // namespace DataClient
