#include "jsonparser_p.h"

#include <QtCore/QHash>
#include <QtCore/QVarLengthArray>

#include <charconv>
#include <vector>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

struct ParseError
{
    const char *what;
    const char *at;
};

class Parser
{
public:
    Parser(const char *begin, const char *end) : m_begin(begin), m_p(begin), m_end(end) { }

    ParseResult run()
    {
        ParseResult result;
        try {
            NodeBuilder holder;
            skipSpace();
            parseValue(holder, 0);
            skipSpace();
            if (m_p != m_end)
                throw ParseError {"unexpected text after the JSON value", m_p};
            result.holder = holder.finishArray();
        } catch (const ParseError &e) {
            result.error = QString::fromLatin1(e.what);
            result.offset = e.at - m_begin;
        }
        return result;
    }

private:
    // Keys of one object as they appear in the input (escaped keys are decoded into `decoded`).
    struct RawKey
    {
        const char *data;
        qsizetype size;
        qsizetype decoded = -1; // index into m_decodedKeys
    };

    void skipSpace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    [[noreturn]] void fail(const char *what) { throw ParseError {what, m_p}; }

    NodeBuilder &builderAt(int depth)
    {
        while (int(m_builders.size()) <= depth)
            m_builders.push_back(std::make_unique<NodeBuilder>());
        return *m_builders[size_t(depth)];
    }

    void parseValue(NodeBuilder &out, int depth)
    {
        if (m_p >= m_end)
            fail("unexpected end of input, expected a value");
        switch (*m_p) {
        case '{':
            return parseObject(out, depth + 1);
        case '[':
            return parseArray(out, depth + 1);
        case '"':
            return parseString(out);
        case 't':
            return literal("true", Value::makeBool(true), out);
        case 'f':
            return literal("false", Value::makeBool(false), out);
        case 'n':
            return literal("null", Value::makeNull(), out);
        default:
            return parseNumber(out);
        }
    }

    void literal(const char *word, Value value, NodeBuilder &out)
    {
        const qsizetype n = qsizetype(std::strlen(word));
        if (m_end - m_p < n || std::memcmp(m_p, word, size_t(n)) != 0)
            fail("invalid literal");
        m_p += n;
        out.appendValue(value);
    }

    void parseNumber(NodeBuilder &out)
    {
        const char *start = m_p;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        if (m_p >= m_end || *m_p < '0' || *m_p > '9')
            fail("invalid value");
        qint64 integer = 0;
        int digits = 0;
        if (*m_p == '0') {
            ++m_p;
            digits = 1;
        } else {
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9') {
                integer = integer * 10 + (*m_p - '0');
                ++m_p;
                if (++digits > 18)
                    integer = 0; // too long for the fast path; from_chars below
            }
        }
        bool simple = digits <= 15;
        if (m_p < m_end && *m_p == '.') {
            simple = false;
            ++m_p;
            const char *fraction = m_p;
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
            if (m_p == fraction)
                fail("invalid number: digits expected after '.'");
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            simple = false;
            ++m_p;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            const char *exponent = m_p;
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
            if (m_p == exponent)
                fail("invalid number: digits expected in the exponent");
        }
        double number = 0;
        if (simple) {
            number = double(integer);
            if (*start == '-')
                number = -number;
        } else {
            const auto [end, ec] = std::from_chars(start, m_p, number);
            if (ec == std::errc::result_out_of_range)
                throw ParseError {"number out of range", start};
            if (ec != std::errc() || end != m_p)
                throw ParseError {"invalid number", start};
        }
        out.appendValue(Value::makeNumber(number));
    }

    // Scans a string starting after its opening quote. Returns true when it is plain ASCII
    // without escapes (then [m_p, end) is the text); otherwise decodes into m_text.
    bool scanString(const char **textEnd)
    {
        const char *start = m_p;
        bool plain = true;
        while (true) {
            // 8 bytes at a time while none is a quote, a backslash, a control or a non-ASCII byte
            while (m_end - m_p >= 8) {
                quint64 w;
                std::memcpy(&w, m_p, 8);
                constexpr quint64 ones = 0x0101010101010101ULL;
                constexpr quint64 high = 0x8080808080808080ULL;
                const quint64 quote = w ^ (ones * '"');
                const quint64 slash = w ^ (ones * '\\');
                const quint64 special
                    = ((quote - ones) & ~quote) | ((slash - ones) & ~slash) | (w - ones * 0x20) | w;
                if (special & high)
                    break;
                m_p += 8;
            }
            if (m_p >= m_end)
                fail("unterminated string");
            const unsigned char c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                *textEnd = m_p;
                ++m_p;
                if (plain)
                    return true;
                decode(start, *textEnd);
                return false;
            }
            if (c < 0x20)
                fail("control character in string");
            if (c == '\\') {
                plain = false;
                ++m_p;
                if (m_p >= m_end)
                    fail("unterminated string");
            } else if (c >= 0x80) {
                plain = false;
            }
            ++m_p;
        }
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

    // Decodes escapes and UTF-8 of [begin, end) into m_text.
    void decode(const char *begin, const char *end)
    {
        m_text.clear();
        const char *run = begin;
        const char *p = begin;
        auto flush = [&](const char *upTo) {
            if (upTo > run)
                m_text += QString::fromUtf8(run, upTo - run);
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
                    throw ParseError {"invalid \\u escape", p};
                int code = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hexDigit(p[i]);
                    if (h < 0)
                        throw ParseError {"invalid \\u escape", p};
                    code = code * 16 + h;
                }
                p += 4;
                m_text += QChar(char16_t(code));
                break;
            }
            default:
                throw ParseError {"invalid escape in string", p - 1};
            }
            run = p;
        }
        flush(end);
    }

    void parseString(NodeBuilder &out)
    {
        ++m_p; // opening quote
        const char *start = m_p;
        const char *textEnd = nullptr;
        if (scanString(&textEnd))
            out.appendLatin1(QLatin1StringView(start, textEnd - start));
        else
            out.appendString(m_text);
    }

    void parseArray(NodeBuilder &out, int depth)
    {
        if (depth > MaxJsonDepth)
            fail("nesting too deep (more than 512 levels)");
        ++m_p;
        NodeBuilder &items = builderAt(depth);
        items.clear();
        skipSpace();
        if (m_p < m_end && *m_p == ']') {
            ++m_p;
            out.appendNode(items.finishArray());
            return;
        }
        while (true) {
            skipSpace();
            parseValue(items, depth);
            skipSpace();
            if (m_p >= m_end)
                fail("unterminated array");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == ']') {
                ++m_p;
                break;
            }
            fail("expected ',' or ']' in array");
        }
        out.appendNode(items.finishArray());
    }

    void parseObject(NodeBuilder &out, int depth)
    {
        if (depth > MaxJsonDepth)
            fail("nesting too deep (more than 512 levels)");
        ++m_p;
        NodeBuilder &fields = builderAt(depth);
        fields.clear();
        QVarLengthArray<RawKey, 16> keys;
        const qsizetype decodedBase = m_decodedKeys.size();
        skipSpace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            out.appendNode(fields.finishObject(shapeFor(keys, decodedBase)));
            return;
        }
        while (true) {
            skipSpace();
            if (m_p >= m_end || *m_p != '"')
                fail("expected a string key in object");
            ++m_p;
            const char *start = m_p;
            const char *textEnd = nullptr;
            if (scanString(&textEnd)) {
                keys.append({start, textEnd - start});
            } else {
                m_decodedKeys.append(m_text);
                keys.append({start, textEnd - start, m_decodedKeys.size() - 1});
            }
            skipSpace();
            if (m_p >= m_end || *m_p != ':')
                fail("expected ':' after an object key");
            ++m_p;
            skipSpace();
            parseValue(fields, depth);
            skipSpace();
            if (m_p >= m_end)
                fail("unterminated object");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == '}') {
                ++m_p;
                break;
            }
            fail("expected ',' or '}' in object");
        }
        const Shape *shape = shapeFor(keys, decodedBase);
        out.appendNode(fields.finishObject(shape));
        m_decodedKeys.resize(decodedBase);
    }

    // The interned shape of these keys; a per-parse cache avoids building QStrings for key
    // lists seen before (10k todos have one key list).
    const Shape *shapeFor(const QVarLengthArray<RawKey, 16> &keys, qsizetype decodedBase)
    {
        Q_UNUSED(decodedBase);
        size_t h = keys.size();
        for (const RawKey &key : keys)
            h = qHashMulti(h, QByteArrayView(key.data, key.size));
        for (auto it = m_shapes.constFind(h); it != m_shapes.cend() && it.key() == h; ++it) {
            const Shape *shape = *it;
            if (shape->size() != keys.size())
                continue;
            bool same = true;
            for (qsizetype i = 0; i < keys.size() && same; ++i) {
                const RawKey &key = keys[i];
                same = key.decoded >= 0 ? shape->key(i) == m_decodedKeys.at(key.decoded)
                                        : shape->key(i) == QLatin1StringView(key.data, key.size);
            }
            if (same)
                return shape;
        }
        QList<QString> names;
        names.reserve(keys.size());
        for (const RawKey &key : keys) {
            names.append(key.decoded >= 0 ? m_decodedKeys.at(key.decoded)
                                          : QString(QLatin1StringView(key.data, key.size)));
        }
        QList<QString> sorted = names;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            fail("duplicate key in object");
        const Shape *shape = Shape::intern(names);
        shape->ref(); // the cache's reference, dropped with the parser
        m_shapes.insert(h, shape);
        return shape;
    }

public:
    ~Parser()
    {
        for (const Shape *shape : std::as_const(m_shapes))
            shape->deref();
    }

private:
    const char *m_begin;
    const char *m_p;
    const char *m_end;
    QString m_text;
    QList<QString> m_decodedKeys;
    std::vector<std::unique_ptr<NodeBuilder>> m_builders;
    QMultiHash<size_t, const Shape *> m_shapes;
};

} // namespace

ParseResult parseJson(QByteArrayView utf8)
{
    Parser parser(utf8.data(), utf8.data() + utf8.size());
    return parser.run();
}

} // namespace DataClient::detail
