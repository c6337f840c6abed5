// Reader (reader_p.h): Union items (read with the member their table names) and Values.
#include "reader_p.h"

#include <DataClient/private/variantof_p.h>

namespace DataClient::detail {

Record Reader::unionMember(const Value &v, const UnionSpec &spec, const Dependent &parent,
                           bool reportMissing)
{
    const int member = spec.memberOfKey(m_store.entityTables[v.ref.table]->key);
    if (member < 0)
        return Record();
    return entity(v.ref.table, v.ref.slot, spec.entities.at(member), parent, reportMissing);
}

QVariant Reader::unionList(const Value &v, const UnionSpec &spec, const Dependent &parent)
{
    QVariantList items;
    items.reserve(v.node->count);
    for (quint32 i = 0; i < v.node->count; ++i) {
        const Value &element = v.node->at(i);
        if (element.type != ValueType::EntityRef) {
            items.append(raw(element, v.node));
            continue;
        }
        Record record = unionMember(element, spec, parent, false);
        if (!record.isNull()) // lists drop missing entities
            items.append(variantOf(std::move(record)));
    }
    return items;
}

Record Reader::unionItem(EntityViews &views, quint32 slot, const Node *node,
                         const EntitySchema &schema, bool reportMissing)
{
    // The item holds one field: the member's name, referring to the member entity.
    const auto *s = EntitySchemaPrivate::get(schema);
    if (!node->shape || node->count != 1 || node->at(0).type != ValueType::EntityRef)
        return Record();
    const Value &ref = node->at(0);
    const int depth = int(m_path.size());
    const int outerCut = std::exchange(m_lowestCut, INT_MAX);
    const int member = s->unionSpec->byName.value(node->shape->key(0), -1);
    const Dependent self {&views, slot, Dependent::EntityViewKind};
    Record record = member < 0 ? Record()
                               : entity(ref.ref.table, ref.ref.slot,
                                        s->unionSpec->entities.at(member), self, reportMissing);
    const bool cacheable = m_lowestCut >= depth;
    m_lowestCut = std::min(outerCut, m_lowestCut);
    if (cacheable && !record.isNull()) {
        if (views.views.size() <= slot)
            views.views.resize(
                std::max<size_t>(m_store.entityTables[views.table]->slots.size(), slot + 1));
        views.views[slot] = record;
    }
    return record;
}

QVariant Reader::values(const Value &v, const Node *owner, const Schema &item,
                        const Dependent &parent)
{
    if (!v.isObject())
        return raw(v, owner);
    const Node *object = v.node;
    QVariantMap map;
    for (quint32 i = 0; i < object->count; ++i)
        map.insert(object->shape->key(i), value(object->at(i), object, item, parent));
    return map;
}

} // namespace DataClient::detail
