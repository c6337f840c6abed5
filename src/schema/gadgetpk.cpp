// Which properties a gadget's pk() reads: those whose change alone changes it. Worked out once
// per schema, so that a record lacking one of them is refused instead of stored under the pk
// of the gadget's defaults ("0" for an `int id = 0`).
#include <DataClient/entityschema.h>

#include <QtCore/QDateTime>
#include <QtCore/QMetaEnum>
#include <QtCore/QMetaProperty>
#include <QtCore/QUuid>

#include <memory>
#include <optional>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

// A value of \a property other than \a value, or nothing when no other value can be made.
std::optional<QVariant> otherValue(const QMetaProperty &property, const QVariant &value)
{
    if (property.isEnumType()) {
        const QMetaEnum enumerator = property.enumerator();
        for (int i = 0; i < enumerator.keyCount(); ++i) {
            if (enumerator.value(i) != value.toInt())
                return QVariant(enumerator.value(i));
        }
        return std::nullopt;
    }
    switch (property.metaType().id()) {
    case QMetaType::Bool:
        return QVariant(!value.toBool());
    case QMetaType::QUuid: {
        const QUuid one(u"00000000-0000-0000-0000-000000000001"_s);
        return QVariant(value.value<QUuid>() == one ? QUuid() : one);
    }
    case QMetaType::QDateTime: {
        const QDateTime date = value.toDateTime();
        return QVariant(date.isValid() ? date.addSecs(1) : QDateTime::fromSecsSinceEpoch(1));
    }
    case QMetaType::QDate: {
        const QDate date = value.toDate();
        return QVariant(date.isValid() ? date.addDays(1) : QDate(2000, 1, 1));
    }
    default:
        break;
    }
    // Numbers, strings, byte arrays and types with a conversion from text (Decimal): "1" also
    // changes a pk() that reads a number out of a string.
    for (const QString &text : {u"1"_s, u"2"_s}) {
        QVariant candidate(text);
        if (candidate.convert(property.metaType()) && candidate != value)
            return candidate;
    }
    return std::nullopt;
}

} // namespace

QStringList gadgetPkFields(const QMetaObject *metaObject, QMetaType type, GadgetPk pk)
{
    QStringList fields;
    auto destroy = [type](void *gadget) { type.destroy(gadget); };
    const std::unique_ptr<void, decltype(destroy)> defaults(type.create(), destroy);
    if (!defaults)
        return fields;
    const QString defaultPk = pk(defaults.get());
    for (int i = 0; i < metaObject->propertyCount(); ++i) {
        const QMetaProperty property = metaObject->property(i);
        if (!property.isWritable())
            continue; // never read from a record: pk() cannot depend on the record through it
        const std::optional<QVariant> other
            = otherValue(property, property.readOnGadget(defaults.get()));
        if (!other)
            continue;
        const std::unique_ptr<void, decltype(destroy)> changed(type.create(defaults.get()),
                                                               destroy);
        if (property.writeOnGadget(changed.get(), *other) && pk(changed.get()) != defaultPk)
            fields.append(QString::fromLatin1(property.name()));
    }
    return fields;
}

} // namespace DataClient::detail
