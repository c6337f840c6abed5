// How the store and the models look into a RowList: how it is kept, and its identity (what a
// list patch is keyed by).
#pragma once

#include <DataClient/rowlist.h>

namespace DataClient {

struct RowListInternals
{
    //! How \a rows are kept: 0 (empty), 1 (one list), or the number of chunks.
    static qsizetype chunkCount(const RowList &rows) noexcept { return rows.chunkCount(); }
    //! The list's identity: the same for its copies (and, for one list, for copies of that
    //! QVariantList), another once a row is replaced or the list is edited.
    static const void *identity(const RowList &rows) noexcept { return rows.identity(); }
};

} // namespace DataClient
