// RestEndpoint's private state, shared by restendpoint.cpp and restendpointfetch.cpp.
#pragma once

#include <DataClient/conditionalrequest.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QMutex>

namespace DataClient {

struct RestEndpoint::Private
{
    EndpointOptions options;
    PathTemplate path;
    QString error;
    // The last key() of a plain RestEndpoint and its params (RestEndpoint::key()); any thread
    // may ask for keys, hence the mutex.
    QMutex keyMutex;
    Params lastKeyParams;
    QString lastKey;
};

namespace detail {
//! "GET getList http://host/path" style prefix for messages about one endpoint.
QString describeEndpoint(const RestEndpoint &endpoint);
//! Whether the default parseResponse() reads \a response's body as JSON: a body, not 204, and a
//! JSON content type or an endpoint with a schema (which expects JSON whatever the type says).
bool isJsonBody(const Response &response, bool hasSchema);
//! The default parseResponse(): what a 2xx \a response holds (see RestEndpoint::parseResponse).
//! Throws NetworkError (InvalidResponse, 400) for a body that is not the JSON it should be.
//! Uses nothing of the endpoint, so it may run on any thread.
QJsonValue readResponseBody(const Response &response, bool hasSchema, const QString &schemaKey);
//! Throws NetworkError (InvalidResponse, 400) when \a response's Content-Type names a charset
//! other than UTF-8 (or its subset US-ASCII): JSON is read as UTF-8 only (RFC 8259).
void requireUtf8Json(const Response &response);
//! \a context's ConditionalRequest when \a endpoint uses validators (its option `validators`),
//! else a null one: what its answer records (docs/networking.md).
ConditionalRequest conditionalRequestOf(const RestEndpoint &endpoint,
                                        const RequestContext &context);
} // namespace detail

} // namespace DataClient
