// visitSchema(): the one switch over Schema::Kind that every layer uses.
#pragma once

#include <DataClient/schema.h>

#include <QtCore/QtGlobal>

#include <utility>

namespace DataClient {

/*!
    Calls the member of \a visitor that handles \a schema's kind, and returns what it returns:

    | kind       | called                                                  |
    |------------|---------------------------------------------------------|
    | None       | visitor.none()                                          |
    | Entity     | visitor.entity(schema.entitySchema())                   |
    | Invalidate | visitor.invalidate(schema.entitySchema())               |
    | Array      | visitor.array(schema.itemSchema())                      |
    | Collection | visitor.collection(schema) (its item: itemSchema())     |
    | Object     | visitor.object(schema.fields())                         |
    | Union      | visitor.unionOf(schema) (its members: unionMembers())   |
    | Values     | visitor.values(schema.itemSchema())                     |
    | All        | visitor.all(schema) (its entity: itemSchema())          |
    | Query      | visitor.query(schema) (its input: itemSchema())         |

    Every visitor has every member, so a new kind of schema is a compile error wherever it must
    be handled, instead of a `switch` somewhere that quietly ignores it. Zero cost: the compiler
    sees through it as through the switch it replaces.
*/
template<typename Visitor> decltype(auto) visitSchema(const Schema &schema, Visitor &&visitor)
{
    switch (schema.kind()) {
    case Schema::Kind::None:
        break;
    case Schema::Kind::Entity:
        return std::forward<Visitor>(visitor).entity(schema.entitySchema());
    case Schema::Kind::Invalidate:
        return std::forward<Visitor>(visitor).invalidate(schema.entitySchema());
    case Schema::Kind::Array:
        return std::forward<Visitor>(visitor).array(schema.itemSchema());
    case Schema::Kind::Collection:
        return std::forward<Visitor>(visitor).collection(schema);
    case Schema::Kind::Object:
        return std::forward<Visitor>(visitor).object(schema.fields());
    case Schema::Kind::Union:
        return std::forward<Visitor>(visitor).unionOf(schema);
    case Schema::Kind::Values:
        return std::forward<Visitor>(visitor).values(schema.itemSchema());
    case Schema::Kind::All:
        return std::forward<Visitor>(visitor).all(schema);
    case Schema::Kind::Query:
        return std::forward<Visitor>(visitor).query(schema);
    }
    return std::forward<Visitor>(visitor).none();
}

} // namespace DataClient
