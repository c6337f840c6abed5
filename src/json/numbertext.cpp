#include <DataClient/private/numbertext_p.h>

#include <QtCore/QLocale>

#include <cmath>

namespace DataClient::detail {

QString numberText(double number)
{
    if (number >= -0x1p63 && number < 0x1p63 && number == double(qint64(number)))
        return QString::number(qint64(number)); // also -0 as "0"
    if (std::isfinite(number) && std::abs(number) < 1e21 && number == std::trunc(number))
        return QString::number(number, 'f', 0);
    return QString::number(number, 'g', QLocale::FloatingPointShortest);
}

QString pkText(const Value &value, const Node *owner)
{
    switch (value.type) {
    case ValueType::String:
        return owner->string(value);
    case ValueType::Integer:
        return QString::number(value.integer);
    case ValueType::BigInteger:
        return QString(owner->latin1(value));
    case ValueType::Number:
        return numberText(value.number);
    default:
        return {};
    }
}

} // namespace DataClient::detail
