#include "paramvalue_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonValue>
#include <QtCore/QUrl>

namespace DataClient::detail {

namespace {

bool isNullish(const QVariant &value)
{
    if (!value.isValid() || value.isNull())
        return true;
    if (value.typeId() == QMetaType::Nullptr)
        return true;
    if (value.typeId() == QMetaType::QJsonValue) {
        const QJsonValue json = value.toJsonValue();
        return json.isNull() || json.isUndefined();
    }
    return false;
}

std::optional<QString> scalarText(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::QString:
        return value.toString();
    case QMetaType::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::Long:
    case QMetaType::ULong:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Short:
    case QMetaType::UShort:
    case QMetaType::Double:
    case QMetaType::Float:
    case QMetaType::QByteArray:
    case QMetaType::QChar:
    case QMetaType::QDate:
    case QMetaType::QDateTime:
    case QMetaType::QTime:
    case QMetaType::QUrl:
    case QMetaType::QUuid:
        return value.toString();
    case QMetaType::QJsonValue: {
        const QJsonValue json = value.toJsonValue();
        if (json.isArray() || json.isObject())
            return std::nullopt;
        return scalarText(json.toVariant());
    }
    default:
        break;
    }
    // Value types of other layers (e.g. Decimal) that register a conversion to QString.
    if (value.metaType().flags().testFlag(QMetaType::IsEnumeration)
        || QMetaType::canConvert(value.metaType(), QMetaType::fromType<QString>())) {
        if (value.typeId() != QMetaType::QVariantMap && value.typeId() != QMetaType::QVariantHash
            && value.typeId() != QMetaType::QVariantList
            && value.typeId() != QMetaType::QStringList)
            return value.toString();
    }
    return std::nullopt;
}

} // namespace

ParamValue readParamValue(const QVariant &value)
{
    ParamValue result;
    if (isNullish(value))
        return result;
    QVariantList elements;
    bool isList = false;
    if (value.typeId() == QMetaType::QStringList || value.typeId() == QMetaType::QVariantList) {
        elements = value.toList();
        isList = true;
    } else if (value.typeId() == QMetaType::QJsonValue && value.toJsonValue().isArray()) {
        elements = value.toJsonValue().toArray().toVariantList();
        isList = true;
    } else if (value.typeId() == QMetaType::QJsonArray) {
        elements = value.toJsonArray().toVariantList();
        isList = true;
    }
    if (isList) {
        result.kind = ParamValue::List;
        for (const QVariant &element : std::as_const(elements)) {
            if (isNullish(element))
                continue;
            const std::optional<QString> text = scalarText(element);
            if (!text) {
                result.kind = ParamValue::Unsupported;
                result.typeName = QLatin1StringView("a list holding ")
                    + QLatin1StringView(element.metaType().name());
                return result;
            }
            result.list.append(*text);
        }
        if (result.list.isEmpty())
            result.kind = ParamValue::Absent;
        return result;
    }
    if (const std::optional<QString> text = scalarText(value)) {
        result.kind = ParamValue::Scalar;
        result.scalar = *text;
        return result;
    }
    result.kind = ParamValue::Unsupported;
    result.typeName = QString::fromLatin1(value.metaType().name());
    return result;
}

QString percentEncode(const QString &text)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text));
}

QString encodeLiteral(const QString &text)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text, "!$&'()*+,;=:@/?%"));
}

} // namespace DataClient::detail
