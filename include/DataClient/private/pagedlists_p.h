// Private API of the controller layer for views that page a list (CollectionModel): the
// Controller keeps the rows after a new first page of a list it knows is paged, and tells how
// many pages the stored list holds (docs/pagination.md "Refetching a paged list").
#pragma once

#include <DataClient/global.h>
#include <DataClient/params.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QString>

namespace DataClient {
class Controller;
}

namespace DataClient::detail {

/*!
    A view pages the list stored under \a key (read with \a listParams) with \a pageEndpoint:
    from now on a first-page answer keeps the rows after the old first page (later pages, rows
    pushed since), and a list restored from disk gets its later pages read again.
*/
DATACLIENT_CONTROLLER_EXPORT void notePagedList(Controller *controller, const QString &key,
                                                const EndpointPtr &pageEndpoint,
                                                const Params &listParams);

//! The pages the list stored under a key holds: the first one included, and its first page's rows.
struct ListPages
{
    int pages = 0; //!< 0 when not known
    int firstPageRows = 0;
};
DATACLIENT_CONTROLLER_EXPORT ListPages listPages(const Controller *controller, const QString &key);

} // namespace DataClient::detail
