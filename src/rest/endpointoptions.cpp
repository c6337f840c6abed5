// EndpointOverrides: how extend() changes options.
#include <DataClient/endpointoptions.h>

namespace DataClient {

namespace {

template<typename T> void apply(const std::optional<T> &override, T &target)
{
    if (override)
        target = *override;
}

template<typename T> void merge(std::optional<T> &target, const std::optional<T> &other)
{
    if (other)
        target = other;
}

} // namespace

EndpointOptions EndpointOverrides::applyTo(EndpointOptions options) const
{
    apply(name, options.name);
    apply(method, options.method);
    apply(path, options.path);
    apply(urlPrefix, options.urlPrefix);
    apply(schema, options.schema);
    apply(searchParams, options.searchParams);
    apply(body, options.body);
    apply(paginationField, options.paginationField);
    apply(process, options.process);
    apply(pollFrequency, options.pollFrequency);
    apply(dataExpiryLength, options.dataExpiryLength);
    apply(errorExpiryLength, options.errorExpiryLength);
    apply(optimistic, options.optimistic);
    apply(getOptimisticResponse, options.getOptimisticResponse);
    if (sideEffect)
        options.sideEffect = sideEffect;
    apply(credentials, options.credentials);
    apply(timeout, options.timeout);
    apply(headers, options.headers);
    apply(maxResponseBytes, options.maxResponseBytes);
    return options;
}

EndpointOverrides EndpointOverrides::mergedWith(const EndpointOverrides &other) const
{
    EndpointOverrides result = *this;
    merge(result.name, other.name);
    merge(result.method, other.method);
    merge(result.path, other.path);
    merge(result.urlPrefix, other.urlPrefix);
    merge(result.schema, other.schema);
    merge(result.searchParams, other.searchParams);
    merge(result.body, other.body);
    merge(result.paginationField, other.paginationField);
    merge(result.process, other.process);
    merge(result.pollFrequency, other.pollFrequency);
    merge(result.dataExpiryLength, other.dataExpiryLength);
    merge(result.errorExpiryLength, other.errorExpiryLength);
    merge(result.optimistic, other.optimistic);
    merge(result.getOptimisticResponse, other.getOptimisticResponse);
    merge(result.sideEffect, other.sideEffect);
    merge(result.credentials, other.credentials);
    merge(result.timeout, other.timeout);
    merge(result.headers, other.headers);
    merge(result.maxResponseBytes, other.maxResponseBytes);
    return result;
}

} // namespace DataClient
