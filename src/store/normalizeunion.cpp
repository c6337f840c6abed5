// Normalizing the kinds whose items are of several entity types (Union) or keyed by id (Values).
#include "normalizer_p.h"

#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/schema_p.h>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

int Normalizer::unionMember(const UnionSpec &spec, const Value &value, const Node *owner,
                            const Path &path, const Parent &parent) const
{
    // Made only for an error: every item of a feed comes through here.
    const auto expected = [&spec] {
        return spec.typeField.isEmpty()
            ? u"an object its pick function gives one of the types %1"_s.arg(spec.knownNames())
            : u"an object whose field \"%1\" is one of the types %2"_s.arg(spec.typeField,
                                                                           spec.knownNames());
    };
    if (!value.isObject())
        fail(spec.key, path, expected(), describe(value, owner));
    const Node *object = value.node;
    if (spec.typeField.isEmpty()) {
        const QString name = spec.pick(
            objectJson(object), parent.node ? QJsonValue(objectJson(parent.node)) : QJsonValue());
        const int member = spec.byName.value(name, -1);
        if (member < 0)
            fail(spec.key, path, expected(),
                 u"the type \"%1\" for %2"_s.arg(name, describe(value, owner)));
        return member;
    }
    const Value *field = object->field(QStringView(spec.typeField));
    if (field && field->type == ValueType::String && field->inBlob() && !field->utf16) {
        // The usual case, a short Latin-1 name: compared in place with the few members' names.
        const QLatin1StringView name = object->latin1(*field);
        for (qsizetype i = 0; i < spec.names.size(); ++i) {
            if (spec.names.at(i) == name)
                return int(i);
        }
    }
    const QString name = field ? pkOf(*field, object) : QString();
    const int member = name.isEmpty() ? -1 : spec.byName.value(name, -1);
    if (member < 0) {
        const Path at {&path, spec.typeField};
        fail(spec.key, at, expected(),
             field ? u"%1 (not a known type)"_s.arg(describe(*field, object)) : u"nothing"_s);
    }
    return member;
}

void Normalizer::visitUnion(const Value &value, const Node *owner, const Schema &schema,
                            const Path &path, const Parent &parent, int depth, NodeBuilder &out)
{
    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    const UnionSpec &spec = *SchemaPrivate::get(schema)->unionSpec;
    const int member = unionMember(spec, value, owner, path, parent);
    // The reference names the member's table: read back, it tells the member again.
    const auto [table, slot] = entity(value, owner, spec.entities.at(member), path, parent, depth);
    out.appendValue(Value::makeRef(ValueType::EntityRef, table, slot, true));
}

std::pair<quint32, quint32> Normalizer::unionItem(const Value &value, const Node *owner,
                                                  const EntitySchema &item, const Path &path,
                                                  const Parent &parent, int depth, NodeRef *record)
{
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(item);
    const UnionSpec &spec = *s->unionSpec;
    const int member = unionMember(spec, value, owner, path, parent);
    const EntitySchema &memberSchema = spec.entities.at(member);
    const auto [memberTable, memberSlot] = entity(value, owner, memberSchema, path, parent, depth);
    const EntityTable &members = *m_batch.local.entities[memberTable];
    const QString pk = members.key + u':' + members.slots[memberSlot].pk.toString();
    EntityTable &table = m_batch.local.entityTable(s->key);
    const quint32 slot = slotFor(table, pk, path);
    const Shape *shape = nullptr;
    for (const auto &[key, known] : m_unionShapes) {
        if (key == std::pair<const void *, int>(&spec, member))
            shape = known.get();
    }
    if (!shape) {
        m_unionShapes.emplace_back(std::pair<const void *, int>(&spec, member),
                                   Shape::intern({spec.names.at(member)}));
        shape = m_unionShapes.back().second.get();
    }
    NodeBuilder builder;
    builder.appendValue(Value::makeRef(ValueType::EntityRef, memberTable, memberSlot, true));
    NodeRef node = builder.finishObject(shape);
    if (record)
        *record = node;
    stage(table, slot, std::move(node), item, false);
    return {table.id, slot};
}

void Normalizer::visitValues(const Value &value, const Node *owner, const Schema &schema,
                             const Path &path, const Parent &parent, int depth, NodeBuilder &out)
{
    if (value.isNullish()) {
        out.appendValue(Value::makeNull());
        return;
    }
    if (!value.isObject())
        fail(schema.key(), path, u"an object keyed by id"_s, describe(value, owner));
    const Schema item = schema.itemSchema();
    const Node *object = value.node;
    if (item.kind() == Schema::Kind::Entity) {
        m_batch.local.entityTable(item.key()).reserve(object->count);
        m_batch.entities.reserve(m_batch.entities.size() + object->count);
    }
    // One pass, each value written once: the keys keep the object's shape (and order).
    NodeBuilder builder;
    builder.reserve(object->count, 0);
    for (quint32 i = 0; i < object->count; ++i) {
        const Path at {&path, object->shape->key(i)};
        visit(object->at(i), object, item, at, parent, depth + 1, builder);
    }
    out.appendNode(builder.finishObject(object->shape));
}

} // namespace DataClient::detail
