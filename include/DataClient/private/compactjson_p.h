// Access to the Node tree inside a CompactJson, for the store.
#pragma once

#include <DataClient/compactjson.h>

#include <DataClient/private/node_p.h>

namespace DataClient::detail {

struct CompactJsonAccess
{
    static const Node *holder(const CompactJson &json) { return json.m_holder; }
    static CompactJson make(NodeRef holder)
    {
        CompactJson json;
        json.m_holder = holder.take();
        return json;
    }
};

} // namespace DataClient::detail
