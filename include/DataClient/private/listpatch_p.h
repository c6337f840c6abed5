// How the store's memo made a list from the list it returned before: "list B is list A
// with rows {r} replaced". A model showing A learns from it that only rows {r} can differ in B,
// and compares those instead of all N rows (a 1M-row list changed by one entity).
#pragma once

#include <DataClient/global.h>
#include <DataClient/rowlist.h>

#include <QtCore/QList>
#include <QtCore/QVariant>

#include <optional>

namespace DataClient::detail {

struct ListPatch
{
    //! RowList::identity() of the list the rows were replaced in (it may be gone).
    const void *from = nullptr;
    //! listPatchClock() when it was made: only a list adopted before then can be `from` (an
    //! address alone could be a later list allocated where `from` was freed).
    quint64 made = 0;
    QList<qsizetype> rows; //!< ascending, the rows of `to` whose item was replaced
};

//! The clock of list patches now. Whoever keeps a list to compare with a later one notes it then.
DATACLIENT_STORE_EXPORT quint64 listPatchClock();

//! The patch that made \a to, if the store's memo made it by replacing rows of a previous list
//! (and \a to is still that memo's current value).
DATACLIENT_STORE_EXPORT std::optional<ListPatch> listPatchOf(const RowList &to);

//! For the store's list views: records that \a to (held by the registry until forgotten) is the
//! list \a from with \a rows replaced; forgetListPatch() drops it. Thread-safe.
void recordListPatch(const RowList &to, const void *from, QList<qsizetype> rows);
void forgetListPatch(const void *to);

} // namespace DataClient::detail
