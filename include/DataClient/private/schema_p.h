// Private data of Schema.
#pragma once

#include <DataClient/schema.h>

#include <QtCore/QHash>
#include <QtCore/QStringList>

#include <memory>

namespace DataClient {

//! What a Union is made of, shared by its Schema and by the hidden entity that a Collection of
//! it stores its items as (EntitySchemaPrivate::unionSpec).
struct DATACLIENT_SCHEMA_EXPORT UnionSpec
{
    QString key; // Schema::key()
    QStringList names; // member names, in order
    QList<Schema> members; // Entity schemas, by member
    QList<EntitySchema> entities; // their entity schemas, by member
    QHash<QString, int> byName;
    QHash<QString, int> byEntityKey;
    QString typeField; // empty: pick decides
    Schema::UnionPick pick;

    //! The member an entity of \a entityKey belongs to, or -1.
    int memberOfKey(const QString &entityKey) const { return byEntityKey.value(entityKey, -1); }
    //! "\"comment\", \"like\"" for error messages.
    QString knownNames() const;
};

class DATACLIENT_SCHEMA_EXPORT SchemaPrivate : public QSharedData
{
public:
    Schema::Kind kind = Schema::Kind::None;
    EntitySchema entity; // Entity, Invalidate
    Schema *item = nullptr; // Array, Collection (owned; Schema is incomplete in the header)
    QHash<QString, Schema> fields; // Object
    // Collection
    std::shared_ptr<const Collection> collectionType;
    Schema::CollectionMode mode = Schema::CollectionMode::Replace;
    Schema::CollectionMerge merge;
    Schema::CollectionFilter filter;
    bool appendUnique = false; // paginated(): append items not yet in the list
    QString collectionField; // Object wrapping a Collection
    // Union (and a Collection of one: the members of its items)
    std::shared_ptr<const UnionSpec> unionSpec;
    //! Union: the hidden entity a Collection of it keeps its items as ("<member key>:<pk>" ->
    //! {"<member name>": the member entity}), so that the collection's items stay slots of one
    //! table; read back as the member entity itself.
    EntitySchema unionItem;
    // All and Query (their input in item)
    Schema::AllOrder order;
    Schema::QueryCompute compute;
    Schema::QueryWhere where;

    SchemaPrivate() = default;
    SchemaPrivate(const SchemaPrivate &other);
    ~SchemaPrivate();

    static const SchemaPrivate *get(const Schema &schema) { return schema.d.data(); }
    static Schema make(SchemaPrivate *data) { return Schema(data); }
};

//! A variant of the Collection \a schema (or of the Object wrapping one) with \a mode and the
//! push filter \a filter (what push(), remove() ... make, with a filter of one's own).
DATACLIENT_SCHEMA_EXPORT Schema collectionVariant(const Schema &schema, Schema::CollectionMode mode,
                                                  Schema::CollectionFilter filter);

} // namespace DataClient
