#include <DataClient/schemaerror.h>

#include <DataClient/private/entityschema_p.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

using namespace Qt::StringLiterals;

namespace DataClient {

SchemaError::SchemaError(const QString &entityKey, const QString &path, const QString &expected,
                         const QString &found)
    : m_entityKey(entityKey), m_path(path), m_expected(expected), m_found(found)
{
    m_what = message().toUtf8();
}

QString SchemaError::message() const
{
    QString text = u"Schema error"_s;
    if (!m_entityKey.isEmpty())
        text += u" in entity \"%1\""_s.arg(m_entityKey);
    text += m_path.isEmpty() ? u" at the top of the value"_s : u" at \"%1\""_s.arg(m_path);
    text += u": expected %1, found %2"_s.arg(m_expected, m_found);
    return text;
}

const char *SchemaError::what() const noexcept
{
    return m_what.isEmpty() ? "DataClient::SchemaError" : m_what.constData();
}

QString SchemaError::describe(const QJsonValue &value)
{
    constexpr qsizetype MaxLength = 40;
    switch (value.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Undefined:
        return u"nothing"_s;
    case QJsonValue::Bool:
        return value.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Double: {
        const QVariant number = value.toVariant(); // a qint64 exactly
        return u"the number %1"_s.arg(number.typeId() == QMetaType::LongLong
                                          ? QString::number(number.toLongLong())
                                          : QString::number(number.toDouble()));
    }
    case QJsonValue::String: {
        QString text = value.toString();
        if (text.isEmpty())
            return u"an empty string"_s;
        if (text.size() > MaxLength)
            text = text.left(MaxLength) + u"..."_s;
        return u"the string \"%1\""_s.arg(text);
    }
    case QJsonValue::Array:
        return u"an array of %1 items"_s.arg(value.toArray().size());
    case QJsonValue::Object: {
        QString text
            = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
        if (text.size() > MaxLength)
            text = text.left(MaxLength) + u"...}"_s;
        return u"the object "_s + text;
    }
    }
    return u"a value"_s;
}

} // namespace DataClient

namespace DataClient::detail {

QString describe(const Value &value, const Node *owner)
{
    if (value.type == ValueType::EntityRef)
        return u"an entity reference"_s;
    if (value.type == ValueType::CollectionRef)
        return u"a collection reference"_s;
    return SchemaError::describe(toJsonValue(value, owner));
}

} // namespace DataClient::detail
