// Decimal = arbitrary-precision integer mantissa x 10^-scale. The integer arithmetic is
// Boost.Multiprecision's cpp_int (header-only, Debian's libboost-dev); it stays in this file so
// no consumer of DataClient needs Boost headers (docs/schemas.md says why).
#include <DataClient/decimal.h>

#include <QtCore/QDebug>

#include <boost/multiprecision/cpp_int.hpp>

using namespace Qt::StringLiterals;

namespace DataClient {

using BigInt = boost::multiprecision::cpp_int;

class DecimalPrivate : public QSharedData
{
public:
    BigInt mantissa = 0;
    int scale = 0; // digits after the decimal point, >= 0
};

namespace {

// Bound on exponents and digits so "1e999999999" cannot make us allocate gigabytes.
constexpr int MaxScale = 10000;

BigInt powerOfTen(int exponent)
{
    BigInt result = 1;
    static const BigInt ten = 10;
    for (int i = 0; i < exponent; ++i)
        result *= ten;
    return result;
}

// Both mantissas at the larger of the two scales.
std::pair<BigInt, BigInt> aligned(const DecimalPrivate &a, const DecimalPrivate &b, int *scale)
{
    *scale = std::max(a.scale, b.scale);
    return {a.mantissa * powerOfTen(*scale - a.scale), b.mantissa * powerOfTen(*scale - b.scale)};
}

} // namespace

Decimal::Decimal() : d(new DecimalPrivate) { }
Decimal::Decimal(int value) : Decimal(qint64(value)) { }
Decimal::Decimal(qint64 value) : d(new DecimalPrivate)
{
    d->mantissa = value;
}
Decimal::Decimal(QSharedDataPointer<DecimalPrivate> data) : d(std::move(data)) { }
Decimal::Decimal(const Decimal &other) = default;
Decimal::Decimal(Decimal &&other) noexcept = default;
Decimal &Decimal::operator=(const Decimal &other) = default;
Decimal &Decimal::operator=(Decimal &&other) noexcept = default;
Decimal::~Decimal() = default;

std::optional<Decimal> Decimal::fromString(QStringView text)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    bool negative = false;
    if (i < n && (text[i] == u'-' || text[i] == u'+'))
        negative = text[i++] == u'-';
    std::string digits;
    int scale = 0;
    bool seenPoint = false;
    for (; i < n; ++i) {
        const QChar c = text[i];
        if (c >= u'0' && c <= u'9') {
            digits.push_back(char(c.unicode()));
            if (seenPoint)
                ++scale;
        } else if (c == u'.' && !seenPoint) {
            seenPoint = true;
        } else {
            break;
        }
    }
    if (digits.empty())
        return std::nullopt;
    qint64 exponent = 0;
    if (i < n && (text[i] == u'e' || text[i] == u'E')) {
        ++i;
        bool negativeExponent = false;
        if (i < n && (text[i] == u'-' || text[i] == u'+'))
            negativeExponent = text[i++] == u'-';
        const qsizetype start = i;
        for (; i < n && text[i] >= u'0' && text[i] <= u'9'; ++i) {
            exponent = exponent * 10 + (text[i].unicode() - u'0');
            if (exponent > MaxScale)
                return std::nullopt;
        }
        if (i == start)
            return std::nullopt;
        if (negativeExponent)
            exponent = -exponent;
    }
    if (i != n)
        return std::nullopt;
    const qint64 finalScale = qint64(scale) - exponent;
    if (finalScale > MaxScale || qsizetype(digits.size()) > MaxScale)
        return std::nullopt;
    // cpp_int reads a leading 0 as an octal prefix: skip leading zeros first.
    const size_t firstNonZero = digits.find_first_not_of('0');
    const std::string significant
        = firstNonZero == std::string::npos ? std::string("0") : digits.substr(firstNonZero);
    QSharedDataPointer<DecimalPrivate> data(new DecimalPrivate);
    data->mantissa = BigInt(significant);
    if (finalScale < 0) {
        data->mantissa *= powerOfTen(int(-finalScale));
        data->scale = 0;
    } else {
        data->scale = int(finalScale);
    }
    if (negative)
        data->mantissa = -data->mantissa;
    return Decimal(std::move(data));
}

QString Decimal::toString() const
{
    const bool negative = d->mantissa < 0;
    const std::string digits = (negative ? BigInt(-d->mantissa) : d->mantissa).str();
    const qsizetype size = qsizetype(digits.size());
    const qsizetype scale = d->scale;
    QString text;
    text.reserve(size + scale + 3);
    if (negative)
        text += u'-';
    if (scale <= 0) {
        text += QLatin1StringView(digits.data(), size);
    } else if (size <= scale) {
        text += u"0."_s;
        text += QString(scale - size, u'0');
        text += QLatin1StringView(digits.data(), size);
    } else {
        text += QLatin1StringView(digits.data(), size - scale);
        text += u'.';
        text += QLatin1StringView(digits.data() + (size - scale), scale);
    }
    return text;
}

double Decimal::toDouble() const
{
    return toString().toDouble();
}

int Decimal::scale() const
{
    return d->scale;
}

bool Decimal::isZero() const
{
    return d->mantissa.is_zero();
}

bool Decimal::isNegative() const
{
    return d->mantissa < 0;
}

Decimal Decimal::operator-() const
{
    Decimal result(*this);
    result.d->mantissa = -result.d->mantissa;
    return result;
}

Decimal operator+(const Decimal &a, const Decimal &b)
{
    Decimal result;
    auto [x, y] = aligned(*a.d, *b.d, &result.d->scale);
    result.d->mantissa = x + y;
    return result;
}

Decimal operator-(const Decimal &a, const Decimal &b)
{
    Decimal result;
    auto [x, y] = aligned(*a.d, *b.d, &result.d->scale);
    result.d->mantissa = x - y;
    return result;
}

Decimal operator*(const Decimal &a, const Decimal &b)
{
    Decimal result;
    result.d->mantissa = a.d->mantissa * b.d->mantissa;
    result.d->scale = a.d->scale + b.d->scale;
    return result;
}

int compare(const Decimal &a, const Decimal &b)
{
    int scale = 0;
    auto [x, y] = aligned(*a.d, *b.d, &scale);
    return x < y ? -1 : (y < x ? 1 : 0);
}

QDebug operator<<(QDebug debug, const Decimal &value)
{
    QDebugStateSaver saver(debug);
    debug.nospace() << "Decimal(" << value.toString() << ')';
    return debug;
}

namespace {
// Lets QVariant (and so QML and views) show a Decimal as text.
void registerDecimalConverters()
{
    QMetaType::registerConverter<Decimal, QString>(&Decimal::toString);
    QMetaType::registerConverter<Decimal, double>(&Decimal::toDouble);
    // Text to Decimal fails (returns false) on text that is not a decimal number.
    QMetaType::registerConverterFunction(
        [](const void *from, void *to) {
            const auto value = Decimal::fromString(*static_cast<const QString *>(from));
            if (value)
                *static_cast<Decimal *>(to) = *value;
            return value.has_value();
        },
        QMetaType::fromType<QString>(), QMetaType::fromType<Decimal>());
}
} // namespace
Q_CONSTRUCTOR_FUNCTION(registerDecimalConverters)

} // namespace DataClient
