// EndpointOptions: everything a RestEndpoint is built from (docs/rest.md, docs/hooks.md),
// and EndpointOverrides: the subset extend() changes.
#pragma once

#include <DataClient/global.h>
#include <DataClient/params.h>
#include <DataClient/requestinit.h>
#include <DataClient/retrypolicy.h>
#include <DataClient/schema.h>
#include <DataClient/serverconventions.h>

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace DataClient {

class RestEndpoint;
class Store;
struct EndpointOptions;

//! How long a stored answer stays fresh unless an endpoint says otherwise (`dataExpiryLength`), ms.
inline constexpr int DefaultDataExpiryLength = 60000;
//! How long a stored error stays fresh unless an endpoint says otherwise (`errorExpiryLength`), ms.
inline constexpr int DefaultErrorExpiryLength = 1000;

//! Endpoints are shared, immutable QObjects.
using EndpointPtr = std::shared_ptr<RestEndpoint>;
//! Builds an endpoint of some RestEndpoint subclass (the resource option `Endpoint`).
using EndpointFactory = std::function<EndpointPtr(const EndpointOptions &options)>;
//! The `process` option: transforms the parsed response before normalization.
using ProcessFunction = std::function<QJsonValue(const QJsonValue &value, const Params &params)>;
//! The `getOptimisticResponse` option: the value to show before the server answers, or
//! std::nullopt for no optimistic change. \a store (may be null) is the committed data, to read
//! the entity being changed.
using OptimisticFunction = std::function<std::optional<QJsonValue>(
    const Params &params, const QJsonValue &body, const Store *store)>;

/*!
    The one table of the options a resource passes to every member (
    EndpointExtraOptions): `X(type, name, default)` per option. EndpointOptions, EndpointOverrides
    and ResourceOptions take these fields from it; createResource() and extend() copy them
    through it; QML's Resource and extend() read them by the same names (src/qml/jsoptions.cpp).
    A new shared option is one line here (and, to be a property of QML's Resource, one
    Q_PROPERTY line there).

    | option              | meaning                                                            |
    |---------------------|--------------------------------------------------------------------|
    | pollFrequency       | ms between re-fetches by live queries; 0 = no polling              |
    | dataExpiryLength    | how long fetched data stays fresh, in ms                           |
    | errorExpiryLength   | how long an error stays fresh, in ms                               |
    | credentials         | which requests carry cookies (see Credentials)                     |
    | timeout             | deadline of a whole request in ms (head, body, redirects); 0 = none|
    | headers             | extra request headers; they win over the defaults                  |
    | maxResponseBytes    | larger answers fail (NetworkError::Kind::TooLarge); 0 = no limit   |
    | validators          | refetches send back ETag / Last-Modified; a 304 keeps the data     |
    | retry               | retries with backoff (RetryPolicy); unset = the kind's default:    |
    |                     | reads RetryPolicy::forReads(), mutations none                      |
    | refetchOnActivate   | stale shown keys refetch when the application becomes active again |
    | queueWhenOffline    | a mutation made offline or failing with a network error waits in   |
    |                     | an outbox, replayed later (docs/offline-outbox.md)                 |
    | persist             | false: its results stay out of the persisted store (docs/offline.md)|
    | keyCase             | the server's key case (KeyCase): bodies, query keys and answers    |
    |                     | converted to and from the app's camelCase                          |
    | csrf                | the CSRF cookie sent back in a header on unsafe same-origin        |
    |                     | requests (Csrf::django(), rails(), laravel())                      |
    | pagination          | how a list answer is wrapped and says "there is more" (Pagination) |
*/
#define DATACLIENT_SHARED_ENDPOINT_OPTIONS(X)                                                      \
    X(int, pollFrequency, 0)                                                                       \
    X(int, dataExpiryLength, ::DataClient::DefaultDataExpiryLength)                                \
    X(int, errorExpiryLength, ::DataClient::DefaultErrorExpiryLength)                              \
    X(::DataClient::Credentials, credentials, ::DataClient::Credentials::SameOrigin)               \
    X(int, timeout, ::DataClient::RequestInit::DefaultTimeoutMs)                                   \
    X(::DataClient::Headers, headers, {})                                                          \
    X(qint64, maxResponseBytes, ::DataClient::RequestInit::DefaultMaxResponseBytes)                \
    X(bool, validators, true)                                                                      \
    X(std::optional<::DataClient::RetryPolicy>, retry, std::nullopt)                               \
    X(bool, refetchOnActivate, true)                                                               \
    X(bool, persist, true)                                                                         \
    X(bool, queueWhenOffline, false)                                                               \
    X(::DataClient::KeyCase, keyCase, ::DataClient::KeyCase::AsIs)                                 \
    X(::DataClient::Csrf, csrf, {})                                                                \
    X(::DataClient::Pagination, pagination, ::DataClient::Pagination::None)

//! A field of an options struct from DATACLIENT_SHARED_ENDPOINT_OPTIONS, with its default.
#define DATACLIENT_OPTION_FIELD(Type, name, value) Type name = value;
//! A field of EndpointOverrides: set or not.
#define DATACLIENT_OPTION_OVERRIDE(Type, name, value) std::optional<Type> name {};

/*!
    The options of one endpoint. Plain data: designated initializers read well,
    e.g. `RestEndpoint::create({.method = "POST", .path = u"/todos"_s, .schema = todo})`.
*/
struct DATACLIENT_REST_EXPORT EndpointOptions
{
    //! Member name within its resource ("get", "getList.push", ...); used in messages.
    QString name {};
    QByteArray method = "GET";
    //! Path template (see PathTemplate).
    QString path {};
    //! Prepended to the path: "http://127.0.0.1:8080" or "https://api.example.com/v2".
    QString urlPrefix {};
    //! How the response is normalized; Schema() = passed through.
    Schema schema {};
    //! Query keys the endpoint documents (searchParams). Any parameter that is not a path
    //! parameter goes to the query string; this list is for introspection (QML, tooling).
    QStringList searchParams {};
    //! The body's shape: documentation only, never sent by itself.
    QJsonValue body {};
    //! getPage only: the page parameter; required by fetch() and stripped from key().
    QString paginationField {};
    //! Transforms the parsed response (see RestEndpoint::process()).
    ProcessFunction process {};
    //! Show a predicted result at once (see RestEndpoint::optimisticResponse()).
    bool optimistic = false;
    //! The prediction; when empty and optimistic is true, the resource's default for the member.
    OptimisticFunction getOptimisticResponse {};
    //! Whether calling it changes server data; default: any method but GET and HEAD.
    std::optional<bool> sideEffect {};
    // pollFrequency, dataExpiryLength, errorExpiryLength, credentials, timeout, headers,
    // maxResponseBytes, validators, retry, refetchOnActivate, queueWhenOffline, persist, keyCase,
    // csrf, pagination: see DATACLIENT_SHARED_ENDPOINT_OPTIONS.
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_OPTION_FIELD)
};

//! What extend() changes: every set field replaces the corresponding option.
struct DATACLIENT_REST_EXPORT EndpointOverrides
{
    std::optional<QString> name {};
    std::optional<QByteArray> method {};
    std::optional<QString> path {};
    std::optional<QString> urlPrefix {};
    std::optional<Schema> schema {};
    std::optional<QStringList> searchParams {};
    std::optional<QJsonValue> body {};
    std::optional<QString> paginationField {};
    std::optional<ProcessFunction> process {};
    std::optional<bool> optimistic {};
    std::optional<OptimisticFunction> getOptimisticResponse {};
    std::optional<bool> sideEffect {};
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_OPTION_OVERRIDE)

    //! \a options with every set field replaced.
    EndpointOptions applyTo(EndpointOptions options) const;
    //! Overrides set in \a other replace those set here.
    EndpointOverrides mergedWith(const EndpointOverrides &other) const;
};

} // namespace DataClient
