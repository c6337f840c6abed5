// Paged lists (docs/pagination.md): every page of a list is merged into the one result stored
// under the list's key. A later answer for the first page (a refetch after expiry, a mutation,
// a reconnect, an invalidation) must not cut the list back to that page: the rows stored after
// the old first page (later pages, rows pushed since) stay after it, without duplicates, so a
// view never shows fewer rows than it loaded and its `hasMore` stays true where the server has
// more. The later pages are then read again, each once, so rows that moved between pages (a row
// deleted or added before them) show. A list is known as paged once a later page was read, or
// while a view pages it (detail::notePagedList()); a list restored from disk gets its later
// pages derived from its length.
#pragma once

#include "lifecycle_p.h"

#include <QtCore/QHash>

namespace DataClient::detail {

class PageManager final : public Lifecycle
{
public:
    explicit PageManager(ControllerPrivate &core);

    //! A first-page answer of a paged list keeps the rows after the old first page behind it.
    Schema writeSchema(InFlightRequest &request, const Schema &schema) override;
    //! After a first-page answer of a paged list was written: records its size and reads the
    //! later pages again.
    void committed(InFlightRequest &request, Commit *commit) override;
    //! A later page's failure is the page's (CollectionModel::pageError), not the list's error.
    void failed(InFlightRequest &request, const NetworkError &error, Failure *failure) override;
    void requestEnded(const InFlightRequest &request) override;
    //! Read again, a dropped list starts anew.
    void resultsDropped(const QSet<QString> &keys) override;
    void reset() override;

    //! A read of a later page: its endpoint's paginationField is among its params (the page
    //! lands in the list stored under the key without that field).
    static bool isPageRead(const InFlightRequest &request);

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
    QHash<QString, PagedList> lists;

private:
    //! What a first-page answer of a paged list did to it (filled while it is written).
    struct FirstPageMerge
    {
        qsizetype answered = -1; //!< the answer's rows (-1: written as it is, counted after)
        qsizetype before = 0; //!< the rows stored before it
        bool derive = false; //!< no first page seen this run: derive the later pages
    };
    //! The rows stored under \a request's key now (its list, or the list its result wraps).
    qsizetype storedRows(const InFlightRequest &request);
    //! After a new first page of \a key was written: reads its later pages again (queued).
    void reloadLaterPages(const QString &key);

    QHash<quint64, std::shared_ptr<FirstPageMerge>> m_merges; // by request id
};

} // namespace DataClient::detail
