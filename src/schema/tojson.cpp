// toJsonValue() (tojson.h), Record::toJsonObject() and RowList::toJsonArray(): the values the
// store hands out as JSON, and the QVariant converters that let Qt's own calls reach them.
#include <DataClient/decimal.h>
#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/node_p.h>
#include <DataClient/private/record_p.h>
#include <DataClient/rowlist.h>
#include <DataClient/tojson.h>

#include <QtCore/QDateTime>
#include <QtCore/QHash>
#include <QtCore/QJsonDocument>

namespace DataClient {

using namespace detail;

namespace {
// The objects of the nested records one conversion made, by snapshot: an author of many todos
// is converted once and its QJsonObject shared (implicitly) by every todo that shows it.
using NestedObjects = QHash<const void *, QJsonObject>;

QJsonValue convert(const QVariant &value, NestedObjects &nested);

QJsonObject recordObject(const Record &record, NestedObjects &nested);

QJsonObject objectOf(const QVariantMap &map, NestedObjects &nested)
{
    QJsonObject object;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        object.insert(it.key(), convert(it.value(), nested));
    return object;
}

QJsonObject objectOf(const QVariantHash &hash, NestedObjects &nested)
{
    QJsonObject object;
    for (auto it = hash.cbegin(); it != hash.cend(); ++it)
        object.insert(it.key(), convert(it.value(), nested));
    return object;
}

QJsonArray arrayOf(const RowList &rows, NestedObjects &nested)
{
    QJsonArray array;
    for (const QVariant &row : rows)
        array.append(convert(row, nested));
    return array;
}

QJsonValue dateText(const QDateTime &value)
{
    return value.isValid() ? QJsonValue(value.toString(Qt::ISODateWithMs)) : QJsonValue();
}

QJsonValue convert(const QVariant &value, NestedObjects &nested)
{
    const QMetaType type = value.metaType();
    if (type == QMetaType::fromType<Record>()) {
        const auto *record = static_cast<const Record *>(value.constData());
        return record->isNull() ? QJsonValue() : QJsonValue(recordObject(*record, nested));
    }
    if (type == QMetaType::fromType<RowList>())
        return arrayOf(*static_cast<const RowList *>(value.constData()), nested);
    if (type == QMetaType::fromType<Decimal>())
        return static_cast<const Decimal *>(value.constData())->toString();
    switch (type.id()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        return QJsonValue(QJsonValue::Null);
    case QMetaType::QVariantList:
        return arrayOf(RowList(*static_cast<const QVariantList *>(value.constData())), nested);
    case QMetaType::QVariantMap:
        return objectOf(*static_cast<const QVariantMap *>(value.constData()), nested);
    case QMetaType::QVariantHash:
        return objectOf(*static_cast<const QVariantHash *>(value.constData()), nested);
    case QMetaType::QDateTime:
        return dateText(*static_cast<const QDateTime *>(value.constData()));
    case QMetaType::QDate: {
        const auto *date = static_cast<const QDate *>(value.constData());
        return date->isValid() ? QJsonValue(date->toString(Qt::ISODate)) : QJsonValue();
    }
    case QMetaType::QTime: {
        const auto *time = static_cast<const QTime *>(value.constData());
        return time->isValid() ? QJsonValue(time->toString(Qt::ISODateWithMs)) : QJsonValue();
    }
    default: // scalars, strings, QUrl, QUuid, the QJson and QCbor types: Qt's own conversion
        return QJsonValue::fromVariant(value);
    }
}

QJsonObject recordObject(const Record &record, NestedObjects &nested)
{
    QJsonObject object;
    const RecordPrivate *d = RecordPrivate::get(record);
    if (!d)
        return object;
    const Node *node = d->node.get();
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(d->schema);
    const FieldPlan *plan = d->plan;
    for (quint32 i = 0; i < node->count; ++i) {
        const QString &key = node->shape->key(i);
        // Nested entities are resolved values (Records, their lists); every other field is the
        // stored JSON itself, read without deserializing it (a date stays the server's text).
        bool isNested = plan && plan->kinds[i] > 0;
        if (!plan) {
            for (const EntitySchemaPrivate::NestedField &field : s->nested)
                isNested = isNested || field.field == key;
        }
        if (isNested) {
            const QVariant value = record.valueAt(i);
            const auto *inner = value.metaType() == QMetaType::fromType<Record>()
                ? static_cast<const Record *>(value.constData())
                : nullptr;
            if (inner && !inner->isNull()) {
                auto known = nested.constFind(inner->identity());
                if (known == nested.cend())
                    known = nested.insert(inner->identity(), recordObject(*inner, nested));
                object.insert(key, *known);
            } else {
                object.insert(key, convert(value, nested));
            }
        } else if (const Value &v = node->at(i); v.isRef())
            object.insert(key, QJsonValue()); // a normalized entity read without its schema
        else
            object.insert(key, detail::toJsonValue(v, node));
    }
    for (auto it = s->defaults.cbegin(); it != s->defaults.cend(); ++it) {
        if (node->shape->indexOf(QStringView(it.key())) < 0)
            object.insert(it.key(), convert(it.value(), nested));
    }
    return object;
}
} // namespace

QJsonValue toJsonValue(const QVariant &value)
{
    NestedObjects nested;
    return convert(value, nested);
}

QJsonObject Record::toJsonObject() const
{
    NestedObjects nested;
    return recordObject(*this, nested);
}

QJsonArray RowList::toJsonArray() const
{
    NestedObjects nested;
    return arrayOf(*this, nested);
}

namespace {
// QVariant's conversions (toJsonValue(), value<QJsonArray>(), qvariant_cast) then work on the
// values the store hands out. Qt's QJsonValue::fromVariant() never asks for them (tojson.h).
void registerJsonConverters()
{
    QMetaType::registerConverter<Record, QJsonObject>(&Record::toJsonObject);
    QMetaType::registerConverter<Record, QJsonValue>(
        [](const Record &record) { return toJsonValue(QVariant::fromValue(record)); });
    QMetaType::registerConverter<Record, QJsonDocument>(
        [](const Record &record) { return QJsonDocument(record.toJsonObject()); });
    QMetaType::registerConverter<RowList, QJsonArray>(&RowList::toJsonArray);
    QMetaType::registerConverter<RowList, QJsonValue>(
        [](const RowList &rows) { return QJsonValue(rows.toJsonArray()); });
    QMetaType::registerConverter<RowList, QJsonDocument>(
        [](const RowList &rows) { return QJsonDocument(rows.toJsonArray()); });
}
} // namespace
Q_CONSTRUCTOR_FUNCTION(registerJsonConverters)

} // namespace DataClient
