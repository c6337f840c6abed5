// CollectionModel editing: which cells are editable, how a cell shows a field (check box, localized
// date), and setData() as one write through the Controller. The model never changes its own rows:
// the write goes to the store (optimistic layer or answer) and comes back through the same precise
// signals as any other change, so the edit and its rollback are each one dataChanged().
#include "collectionmodel_p.h"
#include "logging_p.h"

#include <DataClient/cellwriter.h>
#include <DataClient/private/futurewatch_p.h>
#include <DataClient/private/variantaccess_p.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtCore/QThread>

#include <cmath>

using namespace Qt::StringLiterals;

namespace DataClient {

namespace {

bool isIntegerType(int type)
{
    return type == QMetaType::Int || type == QMetaType::LongLong || type == QMetaType::UInt
        || type == QMetaType::ULongLong;
}

bool isScalar(const QVariant &value)
{
    const int type = value.typeId();
    return type == QMetaType::Bool || isIntegerType(type) || type == QMetaType::Double
        || type == QMetaType::QString || type == QMetaType::QDateTime;
}

//! \a value made to fit a field whose current value (or schema default) is \a like: the same
//! type, or std::nullopt when it cannot be (a word into a number, a number into a flag).
std::optional<QVariant> fitValue(const QVariant &like, const QVariant &value)
{
    if (!value.isValid())
        return std::nullopt;
    const int type = value.typeId();
    switch (like.typeId()) {
    case QMetaType::Bool:
        return type == QMetaType::Bool ? std::optional(value) : std::nullopt;
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong: {
        if (type == QMetaType::Bool)
            return std::nullopt;
        if (type == QMetaType::Double && value.toDouble() != std::trunc(value.toDouble()))
            return std::nullopt; // 1.5 is no count
        bool ok = false;
        const qlonglong number = value.toLongLong(&ok);
        return ok ? std::optional(QVariant(number)) : std::nullopt;
    }
    case QMetaType::Double: {
        if (type == QMetaType::Bool)
            return std::nullopt;
        bool ok = false;
        const double number = value.toDouble(&ok);
        return ok && std::isfinite(number) ? std::optional(QVariant(number)) : std::nullopt;
    }
    case QMetaType::QDateTime: {
        QDateTime when;
        if (type == QMetaType::QDateTime)
            when = value.toDateTime();
        else if (type == QMetaType::QDate)
            when = value.toDate().startOfDay();
        else if (type == QMetaType::QString)
            when = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
        return when.isValid() ? std::optional(QVariant(when)) : std::nullopt;
    }
    case QMetaType::QString:
        if (type == QMetaType::QString || isIntegerType(type) || type == QMetaType::Double)
            return QVariant(value.toString());
        return std::nullopt;
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        return isScalar(value) ? std::optional(value) : std::nullopt; // nothing to go by
    default:
        return std::nullopt; // nested objects and lists are not edited in a cell
    }
}

//! \a value as JSON for a request body (dates as ISO 8601, as the server sent them).
QJsonValue toJson(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::QDateTime:
        return value.toDateTime().toString(Qt::ISODateWithMs);
    case QMetaType::QVariantMap: {
        QJsonObject object;
        const QVariantMap map = value.toMap();
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            object.insert(it.key(), toJson(it.value()));
        return object;
    }
    case QMetaType::QVariantList: {
        QJsonArray array;
        const QVariantList list = value.toList();
        for (const QVariant &item : list)
            array.append(toJson(item));
        return array;
    }
    default:
        return QJsonValue::fromVariant(value);
    }
}

} // namespace

QString CollectionModelPrivate::columnField(int column) const
{
    return columns.value(column);
}

QVariant CollectionModelPrivate::fieldType(const QVariant &item, const QString &field) const
{
    const QVariant value = fieldOf(item, field);
    if (value.isValid() && !value.isNull())
        return value;
    return rowEntity.isNull() ? QVariant() : rowEntity.defaults().value(field);
}

bool CollectionModelPrivate::isEditableColumn(int column) const
{
    const QString field = columnField(column);
    return writeEndpoint && !field.isEmpty()
        && (editableFields.isEmpty() ? field != pkField : editableFields.contains(field));
}

QVariant CollectionModelPrivate::columnValue(const QVariant &fieldValue, int role)
{
    const QVariant value = toQmlValue(fieldValue);
    switch (value.typeId()) {
    case QMetaType::Bool: // a check box: no "true" / "false" text beside it
        if (role == Qt::CheckStateRole)
            return value.toBool() ? Qt::Checked : Qt::Unchecked;
        return role == Qt::EditRole ? value : QVariant();
    case QMetaType::QDateTime: // the default delegate edits a QDateTime with a date editor
        if (role == Qt::DisplayRole)
            return QLocale().toString(value.toDateTime().toLocalTime(), QLocale::ShortFormat);
        return role == Qt::EditRole ? value : QVariant();
    default:
        return role == Qt::CheckStateRole ? QVariant() : value;
    }
}

Params CollectionModelPrivate::writeParams(const QVariant &item) const
{
    // The row's pk fills the write path's last parameter (/todos/:id); the others come from the
    // model's params when it has them (/users/:userId/todos/:id).
    const QStringList names = writeEndpoint->pathTemplate().parameterNames();
    if (names.isEmpty())
        return {};
    Params out;
    for (const QString &name : names) {
        if (params.contains(name))
            out.insert(name, params.value(name));
    }
    QString pk = recordPk(item);
    if (pk.isEmpty() && !pkField.isEmpty())
        pk = fieldOf(item, pkField).toString();
    if (pk.isEmpty())
        return {};
    const QVariant pkValue = fieldOf(item, pkField);
    out.insert(names.last(), pkValue.isValid() && !pkValue.isNull() ? pkValue : QVariant(pk));
    return out;
}

CellEdit CollectionModelPrivate::cellEdit(const QVariant &item, const QString &field,
                                          const Params &writeTo, const QJsonObject &body) const
{
    CellEdit edit {writeEndpoint, writeTo, body, field, {}, {}};
    // The row's name for messages ("rename 'Buy milk'"): its first text column.
    for (const QString &column : columns) {
        const QVariant value = fieldOf(item, column);
        if (value.typeId() == QMetaType::QString) {
            edit.labelField = column;
            edit.label = value.toString();
            break;
        }
    }
    return edit;
}

bool CollectionModelPrivate::writeCell(const QModelIndex &index, const QVariant &value, int role)
{
    const QVariant &item = rows.at(index.row());
    const QString field = columnField(index.column());
    const QVariant like = fieldType(item, field);
    std::optional<QVariant> wanted;
    if (role == Qt::CheckStateRole && like.typeId() == QMetaType::Bool && value.isValid())
        wanted = value.toInt() == Qt::Checked;
    else if (role == Qt::EditRole)
        wanted = fitValue(like, value);
    if (!wanted) {
        qCDebug(lcModels).noquote() << "setData refused for" << field << "of row" << index.row()
                                    << ":" << value << "does not fit" << like.typeName();
        return false;
    }
    if (*wanted == toQmlValue(fieldOf(item, field)))
        return true; // an editor closed without a change: nothing to tell the server
    const Params writeTo = writeParams(item);
    if (writeTo.isEmpty()) {
        qCWarning(lcModels).noquote()
            << "setData: row" << index.row() << "has no primary key to write" << field << "with";
        return false;
    }
    QJsonObject body;
    if (writeWholeRecord)
        body = toJson(toQmlValue(item)).toObject();
    body.insert(field, toJson(*wanted));
    const QPersistentModelIndex where(index);
    // The write is the Controller's (or goes through it from the cell writer): an optimistic
    // endpoint shows it at once through the store, and a refusal removes that layer (the
    // rollback) before the future fails.
    const QFuture<QVariant> sent = cellWriter
        ? cellWriter->writeCell(cellEdit(item, field, writeTo, body))
        : controller->fetch(writeEndpoint, writeTo, body);
    Models::watchFuture(
        q, sent, [](const QVariant &) {},
        [this, where](const NetworkError &error) {
            qCDebug(lcModels).noquote() << "write failed:" << error.message();
            Q_EMIT q->writeFailed(QModelIndex(where), error);
        });
    return true;
}

void CollectionModel::setEditable(const Resource &resource, const QStringList &fields,
                                  WriteMethod method)
{
    setEditable(resource, nullptr, fields, method);
}

void CollectionModel::setEditable(const Resource &resource, CellWriter *writer,
                                  const QStringList &fields, WriteMethod method)
{
    setEditable(method == WriteMethod::Update ? resource.update.endpoint()
                                              : resource.partialUpdate.endpoint(),
                fields, writer);
}

void CollectionModel::setEditable(const EndpointPtr &writeEndpoint, const QStringList &fields,
                                  CellWriter *writer)
{
    DATACLIENT_ASSERT_THREAD(this);
    const bool wasEditable = isEditable();
    d->writeEndpoint = writeEndpoint;
    d->cellWriter = writeEndpoint ? writer : nullptr;
    d->editableFields = writeEndpoint ? fields : QStringList();
    // PATCH sends the one field; any other method (PUT) replaces the record, so it gets all.
    d->writeWholeRecord = writeEndpoint && writeEndpoint->method() != "PATCH";
    if (!d->rows.isEmpty()) // the flags changed: views re-ask for them on dataChanged
        Q_EMIT dataChanged(index(0, 0), index(int(d->rows.size()) - 1, columnCount() - 1));
    if (wasEditable != isEditable())
        Q_EMIT editableChanged();
}

bool CollectionModel::isEditable() const
{
    return bool(d->writeEndpoint);
}

CellWriter *CollectionModel::cellWriter() const
{
    return d->cellWriter;
}

EndpointPtr CollectionModel::writeEndpoint() const
{
    return d->writeEndpoint;
}

QStringList CollectionModel::editableFields() const
{
    return d->editableFields;
}

Qt::ItemFlags CollectionModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags flags = QAbstractListModel::flags(index);
    if (!index.isValid()) // the view asks for the root
        return flags;
    // Rows of the key shown before (a placeholder) are not this key's: greyed, not editable.
    if (d->placeholder)
        return flags & ~(Qt::ItemIsEnabled | Qt::ItemIsEditable | Qt::ItemIsUserCheckable);
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || !d->isEditableColumn(index.column()))
        return flags;
    const QVariant like = d->fieldType(d->rows.at(index.row()), d->columnField(index.column()));
    return flags
        | (like.typeId() == QMetaType::Bool ? Qt::ItemIsUserCheckable : Qt::ItemIsEditable);
}

bool CollectionModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || !d->isEditableColumn(index.column()) || !d->controller || d->placeholder)
        return false;
    return d->writeCell(index, value, role);
}

} // namespace DataClient
