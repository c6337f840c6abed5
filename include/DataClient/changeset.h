// ChangeSet: what one store write changed, so views update precisely.
#pragma once

#include <DataClient/entityrefset.h>

#include <QtCore/QSet>
#include <QtCore/QString>

namespace DataClient {

//! The entities (collections included, as EntityRefs) and result keys a write changed.
//! A write that changed nothing returns an empty set. `entities` reads like a QSet<EntityRef>
//! (and converts to one); its pk strings are only made when it is read element by element.
struct ChangeSet
{
    EntityRefSet entities;
    QSet<QString> results;

    bool isEmpty() const { return entities.isEmpty() && results.isEmpty(); }
    ChangeSet &unite(const ChangeSet &other)
    {
        entities.unite(other.entities);
        results.unite(other.results);
        return *this;
    }
    friend bool operator==(const ChangeSet &a, const ChangeSet &b)
    {
        return a.entities == b.entities && a.results == b.results;
    }
};

} // namespace DataClient
