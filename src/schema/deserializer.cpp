#include <DataClient/decimal.h>
#include <DataClient/deserializer.h>

#include <DataClient/private/deserializer_p.h>
#include <DataClient/private/isodatetime_p.h>
#include <DataClient/private/variantof_p.h>

#include <QtCore/QDateTime>
#include <QtCore/QLocale>

using namespace Qt::StringLiterals;

namespace DataClient {

Deserializer::Deserializer() = default;
Deserializer::Deserializer(const QString &expected, Function function) : d(new DeserializerPrivate)
{
    d->expected = expected;
    d->function = std::move(function);
}
Deserializer::Deserializer(const Deserializer &other) = default;
Deserializer::Deserializer(Deserializer &&other) noexcept = default;
Deserializer &Deserializer::operator=(const Deserializer &other) = default;
Deserializer &Deserializer::operator=(Deserializer &&other) noexcept = default;
Deserializer::~Deserializer() = default;

bool Deserializer::isNull() const
{
    return !d || !d->function;
}

bool Deserializer::isBuiltIn() const
{
    return d && d->builtin != DeserializerPrivate::Builtin::None;
}

QString Deserializer::expected() const
{
    return d ? d->expected : QString();
}

QVariant Deserializer::operator()(const QJsonValue &value) const
{
    if (value.isNull() || value.isUndefined())
        return QVariant::fromValue(nullptr);
    if (isNull())
        return value.toVariant();
    return d->function(value);
}

bool Deserializer::accepts(const QJsonValue &value) const
{
    return (*this)(value).isValid();
}

namespace Deserialize {

namespace {
// A number as decimal text: a qint64 held by the QJsonValue exactly, a double in shortest form.
QString numberString(const QJsonValue &value)
{
    const QVariant number = value.toVariant();
    return number.typeId() == QMetaType::LongLong
        ? QString::number(number.toLongLong())
        : QString::number(number.toDouble(), 'g', QLocale::FloatingPointShortest);
}

Deserializer builtin(Deserializer deserializer, DeserializerPrivate::Builtin kind)
{
    const_cast<DeserializerPrivate *>(DeserializerPrivate::get(deserializer))->builtin = kind;
    return deserializer;
}
} // namespace

Deserializer dateTime()
{
    static const Deserializer deserializer
        = builtin(Deserializer(u"an ISO 8601 date-time string"_s,
                               [](const QJsonValue &value) -> QVariant {
                                   if (!value.isString())
                                       return {};
                                   const auto ms = detail::parseIsoDateTime(value.toString());
                                   if (!ms)
                                       return {};
                                   return detail::utcDateTime(*ms);
                               }),
                  DeserializerPrivate::Builtin::DateTime);
    return deserializer;
}

Deserializer decimal()
{
    static const Deserializer deserializer
        = builtin(Deserializer(u"a decimal number or decimal string"_s,
                               [](const QJsonValue &value) -> QVariant {
                                   std::optional<Decimal> decimal;
                                   if (value.isString())
                                       decimal = Decimal::fromString(value.toString());
                                   else if (value.isDouble())
                                       decimal = Decimal::fromString(numberString(value));
                                   return decimal ? QVariant::fromValue(*decimal) : QVariant();
                               }),
                  DeserializerPrivate::Builtin::Decimal);
    return deserializer;
}

Deserializer custom(const QString &expected, Deserializer::Function function)
{
    return Deserializer(expected, std::move(function));
}

} // namespace Deserialize

namespace detail {

namespace {
// The instant of a String value: carried since it was stored (Value::instant()), else read.
bool instantOf(const Value &value, const Node *owner, qint64 *ms)
{
    if (value.instant(ms))
        return true;
    if (!value.utf16)
        return readIsoDateTime(owner->latin1(value), ms);
    const auto parsed = parseIsoDateTime(owner->utf16(value));
    *ms = parsed.value_or(0);
    return parsed.has_value();
}
} // namespace

QVariant deserialize(const Deserializer &deserializer, const Value &value, const Node *owner)
{
    if (value.isNullish())
        return QVariant::fromValue(nullptr);
    const DeserializerPrivate *d = DeserializerPrivate::get(deserializer);
    if (!d || !d->function)
        return toVariant(value, owner);
    if (d->builtin == DeserializerPrivate::Builtin::DateTime && value.isString()) {
        qint64 ms = 0;
        if (!instantOf(value, owner, &ms))
            return QVariant();
        return variantOf(detail::utcDateTime(ms));
    }
    if (d->builtin == DeserializerPrivate::Builtin::Decimal
        && value.type == ValueType::BigInteger) {
        // A whole number beyond 64 bits: its digits, not the double a QJsonValue would hold.
        const auto decimal = Decimal::fromString(QString(owner->latin1(value)));
        return decimal ? QVariant::fromValue(*decimal) : QVariant();
    }
    return d->function(toJsonValue(value, owner));
}

bool acceptsValue(const Deserializer &deserializer, const Value &value, const Node *owner)
{
    const DeserializerPrivate *d = DeserializerPrivate::get(deserializer);
    if (value.isNullish() || !d || !d->function)
        return true;
    if (d->builtin == DeserializerPrivate::Builtin::DateTime) {
        qint64 ms = 0;
        return value.isString() && instantOf(value, owner, &ms);
    }
    return deserialize(deserializer, value, owner).isValid();
}

} // namespace detail

} // namespace DataClient
