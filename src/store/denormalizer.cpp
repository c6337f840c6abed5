// Reading results back (denormalize): entities become Records with their nested entities
// resolved, memoized per (entity table, schema) with reverse dependencies (memo_p.h).
// Cycles between entities are cut: an entity already being read higher up appears as a Record
// whose nested fields are null; views below such a cut depend on the context and are not memoized.
#include "storeprivate_p.h"

#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/listpatch_p.h>
#include <DataClient/private/record_p.h>
#include <DataClient/private/schema_p.h>
#include <DataClient/private/variantof_p.h>

#include <QtCore/QJsonObject>

#include <algorithm>
#include <climits>

namespace DataClient {

using namespace detail;

namespace {

constexpr int MaxDenormalizeDepth = 64;

// A copy of a list of rows (Records) that a view still holds while one of its rows is replaced.
// Each copied row increments its Record's reference count: at 1M rows that is a cache miss per
// row, the Records being spread over the heap. Touching the counts some rows ahead lets those
// misses overlap instead of waiting for each in turn (what QList's own copy does).
QVariantList copyOfRows(const QVariantList &rows)
{
    constexpr qsizetype Ahead = 16;
    const QMetaType recordType = QMetaType::fromType<Record>();
    const qsizetype n = rows.size();
    const QVariant *in = rows.constData();
    const auto prefetch = [&](qsizetype i) {
        if (i < n && in[i].metaType() == recordType)
            __builtin_prefetch(*static_cast<void *const *>(in[i].constData()), 1);
    };
    QVariantList copy;
    copy.reserve(n);
    copy.resize(n);
    QVariant *out = copy.data();
    for (qsizetype i = 0; i < Ahead; ++i)
        prefetch(i);
    for (qsizetype i = 0; i < n; ++i) {
        prefetch(i + Ahead);
        if (in[i].metaType() == recordType)
            fillVariant(out[i], *static_cast<const Record *>(in[i].constData()));
        else
            out[i] = in[i];
    }
    return copy;
}

class Reader
{
public:
    Reader(StorePrivate &store, QList<EntityRef> *missing) : m_store(store), m_missing(missing) { }

    QVariant value(const Value &v, const Node *owner, const Schema &schema,
                   const Dependent &parent);
    Record entity(quint32 table, quint32 slot, const EntitySchema &schema, const Dependent &parent,
                  bool reportMissing);
    QVariant list(ListView &view);

private:
    //! Replaces the rows of view.dirtySlots in the view's list; false when it must be re-read.
    bool patchRows(ListView &view);
    void rebuildRows(ListView &view, const QList<quint32> *items);
    const CollectionTable &collections(const ListView &view) const
    {
        return *m_store.collectionTables[view.collectionTable];
    }

    QVariant raw(const Value &v, const Node *owner) const
    {
        return toVariant(v, owner, m_store.refRenderer());
    }
    Record stub(const Node *node, const EntitySchema &schema, bool pending)
    {
        const auto *s = EntitySchemaPrivate::get(schema);
        auto *d = new RecordPrivate(node, schema, planFor(s, node->shape));
        d->pending = pending;
        for (qsizetype i = 0; i < s->nested.size(); ++i)
            d->nested.append(QVariant::fromValue(nullptr));
        return RecordPrivate::make(d);
    }

    //! The schema's field plan for \a shape, remembered for the next rows of the same shape.
    const FieldPlan *planFor(const EntitySchemaPrivate *schema, const Shape *shape)
    {
        if (!shape)
            return nullptr;
        for (const RecentPlan &recent : m_recentPlans) {
            if (recent.schema == schema && recent.shape == shape)
                return recent.plan;
        }
        const FieldPlan *plan = schema->fieldPlan(shape);
        std::move_backward(m_recentPlans, m_recentPlans + 3, m_recentPlans + 4);
        m_recentPlans[0] = {schema, shape, plan};
        return plan;
    }

    EntityViews &viewsOf(quint32 table, const EntitySchema &schema)
    {
        const void *key = EntitySchemaPrivate::get(schema);
        for (auto &[t, k, views] : m_recentViews) {
            if (views && t == table && k == key)
                return *views;
        }
        EntityViews &views = m_store.entityViews(table, schema);
        std::move_backward(m_recentViews, m_recentViews + 3, m_recentViews + 4);
        m_recentViews[0] = {table, key, &views};
        return views;
    }

    StorePrivate &m_store;
    QList<EntityRef> *m_missing;
    struct RecentViews
    {
        quint32 table = 0;
        const void *schema = nullptr;
        EntityViews *views = nullptr;
    };
    RecentViews m_recentViews[4];
    struct RecentPlan
    {
        const EntitySchemaPrivate *schema = nullptr;
        const Shape *shape = nullptr;
        const FieldPlan *plan = nullptr;
    };
    RecentPlan m_recentPlans[4];
    QVarLengthArray<std::pair<quint32, quint32>, 16> m_path; // entities being read
    int m_lowestCut = INT_MAX; // shallowest m_path index a cut referred to
};

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
    const int depth = int(m_path.size());
    m_path.append({table, slot});
    const int outerCut = std::exchange(m_lowestCut, INT_MAX);

    const auto *s = EntitySchemaPrivate::get(schema);
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
    }
    return {};
}

QVariant Reader::list(ListView &view)
{
    if (!view.dirty)
        return view.value;
    const CollectionTable &collections = *m_store.collectionTables[view.collectionTable];
    const QList<quint32> *items = collections.effective(view.collectionSlot);
    bool rebuild = view.structural || !view.value.isValid() || !items;
    if (view.patched) // the previous value's patch no longer describes the value
        forgetListPatch(std::exchange(view.patched, nullptr));
    if (!rebuild)
        rebuild = !patchRows(view);
    if (rebuild)
        rebuildRows(view, items);
    view.dirty = false;
    view.structural = false;
    view.dirtySlots.clear();
    return view.value;
}

bool Reader::patchRows(ListView &view)
{
    // The rows of the entities that changed are replaced; anything else re-reads the list.
    // The list is taken out of the view first, so that one nobody else holds is patched in
    // place. One that a model or a caller still holds is copied: N QVariants (a Record
    // reference each) - a persistent list type would be needed to avoid it.
    QVariantList rows = view.value.toList();
    const void *from = rows.constData();
    view.value = QVariant();
    if (!rows.isDetached() && rows.size() >= 65536) // shorter ones: QList's copy (measured)
        rows = copyOfRows(rows);
    QList<qsizetype> replaced;
    for (quint32 slot : std::as_const(view.dirtySlots)) {
        const qint32 at = slot < view.rowOf.size() ? view.rowOf[slot] : ListView::NoRow;
        if (at == ListView::NoRow) {
            if (slot < view.members.size() && view.members[slot])
                return false; // an entity that was missing came back
            continue;
        }
        const Record record
            = entity(collections(view).itemTable, slot, view.items->schema, Dependent(), false);
        if (record.isNull())
            return false; // the entity is gone: its row goes
        const auto replace = [&](qsizetype row) {
            rows[row] = QVariant::fromValue(record);
            replaced.append(row);
        };
        if (at >= 0) {
            replace(at);
        } else { // in several rows: rare, scanned
            for (qsizetype row = 0; row < view.rowSlots.size(); ++row) {
                if (view.rowSlots.at(row) == slot)
                    replace(row);
            }
        }
    }
    std::sort(replaced.begin(), replaced.end());
    view.value = rows;
    if (from != rows.constData() && !replaced.isEmpty()) {
        view.patched = rows.constData();
        recordListPatch(rows, from, std::move(replaced));
    }
    return true;
}

void Reader::rebuildRows(ListView &view, const QList<quint32> *items)
{
    QVariantList rows;
    view.rowSlots.clear();
    view.members.clear();
    view.rowOf.clear();
    if (!items) {
        view.value = QVariant();
        return;
    }
    for (quint32 slot : *items) {
        if (view.members.size() <= slot)
            view.members.resize(std::max<size_t>(slot + 1, view.members.size() * 2), false);
        view.members[slot] = true;
    }
    view.rowOf.assign(view.members.size(), ListView::NoRow);
    // Rows are filled where they live (fillVariant()); missing entities are dropped.
    rows.reserve(items->size()); // exactly: resize() alone rounds up to a power of 2
    rows.resize(items->size());
    QVariant *row = rows.data();
    view.rowSlots.reserve(items->size());
    const quint32 itemTable = collections(view).itemTable;
    for (quint32 slot : *items) {
        Record record = entity(itemTable, slot, view.items->schema, Dependent(), false);
        if (record.isNull())
            continue;
        fillVariant(*row++, std::move(record));
        qint32 &at = view.rowOf[slot];
        at = at == ListView::NoRow ? qint32(view.rowSlots.size()) : ListView::SeveralRows;
        view.rowSlots.append(slot);
    }
    rows.resize(row - rows.constData());
    view.value = rows;
}

} // namespace

RefToJson StorePrivate::refRenderer() const
{
    return [this](const Value &ref) -> QJsonValue {
        if (ref.type == ValueType::EntityRef)
            return entityTables[ref.ref.table]->slots[ref.ref.slot].pk.toString();
        return collectionTables[ref.ref.table]->slots[ref.ref.slot].argsKey;
    };
}

Denormalized StorePrivate::readResult(const QString &key, const Schema &schema)
{
    const Node *holder = effectiveResult(key);
    if (!holder)
        return {};
    ResultView &view = resultView(key);
    const Meta meta = results.value(key).meta;
    if (!view.dirty && view.schema == schema) {
        view.value.meta = meta;
        return view.value;
    }
    // The previous read is let go first: a list nobody else holds any more is then patched in
    // place rather than copied (Reader::patchRows()).
    view.value = Denormalized();
    Denormalized result;
    Reader reader(*this, &result.missing);
    const Dependent self {&view, view.generation, Dependent::ResultKind};
    result.data = reader.value(holder->at(0), holder, schema, self);
    const Value &top = holder->at(0);
    result.found = !(top.type == ValueType::EntityRef && result.data.isNull());
    result.meta = meta;
    view.schema = schema;
    view.value = result;
    view.dirty = false;
    return result;
}

Denormalized StorePrivate::query(const Schema &schema, const Params &args)
{
    Denormalized result;
    Reader reader(*this, &result.missing);
    if (schema.kind() == Schema::Kind::Entity || schema.kind() == Schema::Kind::Invalidate) {
        const EntitySchema entitySchema = schema.entitySchema();
        const QString pk = entitySchema.pk(QJsonObject::fromVariantMap(args));
        EntityTable *table = findEntityTable(entitySchema.key());
        const qint64 slot = table && !pk.isEmpty() ? table->find(pk) : -1;
        if (slot < 0) {
            if (!pk.isEmpty())
                result.missing.append(EntityRef {entitySchema.key(), pk});
            return result;
        }
        const Record record
            = reader.entity(table->id, quint32(slot), entitySchema, Dependent(), true);
        result.found = !record.isNull();
        result.data = record.isNull() ? QVariant() : QVariant::fromValue(record);
        if (const MetaRef &meta = table->slots[slot].meta)
            result.meta = meta->meta;
        return result;
    }
    const Schema collection = schema.collectionSchema();
    if (collection.isNull())
        return result;
    const auto tableId = collectionTableIds.constFind(collection.key());
    if (tableId == collectionTableIds.cend())
        return result;
    const CollectionTable &table = *collectionTables[tableId.value()];
    const qint64 slot = table.find(Collection::argumentsKey(args));
    if (slot < 0 || !table.effective(quint32(slot)))
        return result;
    ListView &view = listView(table.id, quint32(slot), collection.entitySchema());
    result.data = reader.list(view);
    result.found = true;
    if (const MetaRef &meta = table.slots[slot].meta)
        result.meta = meta->meta;
    return result;
}

} // namespace DataClient
