// Private data of EntitySchema, shared by the normalizer and the denormalizer.
#pragma once

#include <DataClient/entityschema.h>
#include <DataClient/schema.h>

#include <QtCore/QList>

namespace DataClient {

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
    QList<std::pair<QString, Deserializer>> deserializers; // few fields: a list beats a hash
    QList<NestedField> nested;
    EntitySchema::ProcessFunction process;
    EntitySchema::MergeFunction merge;
    QVariantMap defaults;
    const QMetaObject *gadget = nullptr;

    const NestedField *findNested(const QString &field) const
    {
        for (const NestedField &n : nested) {
            if (n.field == field)
                return &n;
        }
        return nullptr;
    }
    static const EntitySchemaPrivate *get(const EntitySchema &schema) { return schema.d.data(); }
    static EntitySchema make(QExplicitlySharedDataPointer<EntitySchemaPrivate> data);
};

//! The pk of a JSON value as the reference writes it: strings as is, integral numbers in
//! decimal, other numbers in shortest form; empty for anything else.
DATACLIENT_SCHEMA_EXPORT QString pkString(const QJsonValue &value);
//! Shallow merge: \a incoming's fields replace \a existing's whole; others are kept.
DATACLIENT_SCHEMA_EXPORT QJsonObject shallowMerge(const QJsonObject &existing,
                                                  const QJsonObject &incoming);

} // namespace DataClient
