// Typed entities: building a Q_GADGET from a denormalized value and reading one back.
#include <DataClient/entityschema.h>
#include <DataClient/record.h>
#include <DataClient/rowlist.h>

#include <QtCore/QMetaProperty>
#include <QtCore/QSequentialIterable>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

bool isGadget(QMetaType type)
{
    return type.flags().testFlag(QMetaType::IsGadget) && type.metaObject();
}

bool convertValue(const QVariant &input, QMetaType target, QVariant *output, QString *error,
                  const QString &path);

// A list of gadgets (QList<Gadget>) from a list (QVariantList, RowList) of maps.
bool convertList(const QVariant &input, QMetaType target, QVariant *output, QString *error,
                 const QString &path)
{
    QVariant container(target);
    QSequentialIterable iterable = container.view<QSequentialIterable>();
    const QMetaType itemType = iterable.metaContainer().valueMetaType();
    if (!iterable.metaContainer().canAddValue() || !itemType.isValid())
        return false;
    const QVariantList items = input.toList();
    for (qsizetype i = 0; i < items.size(); ++i) {
        QVariant item;
        if (!convertValue(items.at(i), itemType, &item, error, u"%1[%2]"_s.arg(path).arg(i)))
            return false;
        iterable.addValue(item);
    }
    *output = container;
    return true;
}

bool convertValue(const QVariant &input, QMetaType target, QVariant *output, QString *error,
                  const QString &path)
{
    if (input.metaType() == target) {
        *output = input;
        return true;
    }
    if (isGadget(target) && input.canConvert<QVariantMap>()) {
        QVariant value(target);
        if (!readGadget(target.metaObject(), value.data(), input, error))
            return false;
        *output = value;
        return true;
    }
    bool isList = false;
    rowsOf(input, &isList);
    if (isList && target.id() != QMetaType::QVariantList && target.id() != QMetaType::QStringList
        && convertList(input, target, output, error, path))
        return true;
    QVariant converted = input;
    if (converted.convert(target)) {
        *output = converted;
        return true;
    }
    if (error && error->isEmpty()) {
        *error = u"field \"%1\": cannot convert a %2 to %3"_s.arg(
            path, QString::fromLatin1(input.typeName()), QString::fromLatin1(target.name()));
    }
    return false;
}

} // namespace

bool readGadget(const QMetaObject *metaObject, void *gadget, const QVariant &value, QString *error)
{
    if (value.metaType() == QMetaType::fromType<Record>()) {
        // Read the fields straight from the record (no intermediate map).
        const Record record = value.value<Record>();
        bool ok = true;
        for (int i = 0; i < metaObject->propertyCount(); ++i) {
            const QMetaProperty property = metaObject->property(i);
            const QVariant field = record.value(QString::fromLatin1(property.name()));
            if (!field.isValid() || field.isNull())
                continue;
            QVariant converted;
            if (!convertValue(field, property.metaType(), &converted, error,
                              QString::fromLatin1(property.name()))) {
                ok = false;
                continue;
            }
            property.writeOnGadget(gadget, converted);
        }
        return ok;
    }
    if (!value.canConvert<QVariantMap>()) {
        if (error && error->isEmpty())
            *error = u"%1: expected an object, found a %2"_s.arg(
                QString::fromLatin1(metaObject->className()),
                QString::fromLatin1(value.typeName()));
        return false;
    }
    const QVariantMap map = value.toMap();
    bool ok = true;
    for (int i = 0; i < metaObject->propertyCount(); ++i) {
        const QMetaProperty property = metaObject->property(i);
        const auto field = map.constFind(QString::fromLatin1(property.name()));
        if (field == map.cend() || field->isNull())
            continue; // missing or null: the default stays
        QVariant converted;
        if (!convertValue(*field, property.metaType(), &converted, error, field.key())) {
            ok = false;
            continue;
        }
        property.writeOnGadget(gadget, converted);
    }
    return ok;
}

QVariantMap writeGadget(const QMetaObject *metaObject, const void *gadget)
{
    QVariantMap map;
    for (int i = 0; i < metaObject->propertyCount(); ++i) {
        const QMetaProperty property = metaObject->property(i);
        map.insert(QString::fromLatin1(property.name()), property.readOnGadget(gadget));
    }
    return map;
}

} // namespace DataClient::detail
