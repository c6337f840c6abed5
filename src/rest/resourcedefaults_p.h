// The member-specific behaviour createResource() gives its endpoints: the delete process (the
// answer is replaced by the removed pk) and the optimistic predictions
// (docs/optimistic-updates.md).
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/schema.h>

namespace DataClient::detail {

//! delete: an empty answer (null, "", {}) counts as the URL parameters; a bare pk (string or
//! number) becomes {pkField: pk} when the entity has a pk field; anything else passes through.
ProcessFunction deleteProcess(const EntitySchema &entity);

//! update: the URL parameters overlaid with the body.
OptimisticFunction optimisticParamsAndBody();
//! push, unshift: the same; without a primary key (the server assigns ids) the Controller shows
//! the row under a placeholder key until the server answers (docs/optimistic-updates.md).
OptimisticFunction optimisticCreate();
//! partialUpdate: the same, but only when the entity is already in \a store, or is a placeholder
//! row (no change otherwise).
OptimisticFunction optimisticPartialUpdate(const EntitySchema &entity);
//! getList.move: partialUpdate's, with the primary key the only URL parameter taken as a field
//! (the others name the lists the entity leaves).
OptimisticFunction optimisticMove(const EntitySchema &entity);
//! getList.remove, getList.assign: the body (an entity or a list), when it is one.
OptimisticFunction optimisticBody();
//! delete: the URL parameters (the Invalidate schema hides that entity).
OptimisticFunction optimisticDelete();

} // namespace DataClient::detail
