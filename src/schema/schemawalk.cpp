// The questions every layer asks of a schema (which keys it reaches, where its list is, whether
// it normalizes off the GUI thread, what a call resolves with), answered through one walk and
// one switch (visitSchema), so that a new kind of schema is one change.
#include <DataClient/schema.h>
#include <DataClient/schemavisit.h>

#include <QtCore/QSet>

namespace DataClient {

namespace {

constexpr int MaxDepth = 32;

// The schemas directly below one schema; an entity's are its nested fields.
struct Children
{
    QList<Schema> none() const { return {}; }
    QList<Schema> entity(const EntitySchema &entity) const
    {
        QList<Schema> nested;
        const QStringList fields = entity.nestedFields();
        for (const QString &field : fields)
            nested.append(entity.nested(field));
        return nested;
    }
    QList<Schema> invalidate(const EntitySchema &entity) const { return this->entity(entity); }
    QList<Schema> array(const Schema &item) const { return {item}; }
    QList<Schema> collection(const Schema &collection) const { return {collection.itemSchema()}; }
    QList<Schema> object(const QHash<QString, Schema> &fields) const { return fields.values(); }
};

void walkFrom(const Schema &schema, const std::function<bool(const Schema &)> &visit,
              QSet<QString> &enteredEntities, int depth)
{
    if (schema.isNull() || depth > MaxDepth)
        return;
    const bool entity
        = schema.kind() == Schema::Kind::Entity || schema.kind() == Schema::Kind::Invalidate;
    if (entity) {
        const QString key = schema.entitySchema().key();
        if (enteredEntities.contains(key))
            return;
        enteredEntities.insert(key);
    }
    if (!visit(schema))
        return;
    const QList<Schema> children = visitSchema(schema, Children {});
    for (const Schema &child : children)
        walkFrom(child, visit, enteredEntities, depth + 1);
}

// An entity whose values need the GUI thread to normalize (JS hooks may run there only).
bool needsGuiThread(const EntitySchema &entity)
{
    if (entity.isNull())
        return false;
    if (entity.pkField().isEmpty() || entity.hasProcess() || entity.hasMerge())
        return true;
    const QStringList deserialized = entity.deserializedFields();
    return std::any_of(deserialized.cbegin(), deserialized.cend(), [&](const QString &field) {
        return !entity.deserializer(field).isBuiltIn();
    });
}

bool isList(const Schema &schema)
{
    return schema.kind() == Schema::Kind::Array || schema.kind() == Schema::Kind::Collection;
}

// What a member's answer resolves with (see Schema::answerSchema()).
struct Answer
{
    Schema self;
    bool answerIsList = false;
    Schema none() const { return self; }
    Schema entity(const EntitySchema &) const { return self; }
    Schema invalidate(const EntitySchema &) const { return self; }
    Schema array(const Schema &) const { return self; }
    Schema collection(const Schema &collection) const
    {
        switch (collection.collectionMode()) {
        case Schema::CollectionMode::Push:
        case Schema::CollectionMode::Unshift:
        case Schema::CollectionMode::Move:
            if (collection.entitySchema().isNull())
                return self;
            return answerIsList ? Schema::array(collection.itemSchema())
                                : Schema::entity(collection.entitySchema());
        case Schema::CollectionMode::AddWith:
            return Schema::array(collection.itemSchema());
        case Schema::CollectionMode::Replace:
        case Schema::CollectionMode::Remove:
            break;
        }
        return self;
    }
    Schema object(QHash<QString, Schema> fields) const
    {
        const QString field = self.collectionField();
        if (field.isEmpty())
            return self;
        const Schema inner = fields.value(field).answerSchema();
        if (inner == fields.value(field))
            return self;
        fields.insert(field, inner);
        return Schema::object(fields);
    }
};

} // namespace

void Schema::walk(const std::function<bool(const Schema &schema)> &visit) const
{
    QSet<QString> enteredEntities;
    walkFrom(*this, visit, enteredEntities, 0);
}

QSet<QString> Schema::reachedKeys() const
{
    QSet<QString> keys;
    walk([&keys](const Schema &schema) {
        if (schema.kind() != Schema::Kind::Array && schema.kind() != Schema::Kind::Object
            && !schema.isNull()) {
            keys.insert(schema.kind() == Schema::Kind::Collection ? schema.key()
                                                                  : schema.entitySchema().key());
        }
        return true;
    });
    return keys;
}

QString Schema::listField() const
{
    if (kind() != Kind::Object)
        return {};
    if (!collectionField().isEmpty())
        return collectionField();
    const QHash<QString, Schema> all = fields();
    for (auto it = all.cbegin(); it != all.cend(); ++it) {
        if (isList(it.value()))
            return it.key();
    }
    return {};
}

Schema Schema::listSchema() const
{
    if (isList(*this))
        return *this;
    const QString field = listField();
    return field.isEmpty() ? Schema() : fields().value(field);
}

EntitySchema Schema::rowEntity() const
{
    const Schema list = listSchema();
    if (list.isNull())
        return {};
    const Schema item = list.itemSchema();
    if (item.kind() == Kind::Entity)
        return item.entitySchema();
    return isList(item) ? item.itemSchema().entitySchema() : EntitySchema();
}

bool Schema::normalizesAnywhere() const
{
    bool anywhere = true;
    walk([&anywhere](const Schema &schema) {
        const bool entity
            = schema.kind() == Schema::Kind::Entity || schema.kind() == Schema::Kind::Invalidate;
        if (entity && needsGuiThread(schema.entitySchema()))
            anywhere = false;
        return anywhere;
    });
    return anywhere;
}

Schema Schema::answerSchema(bool answerIsList) const
{
    return visitSchema(*this, Answer {*this, answerIsList});
}

} // namespace DataClient
