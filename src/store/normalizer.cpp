#include "normalizer_p.h"

#include "compactjson_p.h"
#include "deserializer_p.h"
#include "entityschema_p.h"
#include "schema_p.h"

#include <QtCore/QJsonObject>
#include <QtCore/QLocale>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

QString pkOf(const Value &value, const Node *owner)
{
    switch (value.type) {
    case ValueType::String:
        return owner->string(value);
    case ValueType::Number: {
        const double number = value.number;
        if (number == double(qint64(number)))
            return QString::number(qint64(number));
        return QString::number(number, 'g', QLocale::FloatingPointShortest);
    }
    default:
        return {};
    }
}

QJsonObject objectJson(const Node *object)
{
    Value value;
    value.type = ValueType::Object;
    value.node = const_cast<Node *>(object);
    return toJsonValue(value, nullptr).toObject();
}

QString Normalizer::Path::render() const
{
    QString text;
    if (parent)
        text = parent->render();
    if (index >= 0)
        text += u"[%1]"_s.arg(index);
    else if (!field.isEmpty())
        text += (text.isEmpty() ? QString() : u"."_s) + field.toString();
    return text;
}

void Normalizer::fail(const QString &entityKey, const Path &path, const QString &expected,
                      const QString &found) const
{
    throw SchemaError(entityKey, path.render(), expected, found);
}

void Normalizer::run(const Node *holder, const Schema &schema)
{
    NodeBuilder result;
    visit(holder->at(0), holder, schema, Path {}, Parent {}, 0, result);
    m_batch.result = result.finishArray();
}

void Normalizer::visit(const Value &value, const Node *owner, const Schema &schema,
                       const Path &path, const Parent &parent, int depth, NodeBuilder &out)
{
    if (depth > MaxNormalizeDepth)
        fail(schema.key(), path, u"at most %1 levels of nesting"_s.arg(MaxNormalizeDepth),
             u"deeper nesting"_s);
    switch (schema.kind()) {
    case Schema::Kind::None:
        out.append(value, owner);
        return;
    case Schema::Kind::Entity:
        return visitEntity(value, owner, schema, path, parent, depth, out);
    case Schema::Kind::Array:
        return visitArray(value, owner, schema, path, parent, depth, out);
    case Schema::Kind::Object:
        return visitObject(value, owner, schema, path, parent, depth, out);
    case Schema::Kind::Collection:
        return visitCollection(value, owner, schema, path, parent, depth, out);
    case Schema::Kind::Invalidate:
        return visitInvalidate(value, owner, schema, path, out);
    }
}

void Normalizer::visitEntity(const Value &value, const Node *owner, const Schema &schema,
                             const Path &path, const Parent &parent, int depth, NodeBuilder &out)
{
    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    const EntitySchema &entitySchema = SchemaPrivate::get(schema)->entity;
    const quint32 slot = entity(value, owner, entitySchema, path, parent, depth);
    out.appendValue(
        Value::makeRef(ValueType::EntityRef, m_store.entityTable(entitySchema.key()).id, slot));
}

quint32 Normalizer::entity(const Value &input, const Node *owner, const EntitySchema &schema,
                           const Path &path, const Parent &parent, int depth, NodeRef *record)
{
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(schema);
    if (!s)
        fail(QString(), path, u"an entity schema"_s, u"a null EntitySchema"_s);
    if (!input.isObject()) {
        fail(s->key, path,
             s->pkField.isEmpty() ? u"an object"_s
                                  : u"an object with a primary key field \"%1\""_s.arg(s->pkField),
             describe(input, owner));
    }
    NodeRef object = NodeRef::share(input.node);
    NodeRef processedHolder;
    if (s->process) {
        Value parentValue;
        if (parent.node) {
            parentValue.type = ValueType::Object;
            parentValue.node = const_cast<Node *>(parent.node);
        }
        const QJsonObject processed
            = s->process(toJsonValue(input, owner).toObject(),
                         parent.node ? toJsonValue(parentValue, nullptr) : QJsonValue(), m_args);
        processedHolder = fromJsonValue(processed);
        object = NodeRef::share(processedHolder->at(0).node);
    }

    QString pk;
    if (s->pkFunction) {
        Value objectValue;
        objectValue.type = ValueType::Object;
        objectValue.node = const_cast<Node *>(object.get());
        pk = s->pkFunction(toJsonValue(objectValue, nullptr).toObject());
        if (pk.isEmpty())
            fail(s->key, path, u"a non-empty primary key (from its pk function)"_s,
                 u"an empty one in "_s + describe(objectValue, nullptr));
    } else {
        const Value *field = object->field(QStringView(s->pkField));
        pk = field ? pkOf(*field, object.get()) : QString();
        if (pk.isEmpty()) {
            const Path at {&path, s->pkField};
            fail(s->key, at, u"a non-empty primary key (a string or a number)"_s,
                 field ? describe(*field, object.get()) : u"nothing"_s);
        }
    }

    for (const auto &[name, deserializer] : s->deserializers) {
        const Value *field = object->field(QStringView(name));
        if (field && !accepts(deserializer, *field, object.get())) {
            const Path at {&path, name};
            fail(s->key, at, deserializer.expected(), describe(*field, object.get()));
        }
    }

    // Nested schemas: the record keeps references in place of the nested values.
    bool hasNested = false;
    for (const auto &nested : s->nested) {
        if (object->field(QStringView(nested.field))) {
            hasNested = true;
            break;
        }
    }
    if (hasNested) {
        NodeBuilder builder;
        builder.reserve(object->count, object->blobSize);
        const Parent here {object.get(), &schema, pk};
        for (quint32 i = 0; i < object->count; ++i) {
            const QString &key = object->shape->key(i);
            const auto *nested = s->findNested(key);
            if (!nested) {
                builder.append(object->at(i), object.get());
                continue;
            }
            const Path at {&path, key};
            visit(object->at(i), object.get(), nested->resolve(), at, here, depth + 1, builder);
        }
        object = builder.finishObject(object->shape);
    }

    EntityTable &table = m_store.entityTable(s->key);
    const quint32 slot = table.findOrAdd(pk);
    if (record)
        *record = object;
    stage(table, slot, std::move(object), schema, false);
    return slot;
}

void Normalizer::stage(EntityTable &table, quint32 slot, NodeRef node, const EntitySchema &schema,
                       bool invalidate)
{
    if (m_batch.staged.size() <= table.id)
        m_batch.staged.resize(table.id + 1);
    std::vector<quint32> &staged = m_batch.staged[table.id];
    if (staged.size() <= slot)
        staged.resize(std::max<size_t>(table.slots.size(), slot + 1), 0);
    if (staged[slot] != 0) {
        // The same entity again in one response: the later occurrence merges over the earlier.
        EntityWrite &earlier = m_batch.entities[staged[slot] - 1];
        if (invalidate || earlier.invalidate) {
            earlier.node = std::move(node);
            earlier.invalidate = invalidate;
        } else if (!nodesEqual(earlier.node.get(), node.get())) {
            earlier.node = StorePrivate::mergeRecords(schema, earlier.node, node, true);
        }
        return;
    }
    m_batch.entities.push_back(EntityWrite {table.id, slot, std::move(node), schema, invalidate});
    staged[slot] = quint32(m_batch.entities.size());
}

void Normalizer::visitArray(const Value &value, const Node *owner, const Schema &schema,
                            const Path &path, const Parent &parent, int depth, NodeBuilder &out)
{
    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    const Schema item = schema.itemSchema();
    if (!value.isArray())
        fail(item.key(), path, u"an array"_s, describe(value, owner));
    const Node *array = value.node;
    NodeBuilder builder;
    builder.reserve(array->count, 0);
    for (quint32 i = 0; i < array->count; ++i) {
        const Path at {&path, {}, qsizetype(i)};
        visit(array->at(i), array, item, at, parent, depth + 1, builder);
    }
    out.appendNode(builder.finishArray());
}

void Normalizer::visitObject(const Value &value, const Node *owner, const Schema &schema,
                             const Path &path, const Parent &parent, int depth, NodeBuilder &out)
{
    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    if (!value.isObject())
        fail(schema.key(), path, u"an object"_s, describe(value, owner));
    const Node *object = value.node;
    const QHash<QString, Schema> &fields = SchemaPrivate::get(schema)->fields;
    NodeBuilder builder;
    builder.reserve(object->count, object->blobSize);
    for (quint32 i = 0; i < object->count; ++i) {
        const QString &key = object->shape->key(i);
        const auto field = fields.constFind(key);
        if (field == fields.cend()) {
            builder.append(object->at(i), object);
            continue;
        }
        const Path at {&path, key};
        visit(object->at(i), object, field.value(), at, parent, depth + 1, builder);
    }
    out.appendNode(builder.finishObject(object->shape));
}

void Normalizer::visitCollection(const Value &value, const Node *owner, const Schema &schema,
                                 const Path &path, const Parent &parent, int depth,
                                 NodeBuilder &out)
{
    const SchemaPrivate *c = SchemaPrivate::get(schema);
    const EntitySchema &item = c->entity;
    if (item.isNull())
        fail(schema.key(), path, u"a Collection of an Entity schema"_s, u"another schema"_s);
    const Schema::CollectionMode mode = c->mode;
    EntityTable &itemTable = m_store.entityTable(item.key());
    CollectionTable &table = m_store.collectionTable(schema.key(), itemTable.id);

    CollectionWrite write;
    write.table = table.id;
    write.collection = schema;
    const bool addsToStored = mode == Schema::CollectionMode::Push
        || mode == Schema::CollectionMode::Unshift || mode == Schema::CollectionMode::Remove;
    if (addsToStored) {
        // The response is the created (or removed) entity, or a list of them.
        write.args = m_args;
        if (value.isObject()) {
            NodeRef record;
            write.items.append(entity(value, owner, item, path, parent, depth + 1, &record));
            write.itemNodes.append(record);
            out.appendValue(Value::makeRef(ValueType::EntityRef, itemTable.id, write.items.last()));
        } else if (value.isArray()) {
            NodeBuilder refs;
            for (quint32 i = 0; i < value.node->count; ++i) {
                const Path at {&path, {}, qsizetype(i)};
                NodeRef record;
                write.items.append(
                    entity(value.node->at(i), value.node, item, at, parent, depth + 1, &record));
                write.itemNodes.append(record);
                refs.appendValue(
                    Value::makeRef(ValueType::EntityRef, itemTable.id, write.items.last()));
            }
            out.appendNode(refs.finishArray());
        } else {
            fail(item.key(), path, u"the created entity (an object) or a list of them"_s,
                 describe(value, owner));
        }
        m_batch.collections.push_back(std::move(write));
        return;
    }

    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    if (!value.isArray())
        fail(schema.key(), path, u"an array"_s, describe(value, owner));
    // Identity: the call's arguments, or for a collection nested in an entity, its parent.
    write.args = parent.node ? c->collectionType->nestedArguments(
                     parent.entity->key(), parent.pk.toString(), objectJson(parent.node))
                             : m_args;
    const QString argsKey = Collection::argumentsKey(write.args);
    const Node *array = value.node;
    write.items.reserve(array->count);
    for (quint32 i = 0; i < array->count; ++i) {
        const Path at {&path, {}, qsizetype(i)};
        write.items.append(entity(array->at(i), array, item, at, parent, depth + 1));
    }
    write.slot = table.findOrAdd(argsKey, write.args);
    out.appendValue(Value::makeRef(ValueType::CollectionRef, table.id, quint32(write.slot)));
    m_batch.collections.push_back(std::move(write));
}

void Normalizer::visitInvalidate(const Value &value, const Node *owner, const Schema &schema,
                                 const Path &path, NodeBuilder &out)
{
    const EntitySchema &entity = SchemaPrivate::get(schema)->entity;
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(entity);
    QString pk;
    if (value.isString() || value.type == ValueType::Number) {
        pk = pkOf(value, owner); // CASES 34: a bare pk string counts (the reference ignores it)
    } else if (value.isObject()) {
        pk = entity.pk(toJsonValue(value, owner).toObject());
    }
    if (pk.isEmpty()) {
        fail(s ? s->key : QString(), path,
             u"the primary key (a string) or an object with the primary key field \"%1\""_s.arg(
                 s ? s->pkField : QString()),
             describe(value, owner));
    }
    EntityTable &table = m_store.entityTable(s->key);
    const quint32 slot = table.findOrAdd(pk);
    stage(table, slot, {}, entity, true);
    out.appendValue(Value::makeRef(ValueType::EntityRef, table.id, slot));
}

} // namespace DataClient::detail
