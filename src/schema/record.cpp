#include <DataClient/private/record_p.h>

#include <DataClient/private/deserializer_p.h>
#include <DataClient/private/entityschema_p.h>
#include <DataClient/private/numbertext_p.h>
#include <DataClient/private/variantof_p.h>
#include <DataClient/rowlist.h>

using namespace Qt::StringLiterals;

namespace DataClient {

using namespace detail;

Record::Record() = default;
Record::Record(RecordPrivate *data) : d(data, QAdoptSharedDataTag()) { }
Record::Record(const Record &other) = default;
Record::Record(Record &&other) noexcept = default;
Record &Record::operator=(const Record &other) = default;
Record &Record::operator=(Record &&other) noexcept = default;
Record::~Record() = default;

bool Record::isNull() const
{
    return !d;
}

QString Record::entityKey() const
{
    return d ? d->schema.key() : QString();
}

EntitySchema Record::schema() const
{
    return d ? d->schema : EntitySchema();
}

QString Record::pk() const
{
    if (!d)
        return {};
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(d->schema);
    if (!s->pkFunction) {
        const Value *v = d->node->field(QStringView(s->pkField));
        return v ? pkText(*v, d->node.get()) : QString(); // a BigInteger's digits too
    }
    Value object;
    object.type = ValueType::Object;
    object.node = const_cast<Node *>(d->node.get());
    return s->pkFunction(toJsonValue(object, nullptr).toObject());
}

bool Record::isPending() const
{
    return d && d->pending;
}

QStringList Record::keys() const
{
    if (!d)
        return {};
    QStringList keys = d->node->shape->keys();
    const QVariantMap &defaults = EntitySchemaPrivate::get(d->schema)->defaults;
    for (auto it = defaults.cbegin(); it != defaults.cend(); ++it) {
        if (d->node->shape->indexOf(QStringView(it.key())) < 0)
            keys.append(it.key());
    }
    return keys;
}

bool Record::contains(QStringView field) const
{
    if (!d)
        return false;
    return d->node->shape->indexOf(field) >= 0
        || EntitySchemaPrivate::get(d->schema)->defaults.contains(field.toString());
}

QVariant Record::value(QStringView field) const
{
    if (!d)
        return {};
    const int index = d->node->shape->indexOf(field);
    if (index < 0)
        return EntitySchemaPrivate::get(d->schema)->defaults.value(field.toString());
    return valueAt(index);
}

qsizetype Record::size() const
{
    return d ? d->node->shape->size() : 0;
}

QString Record::keyAt(qsizetype index) const
{
    return d ? d->node->shape->key(index) : QString();
}

QVariant Record::valueAt(qsizetype index) const
{
    if (!d || index < 0 || index >= qsizetype(d->node->count))
        return {};
    const EntitySchemaPrivate *s = EntitySchemaPrivate::get(d->schema);
    if (const FieldPlan *plan = d->plan) {
        const qint16 kind = plan->kinds[index];
        if (kind > 0)
            return kind - 1 < d->nested.size() ? d->nested.at(kind - 1)
                                               : QVariant::fromValue(nullptr);
        const Value &v = d->node->at(index);
        if (v.isRef())
            return QVariant::fromValue(nullptr); // a normalized entity read without its schema
        if (kind < 0)
            return deserialize(s->deserializers.at(-kind - 1).second, v, d->node.get());
        return isScalar(v) ? scalarVariant(v, d->node.get()) : toVariant(v, d->node.get());
    }
    const QString &field = d->node->shape->key(index);
    // Names that differ mostly differ in length or first letter: check those before comparing.
    const auto same = [&field](const QString &name) {
        return name.size() == field.size() && !name.isEmpty() && name.front() == field.front()
            && name == field;
    };
    for (qsizetype i = 0; i < s->nested.size(); ++i) {
        if (same(s->nested.at(i).field))
            return i < d->nested.size() ? d->nested.at(i) : QVariant::fromValue(nullptr);
    }
    const Value &v = d->node->at(index);
    if (v.isRef())
        return QVariant::fromValue(nullptr); // a normalized entity read without its schema
    for (const auto &[name, deserializer] : s->deserializers) {
        if (same(name))
            return deserialize(deserializer, v, d->node.get());
    }
    return toVariant(v, d->node.get());
}

namespace {
QVariant deepMap(const QVariant &value)
{
    if (value.metaType() == QMetaType::fromType<Record>())
        return value.value<Record>().toMap();
    bool isList = false;
    if (const RowList rows = rowsOf(value, &isList); isList) {
        QVariantList items = rows.toList();
        for (QVariant &item : items)
            item = deepMap(item);
        return items;
    }
    return value;
}
} // namespace

QVariantMap Record::toMap() const
{
    QVariantMap map;
    if (!d)
        return map;
    const QStringList fields = keys();
    for (const QString &field : fields)
        map.insert(field, deepMap(value(field)));
    return map;
}

bool operator==(const Record &a, const Record &b)
{
    if (a.d == b.d)
        return true;
    if (!a.d || !b.d || a.d->schema != b.d->schema || !nodesEqual(a.d->node.get(), b.d->node.get()))
        return false;
    return a.d->nested == b.d->nested;
}

namespace {
void registerRecordConverters()
{
    QMetaType::registerConverter<Record, QVariantMap>(&Record::toMap);
}
} // namespace
Q_CONSTRUCTOR_FUNCTION(registerRecordConverters)

} // namespace DataClient
