// Reader (reader_p.h): entities and values.
#include "reader_p.h"

#include <DataClient/private/schema_p.h>
#include <DataClient/private/variantof_p.h>

namespace DataClient::detail {

Record Reader::entity(quint32 table, quint32 slot, const EntitySchema &schema,
                      const Dependent &parent, bool reportMissing)
{
    EntityViews &views = viewsOf(table, schema);
    if (parent.target)
        views.addEmbedder(slot, parent);
    if (slot < views.views.size() && !views.views[slot].isNull())
        return views.views[slot];
    const EntityTable &entities = *m_store.entityTables[table];
    const Node *node = entities.effective(slot);
    if (!node) {
        if (reportMissing && m_missing)
            m_missing->append(EntityRef {entities.key, entities.slots[slot].pk.toString()});
        return Record();
    }
    // Shown from an optimistic layer: the Record says so (a confirmation or a rollback removes
    // the override and recomputes the view, so a Record never stays pending).
    const bool pending = !entities.overrides.isEmpty() && entities.overrides.contains(slot);
    for (qsizetype i = 0; i < m_path.size(); ++i) {
        if (m_path[i] == std::pair(table, slot)) {
            m_lowestCut = std::min(m_lowestCut, int(i));
            return stub(node, schema, pending);
        }
    }
    if (m_path.size() >= MaxDenormalizeDepth) {
        m_lowestCut = 0;
        return stub(node, schema, pending);
    }
    const auto *s = EntitySchemaPrivate::get(schema);
    if (Q_UNLIKELY(s->unionSpec))
        return unionItem(views, slot, node, schema, reportMissing);
    const int depth = int(m_path.size());
    m_path.append({table, slot});
    const int outerCut = std::exchange(m_lowestCut, INT_MAX);

    const FieldPlan *plan = planFor(s, node->shape);
    auto *d = new RecordPrivate(node, schema, plan);
    d->pending = pending;
    const Dependent self {&views, slot, Dependent::EntityViewKind};
    for (qsizetype n = 0; n < s->nested.size(); ++n) {
        const auto &nested = s->nested.at(n);
        const int index = plan ? plan->nestedIndex[n] : -1;
        const Value *field = plan ? (index >= 0 ? &node->at(index) : nullptr)
                                  : node->field(QStringView(nested.field));
        if (!field) {
            d->nested.append(QVariant());
            continue;
        }
        if (!nested.factory && field->type == ValueType::EntityRef
            && nested.schema.kind() == Schema::Kind::Entity) {
            // The common case (an author of a todo) without value()'s returned QVariant.
            Record record = entity(field->ref.table, field->ref.slot,
                                   SchemaPrivate::get(nested.schema)->entity, self, true);
            QVariant &out = d->nested.emplace_back();
            if (record.isNull())
                out = QVariant::fromValue(nullptr);
            else
                fillVariant(out, std::move(record));
            continue;
        }
        // A schema given directly is used in place; a lazy one is made (a copy) each time.
        d->nested.append(nested.factory ? value(*field, node, nested.factory(), self)
                                        : value(*field, node, nested.schema, self));
    }
    Record record = RecordPrivate::make(d);

    m_path.pop_back();
    const bool cacheable = m_lowestCut >= depth;
    m_lowestCut = std::min(outerCut, m_lowestCut);
    if (cacheable) {
        if (views.views.size() <= slot)
            views.views.resize(std::max<size_t>(entities.slots.size(), slot + 1));
        views.views[slot] = record;
    }
    return record;
}

QVariant Reader::value(const Value &v, const Node *owner, const Schema &schema,
                       const Dependent &parent)
{
    switch (schema.kind()) {
    case Schema::Kind::None:
        return raw(v, owner);
    case Schema::Kind::Entity:
    case Schema::Kind::Invalidate: {
        if (v.type != ValueType::EntityRef)
            return raw(v, owner);
        Record record
            = entity(v.ref.table, v.ref.slot, SchemaPrivate::get(schema)->entity, parent, true);
        return record.isNull() ? QVariant::fromValue(nullptr) : variantOf(std::move(record));
    }
    case Schema::Kind::Array: {
        if (!v.isArray())
            return raw(v, owner);
        const Schema item = schema.itemSchema();
        if (item.kind() == Schema::Kind::Union)
            return unionList(v, *SchemaPrivate::get(item)->unionSpec, parent);
        const bool entities = item.kind() == Schema::Kind::Entity;
        QVariantList items;
        items.reserve(v.node->count);
        for (quint32 i = 0; i < v.node->count; ++i) {
            const Value &element = v.node->at(i);
            if (entities && element.type == ValueType::EntityRef) {
                Record record = entity(element.ref.table, element.ref.slot,
                                       SchemaPrivate::get(item)->entity, parent, false);
                if (!record.isNull()) // lists drop missing entities
                    items.append(variantOf(std::move(record)));
                continue;
            }
            items.append(value(element, v.node, item, parent));
        }
        return items;
    }
    case Schema::Kind::Collection: {
        if (v.type == ValueType::CollectionRef) {
            ListView &view = m_store.listView(v.ref.table, v.ref.slot, schema.entitySchema());
            if (parent.target)
                view.addParent(parent);
            return list(view);
        }
        // push/unshift/remove results hold the entity (or entities) they wrote
        if (v.type == ValueType::EntityRef)
            return value(v, owner, schema.itemSchema(), parent);
        if (v.isArray())
            return value(v, owner, Schema::array(schema.itemSchema()), parent);
        return raw(v, owner);
    }
    case Schema::Kind::Object: {
        if (!v.isObject())
            return raw(v, owner);
        const QHash<QString, Schema> &fields = SchemaPrivate::get(schema)->fields;
        QVariantMap map;
        const Node *object = v.node;
        for (quint32 i = 0; i < object->count; ++i) {
            const QString &key = object->shape->key(i);
            const auto field = fields.constFind(key);
            map.insert(key,
                       field == fields.cend() ? raw(object->at(i), object)
                                              : value(object->at(i), object, *field, parent));
        }
        return map;
    }
    case Schema::Kind::Union: {
        if (v.type != ValueType::EntityRef)
            return raw(v, owner);
        Record record = unionMember(v, *SchemaPrivate::get(schema)->unionSpec, parent, true);
        return record.isNull() ? QVariant::fromValue(nullptr) : variantOf(std::move(record));
    }
    case Schema::Kind::Values:
        return values(v, owner, schema.itemSchema(), parent);
    case Schema::Kind::All: // read from the tables (Store::query()), never stored in a result
    case Schema::Kind::Query:
        return raw(v, owner);
    }
    return {};
}

} // namespace DataClient::detail
