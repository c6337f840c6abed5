// createResource(): the entry point — one options object in, a Resource out.
#pragma once

#include <DataClient/global.h>
#include <DataClient/resource.h>
#include <DataClient/resourceoptions.h>
#include <DataClient/schema.h>

namespace DataClient {

/*!
    Builds the members (get, getList, push, unshift, getPage, update, partialUpdate, delete)
    around \a options.schema. Check Resource::isValid(): a missing
    schema, a malformed path or a path without a parameter (no getList path can be derived) give
    an invalid resource whose errorString() names the option, the value and what was expected.
*/
DATACLIENT_REST_EXPORT Resource createResource(const ResourceOptions &options);

//! The same, with the schema of Q_GADGET \c T (Schema::entity<T>()) when options.schema is null.
template<typename T> Resource createResource(ResourceOptions options)
{
    if (options.schema.isNull())
        options.schema = Schema::entity<T>();
    return createResource(options);
}

} // namespace DataClient
