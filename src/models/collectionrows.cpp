// CollectionModel rows: where the list lives in a result, which roles its rows have, and how a new
// list becomes the smallest set of model signals (see listdiff_p.h).
#include "collectionmodel_p.h"
#include "listdiff_p.h"
#include <DataClient/placeholderkey.h>
#include <DataClient/record.h>
#include <DataClient/private/listpatch_p.h>
#include <DataClient/private/variantaccess_p.h>
#include <DataClient/private/rowlist_p.h>

#include <QtCore/QJsonObject>

using namespace Qt::StringLiterals;

namespace DataClient {

void CollectionModelPrivate::configureRows(const Schema &schema)
{
    listField = schema.listField();
    rowEntity = schema.rowEntity();
    if (!listField.isEmpty())
        listPlace = ListPlace::Field;
    else if (schema.isNull() || !schema.listSchema().isNull())
        listPlace = ListPlace::Self; // None: a list if the value is one (plain values, no pk)
    else
        listPlace = ListPlace::None; // an entity: value() holds it
    pkField = rowEntity.isNull() ? QString() : rowEntity.pkField();
    roleFields.clear();
    auto addField = [this](const QString &field) {
        if (!field.isEmpty() && !roleFields.contains(field) && field != u"entity"_s
            && field != u"pending"_s)
            roleFields.append(field);
    };
    auto addFieldsOf = [&addField](const EntitySchema &entity) {
        addField(entity.pkField());
        const QVariantMap defaults = entity.defaults();
        for (auto it = defaults.cbegin(); it != defaults.cend(); ++it)
            addField(it.key());
        for (const QString &field : entity.deserializedFields())
            addField(field);
        for (const QString &field : entity.nestedFields())
            addField(field);
    };
    const Schema item = schema.listSchema().itemSchema();
    rowUnion = item.kind() == Schema::Kind::Union ? item : Schema();
    typeField = -1;
    if (!rowUnion.isNull()) {
        // A DelegateChooser picks the delegate by `type`; each member's fields are roles.
        addField(u"type"_s);
        typeField = 0;
        for (const auto &member : rowUnion.unionMembers())
            addFieldsOf(member.second.entitySchema());
    } else if (!rowEntity.isNull()) {
        addFieldsOf(rowEntity);
    }
    roles.clear();
    roles.insert(CollectionModel::EntityRole, "entity"_ba);
    roles.insert(CollectionModel::PendingRole, "pending"_ba);
    for (int i = 0; i < roleFields.size(); ++i)
        roles.insert(CollectionModel::FirstFieldRole + i, roleFields.at(i).toUtf8());
}

RowList CollectionModelPrivate::listIn(const QVariant &value, bool *isList) const
{
    *isList = false;
    if (listPlace == ListPlace::Self)
        return rowsOf(value, isList);
    if (listPlace == ListPlace::Field)
        return rowsOf(fieldOf(value, listField), isList);
    return {};
}

QString CollectionModelPrivate::rowKey(const QVariant &item, int index) const
{
    if (!rowUnion.isNull() && item.metaType() == QMetaType::fromType<Record>()) {
        // Two members may share a pk (Comment 1, Like 1): the entity key tells them apart.
        const Record *record = static_cast<const Record *>(item.constData());
        return record->entityKey() + u':' + record->pk();
    }
    if (!rowEntity.isNull()) {
        QString pk = recordPk(item); // the store's Records know their pk
        if (pk.isEmpty() && !pkField.isEmpty()) {
            const QVariant field = fieldOf(item, pkField);
            if (field.isValid() && !field.isNull())
                pk = field.toString();
        } else if (pk.isEmpty() && item.metaType().id() == QMetaType::QVariantMap) {
            pk = rowEntity.pk(QJsonObject::fromVariantMap(item.toMap()));
        }
        if (!pk.isEmpty())
            return pk;
    }
    return u"#"_s + QString::number(index); // plain values: identity by position
}

QList<int> CollectionModelPrivate::changedRoles(const QVariant &before, const QVariant &after) const
{
    // A confirmation equal to the guess changes nothing but `pending`.
    const bool pendingChanged = recordPending(before) != recordPending(after);
    if (before == after)
        return pendingChanged ? QList<int> {CollectionModel::PendingRole} : QList<int>();
    QList<int> changed {CollectionModel::EntityRole};
    if (pendingChanged)
        changed.append(CollectionModel::PendingRole);
    bool display = columns.isEmpty()
        && (isRecordLike(before) ? fieldOf(before, pkField) != fieldOf(after, pkField) : true);
    // A changed column changes its cell's own roles: the text, the editor's value and, for a
    // flag (a check box), the check state.
    bool edit = false;
    bool check = false;
    for (int i = 0; i < roleFields.size(); ++i) {
        const QString &field = roleFields.at(i);
        const QVariant was = fieldOf(before, field);
        const QVariant now = fieldOf(after, field);
        if (was != now) {
            changed.append(CollectionModel::FirstFieldRole + i);
            if (columns.contains(field)) {
                edit = true;
                display = true;
                check = check || was.typeId() == QMetaType::Bool || now.typeId() == QMetaType::Bool;
            }
        }
    }
    if (display)
        changed.append(Qt::DisplayRole);
    if (edit)
        changed.append(Qt::EditRole);
    if (check)
        changed.append(Qt::CheckStateRole);
    return changed;
}

QVariant CollectionModelPrivate::roleValue(const QVariant &item, int role, int column) const
{
    if (role == CollectionModel::EntityRole)
        return toQmlValue(item);
    if (role == CollectionModel::PendingRole)
        return recordPending(item);
    if (role == Qt::DisplayRole || role == Qt::EditRole || role == Qt::CheckStateRole) {
        if (!columns.isEmpty())
            return columnValue(fieldOf(item, columns.value(column)), role);
        if (role == Qt::CheckStateRole)
            return {};
        if (!isRecordLike(item))
            return item;
        const QString pk = recordPk(item);
        return pk.isEmpty() ? fieldOf(item, pkField) : QVariant(pk);
    }
    const int field = role - CollectionModel::FirstFieldRole;
    if (field < 0 || field >= roleFields.size())
        return {};
    if (field == typeField && item.metaType() == QMetaType::fromType<Record>())
        return rowUnion.unionMemberName(static_cast<const Record *>(item.constData())->entityKey());
    return toQmlValue(fieldOf(item, roleFields.at(field)));
}

QStringList CollectionModelPrivate::rawKeysOf(const RowList &items) const
{
    QStringList keys;
    keys.reserve(items.size());
    for (int i = 0; i < items.size(); ++i)
        keys.append(rowKey(items.at(i), i));
    return keys;
}

void CollectionModelPrivate::resetRows(const RowList &items)
{
    const int before = int(rows.size());
    q->beginResetModel();
    shownList = items;
    adoptRows(items);
    q->endResetModel();
    if (before != rows.size())
        Q_EMIT q->countChanged();
}

bool CollectionModelPrivate::syncRows(const RowList &items)
{
    if (items.isSharedWith(shownList) || (items.isEmpty() && rows.isEmpty()))
        return false;
    // Set first: a view's reaction to the signals below may sync again (re-entered: a no-op).
    shownList = items;

    // Fastest path: the store made the list by replacing a few rows of the shown one (an
    // entity changed): only those rows are compared, however long the list.
    if (items.size() == rows.size()) {
        const std::optional<detail::ListPatch> patch = detail::listPatchOf(items);
        if (patch && patch->from == RowListInternals::identity(rows) && patch->made > rowsSince)
            return updateChangedRows(items, &patch->rows);
    }

    // Fast path, the common case of entities changing in place: every row is either the very
    // same snapshot as before (a pointer compare) or has the same key. No lists, no hashing.
    if (items.size() == rows.size()) {
        bool sameKeys = true;
        for (int i = 0; sameKeys && i < items.size(); ++i) {
            sameKeys = sameShared(items.at(i), rows.at(i))
                || rowKey(items.at(i), i) == rowKey(rows.at(i), i);
        }
        if (sameKeys)
            return updateChangedRows(items);
    }

    // First rows (a first answer, or after an empty list): one insertion, no diff.
    if (rows.isEmpty()) {
        q->beginInsertRows(QModelIndex(), 0, int(items.size()) - 1);
        adoptRows(items);
        q->endInsertRows();
        Q_EMIT q->countChanged();
        return true;
    }

    const int before = int(rows.size());
    const QStringList oldRawKeys = rawKeysOf(rows);
    QStringList rawKeys = rawKeysOf(items);
    // A confirmed placeholder row keeps its place: its server entity goes by the old key in this
    // diff only (keys are not kept: from now on the row's key is its item's, the server's pk).
    keepConfirmedRows(oldRawKeys, &rawKeys);
    QStringList newKeys = rawKeys;
    Models::uniqueRowKeys(newKeys);
    QStringList oldKeys = oldRawKeys;
    Models::uniqueRowKeys(oldKeys);

    const QModelIndex root;
    const QList<Models::ListDiffStep> steps = Models::diffListKeys(oldKeys, newKeys);
    for (const Models::ListDiffStep &step : steps) {
        const int count = step.last - step.first + 1;
        switch (step.kind) {
        case Models::ListDiffStep::Remove:
            q->beginRemoveRows(root, step.first, step.last);
            rows.remove(step.first, count);
            q->endRemoveRows();
            break;
        case Models::ListDiffStep::Move: {
            q->beginMoveRows(root, step.first, step.last, root, step.destination);
            const QVariantList block = rows.mid(step.first, count);
            rows.remove(step.first, count);
            const int at
                = step.destination > step.first ? step.destination - count : step.destination;
            for (int k = 0; k < count; ++k)
                rows.insert(at + k, block.at(k));
            q->endMoveRows();
            break;
        }
        case Models::ListDiffStep::Insert:
            q->beginInsertRows(root, step.first, step.last);
            for (int j = step.first; j <= step.last; ++j)
                rows.insert(j, items.at(j));
            q->endInsertRows();
            break;
        }
    }
    Q_ASSERT(rows.size() == items.size());
    const bool changed = updateChangedRows(items);
    if (before != rows.size())
        Q_EMIT q->countChanged();
    return changed || !steps.isEmpty();
}

bool CollectionModelPrivate::keepConfirmedRows(const QStringList &oldRawKeys,
                                               QStringList *rawKeys) const
{
    if (!controller)
        return false;
    QHash<QString, QString> placeholderOf; // server pk -> the placeholder row it replaces
    for (const QString &rawKey : oldRawKeys) {
        if (!isPlaceholderKey(rawKey) || rawKeys->contains(rawKey))
            continue;
        if (const QString pk = controller->confirmedKey(rawKey); !pk.isEmpty())
            placeholderOf.insert(pk, rawKey);
    }
    bool kept = false;
    for (QString &key : *rawKeys) {
        if (const auto it = placeholderOf.constFind(key); it != placeholderOf.cend()) {
            key = *it;
            placeholderOf.erase(it);
            kept = true;
        }
    }
    return kept;
}

void CollectionModelPrivate::dropValue(QVariant &&value)
{
    constexpr qsizetype Ahead = 16;
    constexpr qsizetype LongList = 4096;
    bool isList = false;
    RowList rows = rowsOf(value, &isList);
    value = QVariant();
    // A chunked list frees chunk by chunk; one long list is freed here, its Records prefetched.
    if (!isList || RowListInternals::chunkCount(rows) != 1 || rows.size() < LongList)
        return;
    QVariantList list = rows.toList();
    rows = RowList();
    if (!list.isDetached())
        return; // someone else frees it
    const QMetaType recordType = QMetaType::fromType<Record>();
    QVariant *row = list.data();
    const qsizetype n = list.size();
    for (qsizetype i = 0; i < n; ++i) {
        if (i + Ahead < n && row[i + Ahead].metaType() == recordType)
            __builtin_prefetch(*static_cast<void *const *>(row[i + Ahead].constData()), 1);
        row[i] = QVariant();
    }
}

void CollectionModelPrivate::adoptRows(const RowList &items)
{
    rows = items;
    rowsSince = detail::listPatchClock();
}

bool CollectionModelPrivate::updateChangedRows(const RowList &items, const QList<qsizetype> *only)
{
    // Rows that stayed: one dataChanged per changed row, with only the roles that changed. The
    // new list is adopted first (shared: the next compare is a pointer compare), so a view that
    // reads a row on dataChanged sees its new item.
    const RowList before = rows;
    adoptRows(items);
    bool emitted = false;
    const int lastColumn = q->columnCount() - 1;
    const auto update = [&](qsizetype i) {
        if (sameShared(before.at(i), items.at(i)))
            return;
        const QList<int> roles = changedRoles(before.at(i), items.at(i));
        if (!roles.isEmpty()) {
            Q_EMIT q->dataChanged(q->index(int(i), 0), q->index(int(i), lastColumn), roles);
            emitted = true;
        }
    };
    if (only) {
        for (qsizetype i : *only)
            update(i);
    } else {
        for (qsizetype i = 0; i < rows.size(); ++i)
            update(i);
    }
    return emitted;
}

} // namespace DataClient
