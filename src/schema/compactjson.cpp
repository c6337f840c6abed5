#include <DataClient/compactjson.h>

#include <DataClient/private/compactjson_p.h>
#include <DataClient/private/jsonparser_p.h>
#include <DataClient/private/utf8_p.h>

namespace DataClient {

using namespace detail;

CompactJson::CompactJson() = default;
CompactJson::CompactJson(const CompactJson &other) : m_holder(other.m_holder)
{
    if (m_holder)
        m_holder->addRef();
}
CompactJson::CompactJson(CompactJson &&other) noexcept
    : m_holder(std::exchange(other.m_holder, nullptr))
{ }
CompactJson &CompactJson::operator=(const CompactJson &other)
{
    CompactJson copy(other);
    std::swap(m_holder, copy.m_holder);
    return *this;
}
CompactJson &CompactJson::operator=(CompactJson &&other) noexcept
{
    std::swap(m_holder, other.m_holder);
    return *this;
}
CompactJson::~CompactJson()
{
    if (m_holder)
        m_holder->release();
}

CompactJson CompactJson::parse(QByteArrayView utf8, QString *errorString, qsizetype *errorOffset)
{
    ParseResult result = parseJson(utf8);
    if (errorString)
        *errorString = result.error;
    if (errorOffset)
        *errorOffset = result.offset;
    return CompactJsonAccess::make(std::move(result.holder));
}

QString CompactJson::utf8Error(QByteArrayView bytes)
{
    return detail::utf8Error(bytes);
}

CompactJson CompactJson::fromJsonValue(const QJsonValue &value)
{
    return CompactJsonAccess::make(detail::fromJsonValue(value));
}

QJsonValue CompactJson::toJsonValue() const
{
    return m_holder ? detail::toJsonValue(m_holder->at(0), m_holder)
                    : QJsonValue(QJsonValue::Undefined);
}

QVariant CompactJson::toVariant() const
{
    return m_holder ? detail::toVariant(m_holder->at(0), m_holder) : QVariant();
}

bool CompactJson::isUndefined() const
{
    return !m_holder || m_holder->at(0).type == ValueType::Undefined;
}

QJsonValue::Type CompactJson::type() const
{
    if (!m_holder)
        return QJsonValue::Undefined;
    switch (m_holder->at(0).type) {
    case ValueType::Null:
        return QJsonValue::Null;
    case ValueType::False:
    case ValueType::True:
        return QJsonValue::Bool;
    case ValueType::Number:
    case ValueType::Integer:
    case ValueType::BigInteger:
        return QJsonValue::Double;
    case ValueType::String:
        return QJsonValue::String;
    case ValueType::Object:
        return QJsonValue::Object;
    case ValueType::Array:
        return QJsonValue::Array;
    default:
        return QJsonValue::Undefined;
    }
}

qsizetype CompactJson::size() const
{
    if (!m_holder)
        return 0;
    const Value &v = m_holder->at(0);
    return v.isObject() || v.isArray() ? qsizetype(v.node->count) : 0;
}

} // namespace DataClient
