// Private data of EntitySchema, shared by the normalizer and the denormalizer.
#pragma once

#include <DataClient/entityschema.h>
#include <DataClient/schema.h>

#include <DataClient/private/node_p.h>

#include <QtCore/QList>
#include <QtCore/QMutex>
#include <QtCore/QVarLengthArray>

#include <memory>
#include <vector>

namespace DataClient {

struct UnionSpec;

namespace detail {
//! How to read each field of objects of one shape with one entity schema, worked out once
//! (Record::valueAt() would otherwise compare the field's name with every nested and
//! deserialized field's name on every read).
struct FieldPlan
{
    explicit FieldPlan(const Shape *shape) : shape(shape) { shape->ref(); }
    ~FieldPlan() { shape->deref(); }
    FieldPlan(const FieldPlan &) = delete;
    FieldPlan &operator=(const FieldPlan &) = delete;

    const Shape *shape; // referenced: a plan is only found for its own live shape
    //! Per field of the shape: 0 plain, 1 + i nested field i, -(1 + j) deserializer j.
    QVarLengthArray<qint16, 12> kinds;
    //! Per nested field of the schema: its index in the shape, or -1.
    QVarLengthArray<int, 2> nestedIndex;
};

//! The plans of one schema; copying a schema's definition starts with none.
struct FieldPlanCache
{
    FieldPlanCache() = default;
    FieldPlanCache(const FieldPlanCache &) { }
    FieldPlanCache &operator=(const FieldPlanCache &) { return *this; }

    mutable QMutex mutex; // schemas are shared by stores on any thread
    mutable std::vector<std::unique_ptr<FieldPlan>> plans;
};
} // namespace detail

class DATACLIENT_SCHEMA_EXPORT EntitySchemaPrivate : public QSharedData
{
public:
    struct NestedField
    {
        QString field;
        Schema schema; // when given directly
        EntitySchema::SchemaFunction factory; // when lazy (cycles between entity types)
        Schema resolve() const { return factory ? factory() : schema; }
    };

    QString key;
    QString pkField;
    EntitySchema::PkFunction pkFunction;
    QStringList pkFields; //!< the fields pkFunction reads, when known
    QList<QMetaType> pkFieldTypes; //!< per pkFields, its gadget property's type (else invalid)
    QList<std::pair<QString, Deserializer>> deserializers; // few fields: a list beats a hash
    QList<NestedField> nested;
    EntitySchema::ProcessFunction process;
    EntitySchema::MergeFunction merge;
    QString versionField; //!< withVersionField(): orders writes of a record by the server's word
    EntitySchema::ShouldUpdateFunction shouldUpdate;
    QVariantMap defaults;
    bool persist = true; // withPersist(): kept out of the persisted store when false
    QStringList keysKept; // withKeysKept(): fields whose contents keep the server's key case
    EntitySchema::ValidateFunction validate;
    QStringList indexes; // withIndexes(): unique fields the store finds records by
    //! Set on the hidden entity a Collection of a Union keeps its items as (schema_p.h): the
    //! normalizer stages the member entity and a reference to it; the reader shows the member.
    std::shared_ptr<const UnionSpec> unionSpec;
    const QMetaObject *gadget = nullptr;

    //! The plan for objects of \a shape (made on first use; thread-safe), or nullptr past a
    //! few hundred shapes (then fields are looked up by name).
    const detail::FieldPlan *fieldPlan(const detail::Shape *shape) const;
    detail::FieldPlanCache planCache;

    const NestedField *findNested(const QString &field) const
    {
        for (const NestedField &n : nested) {
            if (n.field == field)
                return &n;
        }
        return nullptr;
    }
    //! The type of each of \a fields as a property of \a gadget (invalid when it is none).
    static QList<QMetaType> propertyTypes(const QMetaObject *gadget, const QStringList &fields);
    static const EntitySchemaPrivate *get(const EntitySchema &schema) { return schema.d.data(); }
    static EntitySchema make(QExplicitlySharedDataPointer<EntitySchemaPrivate> data);
};

//! The pk of a JSON value: strings as is, numbers by the rule of numbertext_p.h (a qint64 held
//! by the QJsonValue exactly); empty for anything else.
QString pkString(const QJsonValue &value);
//! Shallow merge: \a incoming's fields replace \a existing's whole; others are kept.
QJsonObject shallowMerge(const QJsonObject &existing, const QJsonObject &incoming);

namespace detail {
//! Short rendering of a compact value for a SchemaError's "found" (as SchemaError::describe()).
DATACLIENT_SCHEMA_EXPORT QString describe(const Value &value, const Node *owner);
} // namespace detail

} // namespace DataClient
