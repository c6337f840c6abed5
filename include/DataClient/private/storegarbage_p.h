// What one garbage-collection pass asks of the Store, and what it did (docs/memory.md).
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/params.h>
#include <DataClient/schema.h>

#include <QtCore/QList>
#include <QtCore/QStringList>

#include <utility>

namespace DataClient {

/*!
    A pass of StoreLayers::collectGarbage(). The caller (the Controller) decides which results go; the
    store decides which entities and collections nothing reaches any more: every result that
    stays, every read in \a keep, and every optimistic layer keeps what it references, nested
    entities and list items included.
*/
struct StoreGarbageRequest
{
    //! Results to drop (a key with an optimistic layer over it stays).
    QStringList evictResults;
    //! Reads of the entity table that stay (shown keys without a stored result): an Entity
    //! schema with its pk in the arguments, or a Collection with its arguments.
    QList<std::pair<Schema, Params>> keep;
    //! Entities and collections nothing reaches go when last written (Meta::fetchedAt) at or
    //! before this time (ms since the epoch); later ones stay.
    qint64 writtenBefore = 0;
};

//! What a pass did.
struct StoreGarbageOutcome
{
    //! The dropped results, entities and collections (what reading them now reports missing).
    ChangeSet changes;
    qsizetype results = 0;
    qsizetype entities = 0;
    qsizetype collections = 0;
    //! The earliest last write of an entity or collection nothing reaches that stayed because
    //! it was written after StoreGarbageRequest::writtenBefore; -1 when there is none.
    qint64 oldestUnreachable = -1;
};

} // namespace DataClient
