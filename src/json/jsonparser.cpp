#include <DataClient/private/jsonparser_p.h>

#include "jsonscanner_p.h"
#include "jsontree_p.h"

#include <DataClient/private/nodearena_p.h>
#include <DataClient/private/vectorstate_p.h>

#include <optional>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

// Our own parser: the scanner (jsonscanner_p.h) reads the tokens, JsonTreeBuilder (jsontree_p.h)
// keeps the NodeBuilders and shapes.
class Parser : private JsonScanner, private JsonTreeBuilder
{
public:
    Parser(const char *begin, const char *end) : JsonScanner(begin, end)
    {
        // One arena per answer (nodearena_p.h): a small text keeps a heap allocation per node.
        if (NodeArena::Enabled && end - begin >= NodeArena::MinInput)
            setArena(&m_arena.emplace(end - begin));
    }

    ParseResult run()
    {
        ParseResult result;
        try {
            NodeBuilder holder;
            holder.setArena(m_arena ? &*m_arena : nullptr);
            skipSpace();
            parseValue(holder, 0);
            skipSpace();
            if (m_p != m_end)
                fail("unexpected text after the JSON value");
            result.holder = holder.finishArray();
        } catch (const JsonParseError &e) {
            // Outside strings any byte >= 0x80 is a syntax error; when it is bad UTF-8 too, say
            // that: the message utf8Error() gives for the same bytes (the QJsonDocument paths).
            const auto *at = reinterpret_cast<const unsigned char *>(e.at);
            const bool badUtf8 = e.at < m_end && *at >= 0x80
                && utf8SequenceLength(at, reinterpret_cast<const unsigned char *>(m_end)) == 0;
            result.offset = e.at - m_begin;
            result.error = badUtf8
                ? utf8ErrorAt(result.offset)
                : u"%1 at byte offset %2"_s.arg(QString::fromLatin1(e.what)).arg(result.offset);
        }
        return result;
    }

private:
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
        expectWord(word);
        out.appendValue(value);
    }

    void parseNumber(NodeBuilder &out)
    {
        const char *start = nullptr;
        const Value number = scanNumber(&start);
        if (number.type == ValueType::BigInteger)
            out.appendBigInteger(QLatin1StringView(start, m_p - start));
        else
            out.appendValue(number);
    }

    void parseString(NodeBuilder &out)
    {
        ++m_p; // opening quote
        const char *start = m_p;
        const char *textEnd = nullptr;
        if (scanString(&textEnd)) {
            out.appendLatin1(QLatin1StringView(start, textEnd - start));
        } else if (decodeLatin1(start, textEnd)) {
            out.appendLatin1(QLatin1StringView(m_latin1.data(), qsizetype(m_latin1.size())));
        } else {
            decode(start, textEnd);
            out.appendString(m_text);
        }
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
        Keys keys;
        QList<QString> &decodedKeys = this->decodedKeys();
        const qsizetype decodedBase = decodedKeys.size();
        // The keys of the last object at this depth, read against the text: while they match,
        // a key costs one short compare, not a scan and a second compare in shapeFor().
        const LastKeys *expected = expectedKeysAt(depth);
        const char *expectedBytes = expected ? expected->bytes.constData() : nullptr;
        bool asExpected = expected != nullptr;
        skipSpace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            out.appendNode(fields.finishObjectGivenRef(nodeShape(shapeFor(keys, depth))));
            return;
        }
        while (true) {
            skipSpace();
            if (m_p >= m_end || *m_p != '"')
                fail("expected a string key in object");
            if (keys.size() == MaxObjectKeys) {
                static_assert(MaxObjectKeys == 65536, "keep the message in step");
                fail("an object with more than 65536 keys"); // at the first key too many
            }
            ++m_p;
            const char *start = m_p;
            if (asExpected && keys.size() < expected->sizes.size()) {
                // Expected keys are plain (no escape, quote or non-ASCII byte) and remembered
                // with the '":' that follows them in compact JSON: equal bytes are that key and
                // its colon.
                const qsizetype n = expected->sizes[keys.size()];
                asExpected = m_end - m_p >= n + 2 && sameBytes(m_p, expectedBytes, n + 2);
                expectedBytes += n + 2;
                if (asExpected) {
                    keys.append({start, n});
                    m_p += n + 2;
                }
            } else {
                asExpected = false;
            }
            if (!asExpected) {
                const char *textEnd = nullptr;
                if (scanString(&textEnd)) {
                    keys.append({start, textEnd - start});
                } else {
                    decode(start, textEnd);
                    decodedKeys.append(m_text);
                    keys.append({start, textEnd - start, decodedKeys.size() - 1});
                }
                skipSpace();
                if (m_p >= m_end || *m_p != ':')
                    fail("expected ':' after an object key");
                ++m_p;
            }
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
        const qsizetype shape = shapeFor(keys, depth, asExpected);
        if (shape < 0)
            fail("duplicate key in object");
        out.appendNode(fields.finishObjectGivenRef(nodeShape(shape)));
        if (decodedKeys.size() != decodedBase)
            decodedKeys.resize(decodedBase);
    }

    // Destroyed before the builders (bases): fine, it only gives back the parse's credits; the
    // blocks go with the last node.
    std::optional<NodeArena> m_arena;
};

} // namespace

ParseResult parseJson(QByteArrayView utf8)
{
    clearUpperVectorState(); // the caller's thread may have hashed a QString (vectorstate_p.h)
    Parser parser(utf8.data(), utf8.data() + utf8.size());
    return parser.run();
}

} // namespace DataClient::detail
