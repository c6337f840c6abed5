#include <DataClient/collection.h>

#include <DataClient/private/numbertext_p.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QLocale>

using namespace Qt::StringLiterals;

namespace DataClient {

Collection::~Collection() = default;

bool Collection::nonFilterArgumentKeys(const QString &key) const
{
    return key.startsWith("order"_L1);
}

QString Collection::argumentString(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        return {};
    case QMetaType::Bool:
        return value.toBool() ? u"true"_s : u"false"_s;
    case QMetaType::Double:
    case QMetaType::Float:
        return detail::numberText(value.toDouble());
    case QMetaType::QStringList:
    case QMetaType::QVariantList: {
        QStringList parts;
        const QVariantList items = value.toList();
        for (const QVariant &item : items)
            parts.append(argumentString(item));
        return parts.join(u',');
    }
    default:
        if (value.isNull() && value.typeId() != QMetaType::QString)
            return {};
        return value.toString();
    }
}

bool Collection::matches(const Params &collectionArgs, const Params &callArgs,
                         const QJsonObject &item) const
{
    for (auto it = collectionArgs.cbegin(); it != collectionArgs.cend(); ++it) {
        if (nonFilterArgumentKeys(it.key()))
            continue;
        const QString wanted = argumentString(it.value());
        const auto call = callArgs.constFind(it.key());
        if (call != callArgs.cend() && argumentString(call.value()) == wanted)
            continue;
        const auto field = item.constFind(it.key());
        if (field != item.constEnd() && argumentString(field->toVariant()) == wanted)
            continue;
        return false;
    }
    return true;
}

QString Collection::otherKeyCase(const QString &key)
{
    QString other;
    if (key.contains(u'_')) {
        bool upper = false;
        for (QChar c : key) {
            if (c == u'_') {
                upper = !other.isEmpty();
                continue;
            }
            other.append(upper ? c.toUpper() : c);
            upper = false;
        }
    } else {
        for (QChar c : key) {
            if (c.isUpper() && !other.isEmpty())
                other.append(u'_');
            other.append(c.toLower());
        }
    }
    return other == key ? QString() : other;
}

Collection::Fit Collection::fits(const Params &collectionArgs, const QJsonObject &item) const
{
    Fit fit = Fit::Belongs;
    for (auto it = collectionArgs.cbegin(); it != collectionArgs.cend(); ++it) {
        if (nonFilterArgumentKeys(it.key()))
            continue;
        auto field = item.constFind(it.key());
        if (field == item.constEnd())
            field = item.constFind(otherKeyCase(it.key()));
        if (field == item.constEnd()) {
            fit = Fit::CannotTell; // unless another field says it does not belong
            continue;
        }
        if (argumentString(field->toVariant()) != argumentString(it.value()))
            return Fit::DoesNotBelong;
    }
    return fit;
}

QStringList Collection::filterFields(const Params &collectionArgs) const
{
    QStringList fields;
    for (auto it = collectionArgs.cbegin(); it != collectionArgs.cend(); ++it) {
        if (nonFilterArgumentKeys(it.key()))
            continue;
        fields.append(it.key());
        const QString other = otherKeyCase(it.key());
        if (!other.isEmpty())
            fields.append(other);
    }
    return fields;
}

bool Collection::lessThan(const Params &collectionArgs, const QJsonObject &a,
                          const QJsonObject &b) const
{
    Q_UNUSED(collectionArgs);
    Q_UNUSED(a);
    Q_UNUSED(b);
    return false;
}

bool Collection::isOrdered(const Params &collectionArgs) const
{
    Q_UNUSED(collectionArgs);
    return false;
}

Params Collection::nestedArguments(const QString &parentKey, const QString &parentPk,
                                   const QJsonObject &parent) const
{
    Q_UNUSED(parent);
    QString name = parentKey;
    if (!name.isEmpty())
        name[0] = name[0].toLower();
    return {{name + u"Id"_s, parentPk}};
}

QString Collection::argumentsKey(const Params &args)
{
    if (args.isEmpty())
        return u"{}"_s;
    QJsonObject object;
    for (auto it = args.cbegin(); it != args.cend(); ++it) {
        if (it.value().isNull() && it.value().typeId() != QMetaType::QString)
            continue;
        object.insert(it.key(), argumentString(it.value()));
    }
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

Params Collection::argumentsFromKey(const QString &key)
{
    return QJsonDocument::fromJson(key.toUtf8()).object().toVariantMap();
}

} // namespace DataClient
