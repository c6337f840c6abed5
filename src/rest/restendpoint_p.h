// RestEndpoint's private state, shared by restendpoint.cpp and restendpointfetch.cpp.
#pragma once

#include <DataClient/restendpoint.h>

namespace DataClient {

struct RestEndpoint::Private
{
    EndpointOptions options;
    PathTemplate path;
    QString error;
};

namespace detail {
//! "GET getList http://host/path" style prefix for messages about one endpoint.
QString describeEndpoint(const RestEndpoint &endpoint);
} // namespace detail

} // namespace DataClient
