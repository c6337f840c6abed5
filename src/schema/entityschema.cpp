#include <DataClient/private/entityschema_p.h>

#include <DataClient/private/numbertext_p.h>

#include <DataClient/decimal.h>

#include <QtCore/QDateTime>
#include <QtCore/QMetaProperty>

#include <QtCore/QLocale>

using namespace Qt::StringLiterals;

namespace DataClient {

// EntitySchema holds a QExplicitlySharedDataPointer so that copies stay identical (operator==
// compares definitions); with*() copy explicitly before changing.
EntitySchema EntitySchemaPrivate::make(QExplicitlySharedDataPointer<EntitySchemaPrivate> data)
{
    return EntitySchema(std::move(data));
}

const detail::FieldPlan *EntitySchemaPrivate::fieldPlan(const detail::Shape *shape) const
{
    constexpr size_t MaxPlans = 256; // shapes past that are read by name (still correct)
    const QMutexLocker lock(&planCache.mutex);
    for (const auto &plan : planCache.plans) {
        if (plan->shape == shape)
            return plan.get();
    }
    if (planCache.plans.size() >= MaxPlans)
        return nullptr;
    auto plan = std::make_unique<detail::FieldPlan>(shape);
    plan->kinds.resize(shape->size());
    for (qsizetype index = 0; index < shape->size(); ++index) {
        const QString &field = shape->key(index);
        qint16 kind = 0;
        for (qsizetype i = 0; i < nested.size() && kind == 0; ++i) {
            if (nested.at(i).field == field)
                kind = qint16(1 + i);
        }
        for (qsizetype j = 0; j < deserializers.size() && kind == 0; ++j) {
            if (deserializers.at(j).first == field)
                kind = qint16(-(1 + j));
        }
        plan->kinds[index] = kind;
    }
    for (const NestedField &n : nested)
        plan->nestedIndex.append(shape->indexOf(QStringView(n.field)));
    planCache.plans.push_back(std::move(plan));
    return planCache.plans.back().get();
}

QList<QMetaType> EntitySchemaPrivate::propertyTypes(const QMetaObject *gadget,
                                                    const QStringList &fields)
{
    QList<QMetaType> types(fields.size());
    for (qsizetype i = 0; gadget && i < fields.size(); ++i) {
        const int index = gadget->indexOfProperty(fields.at(i).toUtf8().constData());
        if (index >= 0)
            types[i] = gadget->property(index).metaType();
    }
    return types;
}

QString pkString(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double: {
        // QJsonValue keeps a whole number parsed from JSON as a qint64: its digits exactly.
        const QVariant number = value.toVariant();
        return number.typeId() == QMetaType::LongLong ? QString::number(number.toLongLong())
                                                      : detail::numberText(number.toDouble());
    }
    default:
        return {};
    }
}

QJsonObject shallowMerge(const QJsonObject &existing, const QJsonObject &incoming)
{
    if (existing.isEmpty())
        return incoming;
    QJsonObject merged = existing;
    for (auto it = incoming.constBegin(); it != incoming.constEnd(); ++it)
        merged.insert(it.key(), it.value());
    return merged;
}

namespace {
template<typename Change>
EntitySchema changed(const EntitySchema &schema,
                     QExplicitlySharedDataPointer<EntitySchemaPrivate> d, Change change)
{
    Q_ASSERT_X(d, "EntitySchema::with*",
               "a null EntitySchema cannot be changed; give it a key first");
    Q_UNUSED(schema);
    d.detach();
    change(*d);
    return EntitySchemaPrivate::make(std::move(d));
}
} // namespace

EntitySchema::EntitySchema() = default;
EntitySchema::EntitySchema(QExplicitlySharedDataPointer<EntitySchemaPrivate> data)
    : d(std::move(data))
{ }
EntitySchema::EntitySchema(const QString &key, const QString &pkField) : d(new EntitySchemaPrivate)
{
    d->key = key;
    d->pkField = pkField;
}
EntitySchema::EntitySchema(const QString &key, PkFunction pk, const QStringList &pkFields)
    : d(new EntitySchemaPrivate)
{
    d->key = key;
    d->pkFunction = std::move(pk);
    d->pkFields = pkFields;
    d->pkFieldTypes.resize(pkFields.size());
}
EntitySchema::EntitySchema(const EntitySchema &other) = default;
EntitySchema::EntitySchema(EntitySchema &&other) noexcept = default;
EntitySchema &EntitySchema::operator=(const EntitySchema &other) = default;
EntitySchema &EntitySchema::operator=(EntitySchema &&other) noexcept = default;
EntitySchema::~EntitySchema() = default;

EntitySchema EntitySchema::withPrimaryKey(const QString &pkField) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) {
        p.pkField = pkField;
        p.pkFunction = {};
        p.pkFields.clear();
        p.pkFieldTypes.clear();
    });
}

EntitySchema EntitySchema::withPrimaryKey(PkFunction pk, const QStringList &pkFields) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) {
        p.pkField.clear();
        p.pkFunction = std::move(pk);
        p.pkFields = pkFields;
        p.pkFieldTypes = EntitySchemaPrivate::propertyTypes(p.gadget, pkFields);
    });
}

EntitySchema EntitySchema::withField(const QString &field, const Deserializer &deserializer) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) {
        for (auto &entry : p.deserializers) {
            if (entry.first == field) {
                entry.second = deserializer;
                return;
            }
        }
        p.deserializers.append({field, deserializer});
    });
}

EntitySchema EntitySchema::withNested(const QString &field, const Schema &schema) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) {
        p.nested.removeIf([&](const auto &n) { return n.field == field; });
        p.nested.append({field, schema, {}});
    });
}

EntitySchema EntitySchema::withNested(const QString &field, SchemaFunction schema) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) {
        p.nested.removeIf([&](const auto &n) { return n.field == field; });
        p.nested.append({field, Schema(), std::move(schema)});
    });
}

EntitySchema EntitySchema::withProcess(ProcessFunction process) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.process = std::move(process); });
}

EntitySchema EntitySchema::withMerge(MergeFunction merge) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.merge = std::move(merge); });
}

EntitySchema EntitySchema::withVersionField(const QString &field) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.versionField = field; });
}

EntitySchema EntitySchema::withShouldUpdate(ShouldUpdateFunction shouldUpdate) const
{
    return changed(*this, d,
                   [&](EntitySchemaPrivate &p) { p.shouldUpdate = std::move(shouldUpdate); });
}

QString EntitySchema::versionField() const
{
    return d ? d->versionField : QString();
}

EntitySchema EntitySchema::withDefaults(const QVariantMap &defaults) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.defaults = defaults; });
}

EntitySchema EntitySchema::withPersist(bool persist) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.persist = persist; });
}

bool EntitySchema::persists() const
{
    return !d || d->persist;
}

EntitySchema EntitySchema::withKeysKept(const QStringList &fields) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.keysKept = fields; });
}

QStringList EntitySchema::keysKept() const
{
    return d ? d->keysKept : QStringList();
}

EntitySchema EntitySchema::withValidate(ValidateFunction validate) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.validate = std::move(validate); });
}

EntitySchema EntitySchema::withIndexes(const QStringList &fields) const
{
    return changed(*this, d, [&](EntitySchemaPrivate &p) { p.indexes = fields; });
}

bool EntitySchema::hasValidate() const
{
    return d && d->validate;
}

QString EntitySchema::validate(const QJsonObject &value) const
{
    return hasValidate() ? d->validate(value) : QString();
}

QStringList EntitySchema::indexes() const
{
    return d ? d->indexes : QStringList();
}

bool EntitySchema::isNull() const
{
    return !d;
}

QString EntitySchema::key() const
{
    return d ? d->key : QString();
}

QString EntitySchema::pkField() const
{
    return d ? d->pkField : QString();
}

QStringList EntitySchema::pkFields() const
{
    if (!d)
        return {};
    return d->pkFunction ? d->pkFields : QStringList {d->pkField};
}

QStringList EntitySchema::missingPkFields(const QJsonObject &value) const
{
    QStringList missing;
    if (!d)
        return missing;
    if (!d->pkFunction) {
        if (pkString(value.value(d->pkField)).isEmpty())
            missing.append(d->pkField);
        return missing;
    }
    for (qsizetype i = 0; i < d->pkFields.size(); ++i) {
        const QJsonValue field = value.value(d->pkFields.at(i));
        const QMetaType type = d->pkFieldTypes.value(i);
        // A gadget property keeps its default when the value does not convert: pk() would
        // then compute the default's pk, as if the field were absent.
        if (field.isUndefined() || field.isNull()
            || (type.isValid() && !field.toVariant().convert(type)))
            missing.append(d->pkFields.at(i));
    }
    return missing;
}

QString EntitySchema::pk(const QJsonObject &value) const
{
    if (!d)
        return {};
    if (d->pkFunction)
        return missingPkFields(value).isEmpty() ? d->pkFunction(value) : QString();
    return pkString(value.value(d->pkField));
}

Deserializer EntitySchema::deserializer(const QString &field) const
{
    if (d) {
        for (const auto &entry : d->deserializers) {
            if (entry.first == field)
                return entry.second;
        }
    }
    return {};
}

QStringList EntitySchema::deserializedFields() const
{
    QStringList fields;
    if (d) {
        for (const auto &entry : d->deserializers)
            fields.append(entry.first);
    }
    return fields;
}

Schema EntitySchema::nested(const QString &field) const
{
    const auto *n = d ? d->findNested(field) : nullptr;
    return n ? n->resolve() : Schema();
}

QStringList EntitySchema::nestedFields() const
{
    QStringList fields;
    if (d) {
        for (const auto &n : d->nested)
            fields.append(n.field);
    }
    return fields;
}

bool EntitySchema::hasProcess() const
{
    return d && d->process;
}

QJsonObject EntitySchema::process(const QJsonObject &value, const QJsonValue &parent,
                                  const Params &args) const
{
    return hasProcess() ? d->process(value, parent, args) : value;
}

bool EntitySchema::hasMerge() const
{
    return d && d->merge;
}

QJsonObject EntitySchema::merge(const QJsonObject &existing, const QJsonObject &incoming) const
{
    return hasMerge() ? d->merge(existing, incoming) : shallowMerge(existing, incoming);
}

QVariantMap EntitySchema::defaults() const
{
    return d ? d->defaults : QVariantMap();
}

const QMetaObject *EntitySchema::gadget() const
{
    return d ? d->gadget : nullptr;
}

EntitySchema EntitySchema::fromMetaObject(const QString &key, const QMetaObject *metaObject,
                                          const QString &pkField, PkFunction pk,
                                          const QVariantMap &defaults, const QStringList &pkFields)
{
    EntitySchema schema
        = pk ? EntitySchema(key, std::move(pk), pkFields) : EntitySchema(key, pkField);
    schema.d->gadget = metaObject;
    schema.d->pkFieldTypes = EntitySchemaPrivate::propertyTypes(metaObject, schema.d->pkFields);
    schema.d->defaults = defaults;
    for (int i = metaObject->propertyOffset(); i < metaObject->propertyCount(); ++i) {
        const QMetaProperty property = metaObject->property(i);
        const QString name = QString::fromLatin1(property.name());
        if (property.metaType() == QMetaType::fromType<QDateTime>())
            schema.d->deserializers.append({name, Deserialize::dateTime()});
        else if (property.metaType() == QMetaType::fromType<Decimal>())
            schema.d->deserializers.append({name, Deserialize::decimal()});
    }
    return schema;
}

} // namespace DataClient
