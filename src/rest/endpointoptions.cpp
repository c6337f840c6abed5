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
    apply(optimistic, options.optimistic);
    apply(getOptimisticResponse, options.getOptimisticResponse);
    if (sideEffect)
        options.sideEffect = sideEffect;
#define DATACLIENT_APPLY(Type, option, value) apply(option, options.option);
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_APPLY)
#undef DATACLIENT_APPLY
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
    merge(result.optimistic, other.optimistic);
    merge(result.getOptimisticResponse, other.getOptimisticResponse);
    merge(result.sideEffect, other.sideEffect);
#define DATACLIENT_MERGE(Type, option, value) merge(result.option, other.option);
    DATACLIENT_SHARED_ENDPOINT_OPTIONS(DATACLIENT_MERGE)
#undef DATACLIENT_MERGE
    return result;
}

} // namespace DataClient
