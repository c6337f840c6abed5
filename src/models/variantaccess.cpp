#include <DataClient/private/variantaccess_p.h>

#include <DataClient/record.h>
#include <DataClient/rowlist.h>

namespace DataClient {

namespace {
template<typename T> const T &as(const QVariant &value)
{
    return *static_cast<const T *>(value.constData());
}
bool isRecord(const QVariant &value)
{
    return value.metaType() == QMetaType::fromType<Record>();
}
} // namespace

bool sameShared(const QVariant &a, const QVariant &b)
{
    if (a.metaType() != b.metaType())
        return false;
    if (isRecord(a))
        return as<Record>(a).isSharedWith(as<Record>(b));
    bool isList = false;
    if (const RowList x = rowsOf(a, &isList); isList) { // a RowList or a QVariantList
        const RowList y = rowsOf(b);
        return x.isSharedWith(y) || (x.isEmpty() && y.isEmpty());
    }
    switch (a.metaType().id()) {
    case QMetaType::QVariantMap:
        return as<QVariantMap>(a).isSharedWith(as<QVariantMap>(b));
    case QMetaType::UnknownType:
        return true;
    default:
        return false;
    }
}

bool isRecordLike(const QVariant &value)
{
    return isRecord(value) || value.metaType().id() == QMetaType::QVariantMap;
}

QVariant fieldOf(const QVariant &value, const QString &field)
{
    if (isRecord(value))
        return as<Record>(value).value(field);
    if (value.metaType().id() == QMetaType::QVariantMap)
        return as<QVariantMap>(value).value(field);
    return {};
}

QString recordPk(const QVariant &value)
{
    return isRecord(value) ? as<Record>(value).pk() : QString();
}

bool recordPending(const QVariant &value)
{
    return isRecord(value) && as<Record>(value).isPending();
}

QVariant toQmlValue(const QVariant &value)
{
    if (isRecord(value))
        return as<Record>(value).toMap();
    bool isList = false;
    if (const RowList list = rowsOf(value, &isList); isList) { // a RowList or a QVariantList
        QVariantList converted;
        converted.reserve(list.size());
        for (const QVariant &item : list)
            converted.append(toQmlValue(item));
        return converted;
    }
    switch (value.metaType().id()) {
    case QMetaType::QVariantMap: {
        QVariantMap converted = as<QVariantMap>(value);
        for (auto it = converted.begin(); it != converted.end(); ++it)
            *it = toQmlValue(*it);
        return converted;
    }
    default:
        return value;
    }
}

} // namespace DataClient
