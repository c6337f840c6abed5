// The member-specific behaviour createResource() gives its endpoints: the delete process of
// SPEC 4.2 and the optimistic predictions of DESIGN.md §5.
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/schema.h>

namespace DataClient::detail {

//! delete: an empty answer (null, "", {}) counts as the URL parameters; a bare pk (string or
//! number) becomes {pkField: pk} when the entity has a pk field; anything else passes through.
ProcessFunction deleteProcess(const EntitySchema &entity);

//! update: the URL parameters overlaid with the body.
OptimisticFunction optimisticParamsAndBody();
//! push, unshift: the same, but nothing when that has no primary key (the server assigns ids:
//! there is no row to show before it answers; this is expected, so it is not a warning).
OptimisticFunction optimisticCreate(const EntitySchema &entity);
//! partialUpdate: the same, but only when the entity is already in \a store (no change otherwise).
OptimisticFunction optimisticPartialUpdate(const EntitySchema &entity);
//! delete: the URL parameters (the Invalidate schema hides that entity).
OptimisticFunction optimisticDelete();

} // namespace DataClient::detail
