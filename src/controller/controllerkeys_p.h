// What the Controller's core and its managers share besides the core itself: the cache key of a
// call (or why there is none), which reads the entity table answers, ready futures, and where a
// lifecycle step's managers are listed.
#pragma once

#include "lifecycle_p.h"

#include <DataClient/networkerror.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QFuture>
#include <QtCore/QVariant>

#include <optional>

namespace DataClient::detail {

//! The cache key of \a endpoint + \a params, or the InvalidRequest error saying why there is
//! none (null endpoint, malformed path, missing parameter). \a caller names the API in it.
//! Kept whole and its fields named by reference: a lambda may not capture a structured binding
//! (clang 14).
struct KeyOrError
{
    QString key;
    std::optional<NetworkError> error;
};
KeyOrError keyOf(const EndpointPtr &endpoint, const Params &params, const char *caller);
//! Whether a result-less key can be answered from the entity table (a read of an Entity or
//! Collection schema).
bool canQueryEntityTable(const RestEndpoint &endpoint);
QFuture<QVariant> readyFuture(const QVariant &value);
//! The index of \a step in ControllerPrivate::steps.
int stepIndex(Lifecycle::Step step);

} // namespace DataClient::detail
