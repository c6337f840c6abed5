// Private data of Schema.
#pragma once

#include <DataClient/schema.h>

namespace DataClient {

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
