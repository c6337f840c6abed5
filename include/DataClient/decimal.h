// Decimal: an exact, arbitrary-precision decimal number (a field type of schemas).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QMetaType>
#include <QtCore/QSharedDataPointer>
#include <QtCore/QString>

#include <optional>

QT_BEGIN_NAMESPACE
class QDebug;
QT_END_NAMESPACE

namespace DataClient {

class DecimalPrivate;

/*!
    An exact decimal value that keeps every digit the server sent: "0.1" + "0.2" is exactly "0.3".
    Arithmetic is exact (no rounding) for +, - and *; the digits live in an arbitrary-precision
    integer (Boost.Multiprecision, hidden in the implementation) times a power of ten.
    Implicitly shared, cheap to copy; a registered metatype so it travels in QVariant.
*/
class DATACLIENT_SCHEMA_EXPORT Decimal
{
public:
    //! Zero.
    Decimal();
    Decimal(int value);
    Decimal(qint64 value);
    Decimal(const Decimal &other);
    Decimal(Decimal &&other) noexcept;
    Decimal &operator=(const Decimal &other);
    Decimal &operator=(Decimal &&other) noexcept;
    ~Decimal();

    //! Parses "-12.340", "1e-3", "+5"; std::nullopt for anything else (no spaces, no NaN).
    static std::optional<Decimal> fromString(QStringView text);

    //! The digits with the scale they were written with: "12.340" stays "12.340".
    QString toString() const;
    //! Nearest double (for display or charts only; loses the exactness).
    double toDouble() const;
    //! Number of digits after the decimal point.
    int scale() const;
    bool isZero() const;
    bool isNegative() const;

    Decimal operator-() const;
    friend DATACLIENT_SCHEMA_EXPORT Decimal operator+(const Decimal &a, const Decimal &b);
    friend DATACLIENT_SCHEMA_EXPORT Decimal operator-(const Decimal &a, const Decimal &b);
    friend DATACLIENT_SCHEMA_EXPORT Decimal operator*(const Decimal &a, const Decimal &b);
    Decimal &operator+=(const Decimal &other) { return *this = *this + other; }
    Decimal &operator-=(const Decimal &other) { return *this = *this - other; }
    Decimal &operator*=(const Decimal &other) { return *this = *this * other; }

    //! Numeric comparison: "1.50" == "1.5".
    friend DATACLIENT_SCHEMA_EXPORT int compare(const Decimal &a, const Decimal &b);
    friend bool operator==(const Decimal &a, const Decimal &b) { return compare(a, b) == 0; }
    friend bool operator!=(const Decimal &a, const Decimal &b) { return compare(a, b) != 0; }
    friend bool operator<(const Decimal &a, const Decimal &b) { return compare(a, b) < 0; }
    friend bool operator<=(const Decimal &a, const Decimal &b) { return compare(a, b) <= 0; }
    friend bool operator>(const Decimal &a, const Decimal &b) { return compare(a, b) > 0; }
    friend bool operator>=(const Decimal &a, const Decimal &b) { return compare(a, b) >= 0; }

    void swap(Decimal &other) noexcept { d.swap(other.d); }

private:
    explicit Decimal(QSharedDataPointer<DecimalPrivate> data);
    QSharedDataPointer<DecimalPrivate> d;
};

DATACLIENT_SCHEMA_EXPORT QDebug operator<<(QDebug debug, const Decimal &value);

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::Decimal)
Q_DECLARE_METATYPE(DataClient::Decimal)
