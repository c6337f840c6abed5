#include <DataClient/decimal.h>
#include <DataClient/deserializer.h>

#include "isodatetime_p.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>

using namespace Qt::StringLiterals;

namespace DataClient {

class DeserializerPrivate : public QSharedData
{
public:
    QString expected;
    Deserializer::Function function;
};

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

Deserializer dateTime()
{
    static const Deserializer deserializer(
        u"an ISO 8601 date-time string"_s, [](const QJsonValue &value) -> QVariant {
            if (!value.isString())
                return {};
            const auto ms = detail::parseIsoDateTime(value.toString());
            if (!ms)
                return {};
            return QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC);
        });
    return deserializer;
}

Deserializer decimal()
{
    static const Deserializer deserializer(
        u"a decimal number or decimal string"_s, [](const QJsonValue &value) -> QVariant {
            std::optional<Decimal> decimal;
            if (value.isString())
                decimal = Decimal::fromString(value.toString());
            else if (value.isDouble())
                decimal = Decimal::fromString(
                    QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest));
            return decimal ? QVariant::fromValue(*decimal) : QVariant();
        });
    return deserializer;
}

Deserializer custom(const QString &expected, Deserializer::Function function)
{
    return Deserializer(expected, std::move(function));
}

} // namespace Deserialize

} // namespace DataClient
