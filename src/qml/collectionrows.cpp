// CollectionModel rows: where the list lives in a result, which roles its rows have, and how a new
// list becomes the smallest set of model signals (see listdiff_p.h).
#include "collectionmodel_p.h"
#include "listdiff_p.h"

#include <QtCore/QJsonObject>

using namespace Qt::StringLiterals;

namespace DataClient {

bool sameShared(const QVariant &a, const QVariant &b)
{
    if (a.metaType() != b.metaType())
        return false;
    switch (a.metaType().id()) {
    case QMetaType::QVariantMap:
        return static_cast<const QVariantMap *>(a.constData())
            ->isSharedWith(*static_cast<const QVariantMap *>(b.constData()));
    case QMetaType::QVariantList: {
        const auto *x = static_cast<const QVariantList *>(a.constData());
        const auto *y = static_cast<const QVariantList *>(b.constData());
        return x->isSharedWith(*y) || (x->isEmpty() && y->isEmpty());
    }
    case QMetaType::UnknownType:
        return true;
    default:
        return false; // scalars: compared by value where it matters
    }
}

namespace {

// The list a schema describes: the Collection/Array itself, or the list field of an Object.
QString listFieldOf(const Schema &schema)
{
    if (!schema.collectionField().isEmpty())
        return schema.collectionField();
    const auto fields = schema.fields();
    for (auto it = fields.cbegin(); it != fields.cend(); ++it) {
        if (it.value().kind() == Schema::Kind::Array
            || it.value().kind() == Schema::Kind::Collection)
            return it.key();
    }
    return {};
}

} // namespace

void CollectionModelPrivate::configureRows(const Schema &schema)
{
    listPlace = ListPlace::None;
    listField.clear();
    rowEntity = EntitySchema();
    Schema listSchema;
    switch (schema.kind()) {
    case Schema::Kind::Array:
    case Schema::Kind::Collection:
        listPlace = ListPlace::Self;
        listSchema = schema;
        break;
    case Schema::Kind::Object:
        listField = listFieldOf(schema);
        if (!listField.isEmpty()) {
            listPlace = ListPlace::Field;
            listSchema = schema.fields().value(listField);
        }
        break;
    case Schema::Kind::None:
        listPlace = ListPlace::Self; // a list if the value is one (plain values, no pk)
        break;
    case Schema::Kind::Entity:
    case Schema::Kind::Invalidate:
        break;
    }
    if (listSchema.kind() == Schema::Kind::Array || listSchema.kind() == Schema::Kind::Collection) {
        const Schema item = listSchema.itemSchema();
        if (item.kind() == Schema::Kind::Entity)
            rowEntity = item.entitySchema();
        else if (item.kind() == Schema::Kind::Array || item.kind() == Schema::Kind::Collection)
            rowEntity = item.itemSchema().entitySchema(); // Collection(Array(Entity))
    }

    pkField = rowEntity.isNull() ? QString() : rowEntity.pkField();
    roleFields.clear();
    auto addField = [this](const QString &field) {
        if (!field.isEmpty() && !roleFields.contains(field) && field != u"entity"_s)
            roleFields.append(field);
    };
    if (!rowEntity.isNull()) {
        addField(pkField);
        const QVariantMap defaults = rowEntity.defaults();
        for (auto it = defaults.cbegin(); it != defaults.cend(); ++it)
            addField(it.key());
        for (const QString &field : rowEntity.deserializedFields())
            addField(field);
        for (const QString &field : rowEntity.nestedFields())
            addField(field);
    }
    roles.clear();
    roles.insert(CollectionModel::EntityRole, "entity"_ba);
    for (int i = 0; i < roleFields.size(); ++i)
        roles.insert(CollectionModel::FirstFieldRole + i, roleFields.at(i).toUtf8());
}

QVariantList CollectionModelPrivate::listIn(const QVariant &value, bool *isList) const
{
    *isList = false;
    QVariant list;
    if (listPlace == ListPlace::Self)
        list = value;
    else if (listPlace == ListPlace::Field && value.metaType().id() == QMetaType::QVariantMap)
        list = static_cast<const QVariantMap *>(value.constData())->value(listField);
    if (list.metaType().id() != QMetaType::QVariantList)
        return {};
    *isList = true;
    return *static_cast<const QVariantList *>(list.constData());
}

QString CollectionModelPrivate::rowKey(const QVariant &item, int index) const
{
    if (!rowEntity.isNull() && item.metaType().id() == QMetaType::QVariantMap) {
        const auto &record = *static_cast<const QVariantMap *>(item.constData());
        if (!pkField.isEmpty()) {
            const QVariant pk = record.value(pkField);
            if (pk.isValid() && !pk.isNull())
                return pk.toString();
        } else {
            const QString pk = rowEntity.pk(QJsonObject::fromVariantMap(record));
            if (!pk.isEmpty())
                return pk;
        }
    }
    return u"#"_s + QString::number(index); // plain values: identity by position
}

QList<int> CollectionModelPrivate::changedRoles(const QVariant &before, const QVariant &after) const
{
    if (before == after)
        return {};
    QList<int> changed {CollectionModel::EntityRole};
    const QVariantMap a = before.toMap();
    const QVariantMap b = after.toMap();
    bool display = columns.isEmpty() && !pkField.isEmpty() && a.value(pkField) != b.value(pkField);
    for (int i = 0; i < roleFields.size(); ++i) {
        const QString &field = roleFields.at(i);
        if (a.value(field) != b.value(field)) {
            changed.append(CollectionModel::FirstFieldRole + i);
            display = display || columns.contains(field);
        }
    }
    if (display)
        changed.append(Qt::DisplayRole);
    return changed;
}

QVariant CollectionModelPrivate::roleValue(const QVariant &item, int role, int column) const
{
    if (role == CollectionModel::EntityRole)
        return item;
    const bool isMap = item.metaType().id() == QMetaType::QVariantMap;
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        if (!columns.isEmpty())
            return isMap
                ? static_cast<const QVariantMap *>(item.constData())->value(columns.value(column))
                : QVariant();
        if (!isMap)
            return item;
        return pkField.isEmpty()
            ? QVariant()
            : static_cast<const QVariantMap *>(item.constData())->value(pkField);
    }
    const int field = role - CollectionModel::FirstFieldRole;
    if (field < 0 || field >= roleFields.size() || !isMap)
        return {};
    return static_cast<const QVariantMap *>(item.constData())->value(roleFields.at(field));
}

void CollectionModelPrivate::resetRows(const QVariantList &items)
{
    const int before = int(rows.size());
    q->beginResetModel();
    rows.clear();
    shownList = items;
    QStringList keys;
    keys.reserve(items.size());
    for (int i = 0; i < items.size(); ++i)
        keys.append(rowKey(items.at(i), i));
    QStringList unique = keys;
    Qml::uniqueRowKeys(unique);
    rows.reserve(items.size());
    for (int i = 0; i < items.size(); ++i)
        rows.append({keys.at(i), unique.at(i), items.at(i)});
    q->endResetModel();
    if (before != rows.size())
        Q_EMIT q->countChanged();
}

void CollectionModelPrivate::syncRows(const QVariantList &items)
{
    if (items.isSharedWith(shownList) || (items.isEmpty() && rows.isEmpty()))
        return;
    shownList = items;
    const int before = int(rows.size());

    // Keys of the new list; an item shared with the row at the same place keeps that row's key
    // (the common case of one changed entity costs a pointer compare per row, no pk lookups).
    QStringList rawKeys;
    rawKeys.reserve(items.size());
    for (int i = 0; i < items.size(); ++i) {
        if (i < rows.size() && sameShared(items.at(i), rows.at(i).item))
            rawKeys.append(rows.at(i).rawKey);
        else
            rawKeys.append(rowKey(items.at(i), i));
    }
    QStringList newKeys = rawKeys;
    Qml::uniqueRowKeys(newKeys);
    QStringList oldKeys;
    oldKeys.reserve(rows.size());
    for (const Row &row : std::as_const(rows))
        oldKeys.append(row.key);

    const QModelIndex root;
    for (const Qml::ListDiffStep &step : Qml::diffListKeys(oldKeys, newKeys)) {
        const int count = step.last - step.first + 1;
        switch (step.kind) {
        case Qml::ListDiffStep::Remove:
            q->beginRemoveRows(root, step.first, step.last);
            rows.remove(step.first, count);
            q->endRemoveRows();
            break;
        case Qml::ListDiffStep::Move: {
            q->beginMoveRows(root, step.first, step.last, root, step.destination);
            const QList<Row> block = rows.mid(step.first, count);
            rows.remove(step.first, count);
            const int at
                = step.destination > step.first ? step.destination - count : step.destination;
            for (int k = 0; k < count; ++k)
                rows.insert(at + k, block.at(k));
            q->endMoveRows();
            break;
        }
        case Qml::ListDiffStep::Insert:
            q->beginInsertRows(root, step.first, step.last);
            for (int j = step.first; j <= step.last; ++j)
                rows.insert(j, {rawKeys.at(j), newKeys.at(j), items.at(j)});
            q->endInsertRows();
            break;
        }
    }
    Q_ASSERT(rows.size() == items.size());

    // Rows that stayed: one dataChanged per changed row, with only the roles that changed.
    const int lastColumn = q->columnCount() - 1;
    for (int i = 0; i < rows.size(); ++i) {
        Row &row = rows[i];
        if (sameShared(row.item, items.at(i)))
            continue;
        const QList<int> roles = changedRoles(row.item, items.at(i));
        row.item = items.at(i);
        if (!roles.isEmpty())
            Q_EMIT q->dataChanged(q->index(i, 0), q->index(i, lastColumn), roles);
    }
    if (before != rows.size())
        Q_EMIT q->countChanged();
}

} // namespace DataClient
