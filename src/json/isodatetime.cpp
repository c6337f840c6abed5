#include <DataClient/private/isodatetime_p.h>

#include <QtCore/QSysInfo>
#include <QtCore/QtEndian>

#include <cstring>
#include <limits>

namespace DataClient::detail {

namespace {

// Not a date (no date in years 0000-9999 is this far from the epoch). A plain integer rather
// than std::optional: returning optionals through the stack stalled store forwarding (perf).
constexpr qint64 Invalid = std::numeric_limits<qint64>::min();

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's algorithm).
qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + qint64(doe) - 719468;
}

bool isLeap(qint64 y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned daysInMonth(qint64 y, unsigned m)
{
    static constexpr unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : days[m - 1];
}

template<typename Text> class Reader
{
public:
    explicit Reader(Text text) : m_text(text) { }

    bool atEnd() const { return m_pos >= m_text.size(); }
    char16_t peek() const { return atEnd() ? 0 : char16_t(m_text[m_pos].unicode()); }
    bool take(char16_t c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    // Exactly \a count digits.
    bool digits(int count, int *value)
    {
        int result = 0;
        for (int i = 0; i < count; ++i) {
            const char16_t c = peek();
            if (c < u'0' || c > u'9')
                return false;
            result = result * 10 + (c - u'0');
            ++m_pos;
        }
        *value = result;
        return true;
    }
    qsizetype position() const { return m_pos; }

private:
    Text m_text;
    qsizetype m_pos = 0;
};

// "YYYY-MM-DDTHH:MM:SS.mmmZ", what servers (and JavaScript's toISOString) send most: read by
// position, every digit checked at once (no scanning, no branch per character).
template<typename Char> qint64 parseCommonForm(const Char *p)
{
    if (p[4] != '-' || p[7] != '-' || p[10] != 'T' || p[13] != ':' || p[16] != ':' || p[19] != '.'
        || p[23] != 'Z')
        return Invalid;
    unsigned bad = 0;
    const auto digit = [&](int i) {
        const unsigned d = unsigned(p[i]) - unsigned('0');
        bad |= d > 9 ? 1u : 0u;
        return int(d);
    };
    const auto two = [&](int i) { return digit(i) * 10 + digit(i + 1); };
    const int year = two(0) * 100 + two(2);
    const int month = two(5), day = two(8), hour = two(11), minute = two(14), second = two(17);
    const int millis = digit(20) * 100 + two(21);
    if (bad || month < 1 || month > 12 || day < 1
        || unsigned(day) > daysInMonth(year, unsigned(month)) || hour > 23 || minute > 59
        || second > 60)
        return Invalid;
    return daysFromCivil(year, unsigned(month), unsigned(day)) * 86400000
        + ((hour * 60 + minute) * 60 + second) * 1000LL + millis;
}

// The same form in Latin-1, checked eight characters at a time: every separator compared at
// once and every digit range-checked with two masks (what a list of 10k dates costs).
qint64 parseCommonFormLatin1(const char *p)
{
    // "YYYY-MM-" "DDTHH:MM" ":SS.mmmZ": separators where the mask byte is 0xff, digits elsewhere.
    constexpr quint64 sepMask[3]
        = {0xff0000ff00000000ULL, 0x0000ff0000ff0000ULL, 0xff000000ff0000ffULL};
    constexpr quint64 sepValue[3]
        = {0x2d00002d00000000ULL, 0x00003a0000540000ULL, 0x5a0000002e00003aULL};
    constexpr quint64 ones = 0x0101010101010101ULL;
    quint64 digits[3];
    for (int i = 0; i < 3; ++i) {
        quint64 chunk;
        std::memcpy(&chunk, p + 8 * i, 8);
        if (QSysInfo::ByteOrder != QSysInfo::LittleEndian)
            chunk = qbswap(chunk);
        if ((chunk & sepMask[i]) != sepValue[i])
            return Invalid;
        const quint64 digitMask = ~sepMask[i];
        // Each digit byte is 0x30..0x39: high nibble 3, and adding 6 keeps it 3.
        const quint64 highNibbles = 0xf0 * ones & digitMask;
        if ((chunk & highNibbles) != (0x30 * ones & digitMask)
            || ((chunk + (0x06 * ones & digitMask)) & highNibbles) != (0x30 * ones & digitMask))
            return Invalid;
        digits[i] = (chunk - (0x30 * ones & digitMask)) & digitMask;
    }
    const auto at = [&](int i) { return int((digits[i / 8] >> (8 * (i % 8))) & 0xff); };
    const int year = at(0) * 1000 + at(1) * 100 + at(2) * 10 + at(3);
    const int month = at(5) * 10 + at(6), day = at(8) * 10 + at(9);
    const int hour = at(11) * 10 + at(12), minute = at(14) * 10 + at(15);
    const int second = at(17) * 10 + at(18);
    const int millis = at(20) * 100 + at(21) * 10 + at(22);
    if (month < 1 || month > 12 || day < 1 || unsigned(day) > daysInMonth(year, unsigned(month))
        || hour > 23 || minute > 59 || second > 60)
        return Invalid;
    return daysFromCivil(year, unsigned(month), unsigned(day)) * 86400000
        + ((hour * 60 + minute) * 60 + second) * 1000LL + millis;
}

qint64 parseCommonForm(QLatin1StringView text)
{
    return parseCommonFormLatin1(text.data());
}
qint64 parseCommonForm(QStringView text)
{
    return parseCommonForm(text.utf16());
}

template<typename Text> qint64 parse(Text text)
{
    if (text.size() == IsoCommonFormLength) {
        if (const qint64 ms = parseCommonForm(text); ms != Invalid)
            return ms;
    }
    Reader<Text> in(text);
    int year = 0, month = 0, day = 0;
    if (!in.digits(4, &year) || !in.take(u'-') || !in.digits(2, &month) || !in.take(u'-')
        || !in.digits(2, &day))
        return Invalid;
    if (month < 1 || month > 12 || day < 1 || unsigned(day) > daysInMonth(year, unsigned(month)))
        return Invalid;
    qint64 ms = daysFromCivil(year, unsigned(month), unsigned(day)) * 86400000;
    if (in.atEnd())
        return ms;
    if (!in.take(u'T') && !in.take(u't') && !in.take(u' '))
        return Invalid;
    int hour = 0, minute = 0, second = 0, millis = 0;
    if (!in.digits(2, &hour) || !in.take(u':') || !in.digits(2, &minute))
        return Invalid;
    if (in.take(u':')) {
        if (!in.digits(2, &second))
            return Invalid;
        if (in.take(u'.') || in.take(u',')) {
            // Any number of fraction digits, rounded to milliseconds (as QDateTime does).
            int scale = 100;
            int digitsRead = 0;
            const qsizetype start = in.position();
            while (in.peek() >= u'0' && in.peek() <= u'9') {
                const int digit = in.peek() - u'0';
                if (digitsRead < 3)
                    millis += digit * scale;
                else if (digitsRead == 3 && digit >= 5)
                    ++millis;
                scale /= 10;
                ++digitsRead;
                in.take(in.peek());
            }
            if (in.position() == start)
                return Invalid;
        }
    }
    if (hour > 23 || minute > 59 || second > 60) // 60: a leap second, folded into the next
        return Invalid;
    ms += ((hour * 60 + minute) * 60 + second) * 1000LL + millis;
    if (in.atEnd() || in.take(u'Z') || in.take(u'z'))
        return in.atEnd() ? ms : Invalid;
    const char16_t sign = in.peek();
    if (sign != u'+' && sign != u'-')
        return Invalid;
    in.take(sign);
    int offsetHours = 0, offsetMinutes = 0;
    if (!in.digits(2, &offsetHours))
        return Invalid;
    if (!in.atEnd()) {
        in.take(u':');
        if (!in.digits(2, &offsetMinutes))
            return Invalid;
    }
    if (!in.atEnd() || offsetHours > 23 || offsetMinutes > 59)
        return Invalid;
    const qint64 offset = (offsetHours * 60 + offsetMinutes) * 60000LL;
    return sign == u'+' ? ms - offset : ms + offset;
}

} // namespace

std::optional<qint64> parseIsoDateTime(QStringView text)
{
    const qint64 ms = parse(text);
    return ms == Invalid ? std::nullopt : std::optional<qint64>(ms);
}

std::optional<qint64> parseIsoDateTime(QLatin1StringView text)
{
    const qint64 ms = parse(text);
    return ms == Invalid ? std::nullopt : std::optional<qint64>(ms);
}

bool readIsoDateTime(QLatin1StringView text, qint64 *msecs)
{
    *msecs = parse(text);
    return *msecs != Invalid;
}

} // namespace DataClient::detail
