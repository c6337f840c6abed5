// Private data of Record, filled by the store's denormalizer.
#pragma once

#include <DataClient/record.h>

#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/node_p.h>

#include <QtCore/QVarLengthArray>

namespace DataClient {

class RecordPrivate : public QSharedData
{
public:
    RecordPrivate(const detail::Node *node, const EntitySchema &schema,
                  const detail::FieldPlan *plan)
        : node(detail::NodeRef::share(node)), schema(schema), plan(plan)
    {
        ref.storeRelaxed(1); // the Record that make() adopts it into
    }

    detail::NodeRef node; // the entity's stored object (shared with the store)
    EntitySchema schema;
    //! How to read node's fields with schema (owned by the schema), or nullptr: by name.
    const detail::FieldPlan *plan = nullptr;
    //! One entry per nested field of the schema (EntitySchemaPrivate::nested order): the resolved
    //! value (a Record, a QVariantList of Records, ...), or null when the entity is missing.
    QVarLengthArray<QVariant, 2> nested;
    //! Shown from an unconfirmed optimistic layer (Record::isPending()).
    bool pending = false;

    //! The Record of a new \a data (whose first reference it takes over: no atomic increment).
    static Record make(RecordPrivate *data) { return Record(data); }
    static const RecordPrivate *get(const Record &record) { return record.d.data(); }
};

} // namespace DataClient
