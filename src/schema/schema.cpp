#include <DataClient/private/schema_p.h>

#include "logging_p.h"

using namespace Qt::StringLiterals;

namespace DataClient {

SchemaPrivate::SchemaPrivate(const SchemaPrivate &other)
    : QSharedData(other),
      kind(other.kind),
      entity(other.entity),
      item(other.item ? new Schema(*other.item) : nullptr),
      fields(other.fields),
      collectionType(other.collectionType),
      mode(other.mode),
      merge(other.merge),
      filter(other.filter),
      appendUnique(other.appendUnique),
      collectionField(other.collectionField)
{ }

SchemaPrivate::~SchemaPrivate()
{
    delete item;
}

Schema::Schema() = default;
Schema::Schema(SchemaPrivate *data) : d(data) { }
Schema::Schema(const Schema &other) = default;
Schema::Schema(Schema &&other) noexcept = default;
Schema &Schema::operator=(const Schema &other) = default;
Schema &Schema::operator=(Schema &&other) noexcept = default;
Schema::~Schema() = default;

Schema Schema::entity(const EntitySchema &entity)
{
    auto *d = new SchemaPrivate;
    d->kind = Kind::Entity;
    d->entity = entity;
    return Schema(d);
}

Schema Schema::array(const Schema &item)
{
    auto *d = new SchemaPrivate;
    d->kind = Kind::Array;
    d->item = new Schema(item);
    d->entity = item.kind() == Kind::Entity ? item.entitySchema() : EntitySchema();
    return Schema(d);
}

Schema Schema::object(const QHash<QString, Schema> &fields)
{
    auto *d = new SchemaPrivate;
    d->kind = Kind::Object;
    d->fields = fields;
    for (auto it = fields.cbegin(); it != fields.cend(); ++it) {
        if (it.value().kind() == Kind::Collection) {
            if (!d->collectionField.isEmpty())
                qCWarning(lcSchema) << "Schema::object: more than one Collection field; push() etc."
                                    << "apply to" << d->collectionField;
            else
                d->collectionField = it.key();
        }
    }
    return Schema(d);
}

Schema Schema::collection(const Schema &arrayOrItem, std::shared_ptr<const Collection> type)
{
    auto *d = new SchemaPrivate;
    d->kind = Kind::Collection;
    const Schema item = arrayOrItem.kind() == Kind::Array ? arrayOrItem.itemSchema() : arrayOrItem;
    if (item.kind() != Kind::Entity)
        qCWarning(lcSchema) << "Schema::collection: the items must be an Entity schema";
    d->item = new Schema(item);
    d->entity = item.entitySchema();
    d->collectionType = type ? std::move(type) : std::make_shared<const Collection>();
    return Schema(d);
}

Schema Schema::invalidate(const Schema &entity)
{
    auto *d = new SchemaPrivate;
    d->kind = Kind::Invalidate;
    if (entity.kind() != Kind::Entity)
        qCWarning(lcSchema) << "Schema::invalidate: expects an Entity schema";
    d->entity = entity.entitySchema();
    return Schema(d);
}

Schema::Kind Schema::kind() const
{
    return d ? d->kind : Kind::None;
}

bool Schema::isNull() const
{
    return kind() == Kind::None;
}

QString Schema::key() const
{
    switch (kind()) {
    case Kind::Entity:
    case Kind::Invalidate:
        return d->entity.key();
    case Kind::Array:
    case Kind::Collection:
        return u"["_s + d->item->key() + u"]"_s;
    case Kind::Object:
        return d->collectionField.isEmpty() ? QString() : d->fields.value(d->collectionField).key();
    case Kind::None:
        break;
    }
    return {};
}

EntitySchema Schema::entitySchema() const
{
    return d ? d->entity : EntitySchema();
}

Schema Schema::itemSchema() const
{
    return d && d->item ? *d->item : Schema();
}

QHash<QString, Schema> Schema::fields() const
{
    return d ? d->fields : QHash<QString, Schema>();
}

namespace {

// A copy of a Collection (or of an Object wrapping one) with its mode changed.
Schema withMode(const Schema &schema, Schema::CollectionMode mode, Schema::CollectionMerge merge,
                Schema::CollectionFilter filter)
{
    const SchemaPrivate *d = SchemaPrivate::get(schema);
    if (schema.kind() == Schema::Kind::Object && !d->collectionField.isEmpty()) {
        const Schema inner = withMode(d->fields.value(d->collectionField), mode, std::move(merge),
                                      std::move(filter));
        // push/unshift/remove responses are entities, not wrappers: use the collection itself.
        // A page (addWith) has the wrapper's shape: keep the wrapper around the new collection.
        if (mode != Schema::CollectionMode::AddWith)
            return inner;
        auto *copy = new SchemaPrivate(*d);
        copy->fields.insert(d->collectionField, inner);
        return SchemaPrivate::make(copy);
    }
    if (schema.kind() != Schema::Kind::Collection) {
        qCWarning(lcSchema) << "push/unshift/addWith/paginated/remove need a Collection schema"
                            << "(or an Object wrapping one)";
        return schema;
    }
    auto *copy = new SchemaPrivate(*d);
    copy->mode = mode;
    copy->merge = std::move(merge);
    copy->filter = std::move(filter);
    copy->appendUnique = false;
    return SchemaPrivate::make(copy);
}

} // namespace

Schema Schema::push() const
{
    return withMode(*this, CollectionMode::Push, {}, {});
}

Schema Schema::unshift() const
{
    return withMode(*this, CollectionMode::Unshift, {}, {});
}

Schema Schema::addWith(CollectionMerge merge, CollectionFilter filter) const
{
    return withMode(*this, CollectionMode::AddWith, std::move(merge), std::move(filter));
}

Schema Schema::paginated() const
{
    Schema schema = addWith([](const QStringList &existing, const QStringList &incoming) {
        QStringList merged = existing;
        QSet<QString> seen(existing.cbegin(), existing.cend());
        for (const QString &pk : incoming) {
            if (!seen.contains(pk)) {
                seen.insert(pk);
                merged.append(pk);
            }
        }
        return merged;
    });
    // The store appends natively (same result as the merge above, without string lists).
    const Schema collection = schema.collectionSchema();
    if (collection.d)
        const_cast<SchemaPrivate *>(collection.d.data())->appendUnique = true;
    return schema;
}

Schema Schema::remove() const
{
    return withMode(*this, CollectionMode::Remove, {}, {});
}

Schema collectionVariant(const Schema &schema, Schema::CollectionMode mode,
                         Schema::CollectionFilter filter)
{
    return withMode(schema, mode, {}, std::move(filter));
}

Schema Schema::move() const
{
    return withMode(*this, CollectionMode::Move, {}, {});
}

Schema::CollectionMode Schema::collectionMode() const
{
    const Schema collection = collectionSchema();
    return collection.d ? collection.d->mode : CollectionMode::Replace;
}

std::shared_ptr<const Collection> Schema::collectionType() const
{
    const Schema collection = collectionSchema();
    return collection.d ? collection.d->collectionType : nullptr;
}

Schema::CollectionMerge Schema::collectionMerge() const
{
    const Schema collection = collectionSchema();
    return collection.d ? collection.d->merge : CollectionMerge();
}

Schema::CollectionFilter Schema::collectionFilter() const
{
    const Schema collection = collectionSchema();
    return collection.d ? collection.d->filter : CollectionFilter();
}

QString Schema::collectionField() const
{
    return kind() == Kind::Object ? d->collectionField : QString();
}

Schema Schema::collectionSchema() const
{
    if (kind() == Kind::Collection)
        return *this;
    if (kind() == Kind::Object && !d->collectionField.isEmpty())
        return d->fields.value(d->collectionField);
    return {};
}

} // namespace DataClient
