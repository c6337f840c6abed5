// Reading results back (denormalize): the Store's entry points, readResult() and query(). The
// reading itself, entities to Records with nested entities resolved, memoized, cycles cut, is
// Reader (reader_p.h).
#include "reader_p.h"

#include <QtCore/QJsonObject>

namespace DataClient {

using namespace detail;

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
    if (schema.kind() == Schema::Kind::All || schema.kind() == Schema::Kind::Query) {
        result.data = readTableView(schema).first;
        result.found = result.data.isValid();
        return result;
    }
    if (schema.kind() == Schema::Kind::Entity || schema.kind() == Schema::Kind::Invalidate) {
        const EntitySchema entitySchema = schema.entitySchema();
        const QString pk = entitySchema.pk(QJsonObject::fromVariantMap(args));
        EntityTable *table = findEntityTable(entitySchema.key());
        qint64 slot = table && !pk.isEmpty() ? table->find(pk) : -1;
        if (pk.isEmpty() && table) {
            // No pk given: a unique field it is indexed by (withIndexes()) finds it.
            for (const QString &field : entitySchema.indexes()) {
                const auto value = args.constFind(field);
                if (value != args.cend()) {
                    slot = findByIndex(entitySchema, field, Collection::argumentString(*value));
                    break;
                }
            }
        }
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
