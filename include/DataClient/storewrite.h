// StoreWrite: the outcome of one store write.
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/schemaerror.h>

#include <optional>

namespace DataClient {

struct StoreWrite
{
    //! What changed; empty on error or when the write changed nothing.
    ChangeSet changes;
    //! Set when the value does not fit the schema: then nothing was written.
    std::optional<SchemaError> error;

    bool ok() const { return !error.has_value(); }
};

} // namespace DataClient
