// Normalizing: the walk over an answer with its schema (values, arrays, objects, entities) into
// a write batch, and the read plans of entity shapes; one entity in normalizeentity.cpp,
// collections in normalizecollection.cpp.
#include "normalizer_p.h"

#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/numbertext_p.h>
#include <DataClient/private/schema_p.h>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

QString pkOf(const Value &value, const Node *owner)
{
    return pkText(value, owner);
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

quint32 Normalizer::slotInFullTable(EntityTable &table, QStringView pk, const Path &path) const
{
    if (table.find(pk) < 0) {
        fail(table.key, path, u"at most %1 entities of one key"_s.arg(EntityTable::capacity()),
             u"one more (\"%1\")"_s.arg(pk));
    }
    return table.findOrAdd(pk);
}

namespace {
// The first object under \a value wider than MaxObjectKeys, depth first, and where it is.
const Node *wideObject(const Value &value, const Normalizer::Path &path, QString *where)
{
    if (!value.isObject() && !value.isArray())
        return nullptr;
    const Node *node = value.node;
    if (!node->isArray && node->count > MaxObjectKeys) {
        *where = path.render();
        return node;
    }
    for (quint32 i = 0; i < node->count; ++i) {
        const Normalizer::Path at = node->isArray ? Normalizer::Path {&path, {}, qsizetype(i)}
                                                  : Normalizer::Path {&path, node->shape->key(i)};
        if (const Node *wide = wideObject(node->at(i), at, where))
            return wide;
    }
    return nullptr;
}
} // namespace

void Normalizer::refuseTooManyKeys(const Node *holder, const QString &entityKey) const
{
    // Only trees fromJsonValue() marked: the JSON parser refuses such objects in the text.
    if (!holder->tooManyKeys)
        return;
    QString where;
    const Node *wide = wideObject(holder->at(0), Path {}, &where);
    Q_ASSERT(wide);
    throw SchemaError(entityKey, where, u"an object with at most %1 keys"_s.arg(MaxObjectKeys),
                      u"an object with %1 keys"_s.arg(wide ? wide->count : 0));
}

void Normalizer::refuseMissingPkFields(const EntitySchema &schema, const QJsonObject &object,
                                       const Path &path) const
{
    const QStringList missing = schema.missingPkFields(object);
    if (missing.isEmpty())
        return;
    QStringList fields;
    for (const QString &field : schema.pkFields())
        fields.append(u'"' + field + u'"');
    QStringList found;
    for (const QString &field : missing)
        found.append(u"\"%1\": %2"_s.arg(field, SchemaError::describe(object.value(field))));
    const bool gadget = schema.gadget();
    fail(schema.key(), missing.size() == 1 ? Path {&path, missing.first()} : path,
         u"a primary key, which %1 computes from the field%2 %3 (present and not null%4)"_s.arg(
             gadget ? u"its pk()"_s : u"its pk function"_s, fields.size() == 1 ? QString() : u"s"_s,
             fields.join(u", "_s), gadget ? u", converting to the property's type"_s : QString()),
         found.join(u", "_s) + u" in "_s + SchemaError::describe(object));
}

void Normalizer::run(const Node *holder, const Schema &schema)
{
    refuseTooManyKeys(holder, schema.key());
    NodeBuilder result;
    visit(holder->at(0), holder, schema, Path {}, Parent {}, 0, result);
    m_batch.result = result.finishArray();
    // What a schema's answer keeps of the text as is (a "meta" object beside the entities) is
    // copied out of the parse's arena, so that it does not pin the answer's blocks. An answer
    // without a schema is all kept anyway: it keeps its arena (docs/performance.md).
    if (schema.kind() != Schema::Kind::None)
        const_cast<Node *>(m_batch.result.get())->detachChildren();
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
    case Schema::Kind::Union:
        return visitUnion(value, owner, schema, path, parent, depth, out);
    case Schema::Kind::Values:
        return visitValues(value, owner, schema, path, parent, depth, out);
    case Schema::Kind::All:
    case Schema::Kind::Query:
        fail(schema.key(), path,
             u"a schema that can be written (All and Query are read with Store::query())"_s,
             describe(value, owner));
    }
}

void Normalizer::visitEntity(const Value &value, const Node *owner, const Schema &schema,
                             const Path &path, const Parent &parent, int depth, NodeBuilder &out)
{
    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    const auto [table, slot]
        = entity(value, owner, SchemaPrivate::get(schema)->entity, path, parent, depth);
    out.appendValue(Value::makeRef(ValueType::EntityRef, table, slot, true));
}

NodeBuilder &Normalizer::builderAt(int depth)
{
    while (int(m_builders.size()) <= depth)
        m_builders.push_back(std::make_unique<NodeBuilder>());
    return *m_builders[size_t(depth)];
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
    if (item.kind() == Schema::Kind::Entity) {
        m_batch.local.entityTable(item.key()).reserve(array->count);
        m_batch.entities.reserve(m_batch.entities.size() + array->count);
    }
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

const Normalizer::Plan &Normalizer::planOfOthers(const EntitySchema &schema, const Shape *shape)
{
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(schema);
    for (int i = 2; i < 4 && m_recentPlans[i]; ++i) {
        Plan *recent = m_recentPlans[i];
        if (recent->schema == s && recent->shape == shape) {
            std::swap(m_recentPlans[i], m_recentPlans[i - 1]);
            return *recent;
        }
    }
    const QPair<const void *, const void *> key(s, shape);
    Plan *found = nullptr;
    if (m_planStore.size() <= 8) { // a few plans: no hash table to build
        for (const auto &known : m_planStore) {
            if (known->schema == s && known->shape == shape)
                found = known.get();
        }
    } else {
        found = m_plans.value(key);
    }
    if (!found) {
        m_planStore.push_back(std::make_unique<Plan>());
        found = m_planStore.back().get();
        found->schema = s;
        found->shape = shape;
        found->table = &m_batch.local.entityTable(s->key);
        if (!s->pkFunction)
            found->pkIndex = shape->indexOf(QStringView(s->pkField));
        for (const auto &nested : s->nested) {
            const int index = shape->indexOf(QStringView(nested.field));
            if (index >= 0)
                found->nested.append({index, nested.resolve()});
        }
        for (const auto &[name, deserializer] : s->deserializers) {
            const int index = shape->indexOf(QStringView(name));
            if (index >= 0)
                found->deserializers.append({index, deserializer});
        }
        if (m_planStore.size() == 9) {
            for (const auto &known : m_planStore)
                m_plans.insert({known->schema, known->shape}, known.get());
        } else if (m_planStore.size() > 9) {
            m_plans.insert(key, found);
        }
    }
    std::move_backward(m_recentPlans, m_recentPlans + 3, m_recentPlans + 4);
    m_recentPlans[0] = found;
    return *found;
}

} // namespace DataClient::detail
