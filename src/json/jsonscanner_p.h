// JsonScanner: the lexical half of the JSON parser (jsonparser.cpp builds the tree): white
// space, literals, numbers, and strings with their escapes and UTF-8 decoded (strict UTF-8,
// utf8_p.h: invalid bytes are an error, as in QJsonDocument, not replaced). Inline, so that
// the parser's loop compiles as one piece (split from jsonparser.cpp to keep files short).
#pragma once

#include <DataClient/private/node_p.h>
#include <DataClient/private/utf8_p.h>

#include <QtCore/QString>
#include <QtCore/QtGlobal>

#include <bit>
#include <charconv>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#    include <emmintrin.h>
#endif

namespace DataClient::detail {

//! What was wrong and where (a pointer into the input); caught by the parser.
struct JsonParseError
{
    const char *what;
    const char *at;
};

class JsonScanner
{
public:
    JsonScanner(const char *begin, const char *end) : m_begin(begin), m_p(begin), m_end(end) { }

protected:
    void skipSpace()
    {
        // One compare for the common case: compact JSON has no space, and every JSON space is
        // at or below ' ' (so is every control character, which the loop leaves where it is).
        if (m_p < m_end && static_cast<unsigned char>(*m_p) <= ' ') [[unlikely]] {
            while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
                ++m_p;
        }
    }

    //! Whether \a c is next, after any space (skipped only when there is some: compact JSON
    //! has none between tokens).
    bool nextIs(char c)
    {
        if (m_p < m_end && *m_p == c)
            return true;
        skipSpace();
        return m_p < m_end && *m_p == c;
    }

    [[noreturn]] void fail(const char *what) const { throw JsonParseError {what, m_p}; }
    //! Skips a run of digits; fails with \a error when there is none.
    void skipDigits(const char *error)
    {
        const char *start = m_p;
        while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
        if (m_p == start)
            fail(error);
    }

    //! Steps over \a word (true, false, null) or fails.
    void expectWord(const char *word)
    {
        const qsizetype n = qsizetype(std::strlen(word));
        if (m_end - m_p < n || std::memcmp(m_p, word, size_t(n)) != 0)
            fail("invalid literal");
        m_p += n;
    }

    /*!
        Reads the number at the cursor (JSON grammar). An integer literal that fits in 64 bits
        is an Integer, exactly; a longer one a BigInteger (only its type is set: its digits are
        [\a *start, cursor), kept for primary keys). Other numbers go through the double and are
        an Integer when whole and in range, as QJsonDocument does (Value::makeNumber()).
    */
    Value scanNumber(const char **start)
    {
        *start = m_p;
        const bool negative = m_p < m_end && *m_p == '-';
        if (negative)
            ++m_p;
        if (m_p >= m_end || *m_p < '0' || *m_p > '9')
            fail("invalid value");
        quint64 magnitude = 0; // exact while digits <= 19
        qsizetype digits = 0;
        if (*m_p == '0') {
            ++m_p;
            digits = 1;
        } else {
            // A local cursor: m_p is a member, and every char store may alias it, so a loop on
            // m_p itself stored and reloaded it for each digit (callgrind: 13 instructions a digit).
            const char *p = m_p;
            while (p < m_end && unsigned(*p - '0') <= 9) {
                magnitude = magnitude * 10 + quint64(*p - '0');
                ++p;
            }
            digits = p - m_p;
            m_p = p;
        }
        bool integer = true;
        if (m_p < m_end && *m_p == '.') {
            integer = false;
            ++m_p;
            skipDigits("invalid number: digits expected after '.'");
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            integer = false;
            ++m_p;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            skipDigits("invalid number: digits expected in the exponent");
        }
        if (integer && digits <= 18) // below 10^18: fits in a qint64
            return Value::makeInteger(negative ? -qint64(magnitude) : qint64(magnitude));
        if (integer && digits == 19) {
            constexpr quint64 Limit = quint64(1) << 63; // |qint64 min|
            if (magnitude < Limit)
                return Value::makeInteger(negative ? -qint64(magnitude) : qint64(magnitude));
            if (negative && magnitude == Limit)
                return Value::makeInteger(std::numeric_limits<qint64>::min());
        }
        double number = 0;
        const auto [end, ec] = std::from_chars(*start, m_p, number);
        if (ec == std::errc::result_out_of_range)
            throw JsonParseError {"number out of range", *start};
        if (ec != std::errc() || end != m_p)
            throw JsonParseError {"invalid number", *start};
        if (integer) {
            Value big;
            big.type = ValueType::BigInteger;
            return big;
        }
        return Value::makeNumber(number);
    }

    // Scans a string starting after its opening quote, up to its closing quote (*textEnd).
    // Returns true when it is plain ASCII without escapes; otherwise its text is to be read
    // with decodeLatin1() or decode().
    bool scanString(const char **textEnd)
    {
        const char *start = m_p;
        const char *p = m_p; // a local cursor: the loop keeps it in a register
        bool plain = true;
        while (true) {
            p = skipOrdinary(p, m_end);
            if (p >= m_end) {
                m_p = p;
                checkUtf8(start, m_end); // a cut UTF-8 sequence is reported as such
                fail("unterminated string");
            }
            const unsigned char c = static_cast<unsigned char>(*p);
            if (c == '"') {
                *textEnd = p;
                m_p = p + 1;
                return plain;
            }
            if (c < 0x20) {
                m_p = p;
                fail("control character in string");
            }
            if (c == '\\') {
                plain = false;
                ++p;
                if (p >= m_end) {
                    m_p = p;
                    fail("unterminated string");
                }
            } else if (c >= 0x80) {
                plain = false;
            }
            ++p;
        }
    }

    // The first byte at or after \a p (before \a end) that is a quote, a backslash, a control
    // or a non-ASCII byte; \a end when there is none. The string scan's inner loop: a third of
    // the parse of todos-10k (perf, docs/performance.md).
    static const char *skipOrdinary(const char *p, const char *end)
    {
#if defined(__SSE2__)
        // 16 bytes at a time. One signed compare finds both kinds below: bytes 0x80..0xFF are
        // negative as signed chars, so "< 0x20" holds for controls and non-ASCII alike.
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i slash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(0x20);
        while (end - p >= 16) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
            const __m128i special = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, slash)),
                _mm_cmplt_epi8(bytes, space));
            const unsigned mask = unsigned(_mm_movemask_epi8(special));
            if (mask != 0)
                return p + std::countr_zero(mask);
            p += 16;
        }
#else
        // 8 bytes at a time (SWAR) while none is special.
        while (end - p >= 8) {
            quint64 w;
            std::memcpy(&w, p, 8);
            constexpr quint64 ones = 0x0101010101010101ULL;
            constexpr quint64 high = 0x8080808080808080ULL;
            const quint64 quote = w ^ (ones * '"');
            const quint64 slash = w ^ (ones * '\\');
            const quint64 special
                = ((quote - ones) & ~quote) | ((slash - ones) & ~slash) | (w - ones * 0x20) | w;
            if (special & high)
                break;
            p += 8;
        }
#endif
        while (p < end) {
            const unsigned char c = static_cast<unsigned char>(*p);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
                return p;
            ++p;
        }
        return p;
    }

    static int hexDigit(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    // Fails at the first byte of [begin, end) (a run without escapes, so without quotes or
    // backslashes) that does not start a valid UTF-8 sequence.
    static void checkUtf8(const char *begin, const char *end)
    {
        const auto *p = reinterpret_cast<const unsigned char *>(begin);
        const auto *stop = reinterpret_cast<const unsigned char *>(end);
        while (p < stop) {
            if (*p < 0x80) {
                ++p;
                continue;
            }
            const int length = utf8SequenceLength(p, stop);
            if (length == 0)
                throw JsonParseError {"invalid UTF-8", reinterpret_cast<const char *>(p)};
            p += length;
        }
    }

    // The text of [begin, end) as Latin-1 into m_latin1, when it is that: no escape, and every
    // non-ASCII character a two-byte sequence below U+0100 (C2 or C3, then a continuation
    // byte), as in most Western European text. Else false, and decode() reads it (and says
    // what is wrong with it): a city such as "Zürich" then costs no QString.
    bool decodeLatin1(const char *begin, const char *end)
    {
        const auto *p = reinterpret_cast<const unsigned char *>(begin);
        const auto *stop = reinterpret_cast<const unsigned char *>(end);
        m_latin1.resize(size_t(end - begin));
        char *out = m_latin1.data();
        size_t n = 0;
        while (p < stop) {
            const unsigned char c = *p;
            if (c < 0x80 && c != '\\') {
                out[n++] = char(c);
                ++p;
            } else if ((c == 0xc2 || c == 0xc3) && stop - p >= 2 && (p[1] & 0xc0) == 0x80) {
                out[n++] = char((c & 0x03) << 6 | (p[1] & 0x3f));
                p += 2;
            } else {
                return false;
            }
        }
        m_latin1.resize(n);
        return true;
    }

    // Decodes escapes and UTF-8 of [begin, end) into m_text.
    void decode(const char *begin, const char *end)
    {
        m_text.clear();
        const char *run = begin;
        const char *p = begin;
        auto flush = [&](const char *upTo) {
            if (upTo > run) {
                checkUtf8(run, upTo); // fromUtf8() would replace bad bytes with U+FFFD
                m_text += QString::fromUtf8(run, upTo - run);
            }
        };
        while (p < end) {
            if (*p != '\\') {
                ++p;
                continue;
            }
            flush(p);
            const char e = p[1];
            p += 2;
            switch (e) {
            case '"':
                m_text += u'"';
                break;
            case '\\':
                m_text += u'\\';
                break;
            case '/':
                m_text += u'/';
                break;
            case 'b':
                m_text += u'\b';
                break;
            case 'f':
                m_text += u'\f';
                break;
            case 'n':
                m_text += u'\n';
                break;
            case 'r':
                m_text += u'\r';
                break;
            case 't':
                m_text += u'\t';
                break;
            case 'u': {
                if (end - p < 4)
                    throw JsonParseError {"invalid \\u escape", p};
                int code = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hexDigit(p[i]);
                    if (h < 0)
                        throw JsonParseError {"invalid \\u escape", p};
                    code = code * 16 + h;
                }
                p += 4;
                m_text += QChar(char16_t(code));
                break;
            }
            default:
                throw JsonParseError {"invalid escape in string", p - 1};
            }
            run = p;
        }
        flush(end);
    }

    const char *m_begin;
    const char *m_p;
    const char *m_end;
    QString m_text; // the last string that needed decoding
    BlobBuffer m_latin1; // the last string decodeLatin1() read
};

} // namespace DataClient::detail
