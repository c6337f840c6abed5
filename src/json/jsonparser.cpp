#include <DataClient/private/jsonparser_p.h>

#include "jsonscanner_p.h"

#include <QtCore/QHash>
#include <QtCore/QVarLengthArray>

#include <vector>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

// The tree builder: values into NodeBuilders (one per depth, reused), objects' key lists
// interned as Shapes; the scanner (jsonscanner_p.h) reads the tokens.
class Parser : private JsonScanner
{
public:
    Parser(const char *begin, const char *end) : JsonScanner(begin, end) { }

    ParseResult run()
    {
        ParseResult result;
        try {
            NodeBuilder holder;
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
    // Keys of one object as they appear in the input (escaped keys are decoded into `decoded`).
    struct RawKey
    {
        const char *data;
        qsizetype size;
        qsizetype decoded = -1; // index into m_decodedKeys
    };

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
            out.appendNode(fields.finishObjectGivenRef(nodeShape(shapeFor(keys, decodedBase))));
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
        const Shape *shape = nodeShape(shapeFor(keys, decodedBase));
        out.appendNode(fields.finishObjectGivenRef(shape));
        m_decodedKeys.resize(decodedBase);
    }

    // A shape this parse uses: the cache's reference, and references taken by the batch for
    // its nodes (one atomic operation per batch, not per object); the rest are given back when
    // the parser goes.
    struct CachedShape
    {
        const Shape *shape;
        int spare = 0; // references held for nodes still to be made
    };
    static constexpr int RefBatch = 256;

    // One reference to the cached shape \a index, for a node about to be made.
    const Shape *nodeShape(qsizetype index)
    {
        CachedShape &cached = m_cache[size_t(index)];
        if (cached.spare == 0) {
            cached.shape->ref(RefBatch);
            cached.spare = RefBatch;
        }
        --cached.spare;
        return cached.shape;
    }

    // The cache index of the interned shape of these keys; the cache avoids building QStrings
    // for key lists seen before (10k todos have one key list).
    qsizetype shapeFor(const QVarLengthArray<RawKey, 16> &keys, qsizetype decodedBase)
    {
        Q_UNUSED(decodedBase);
        size_t h = keys.size();
        for (const RawKey &key : keys)
            h = qHashMulti(h, QByteArrayView(key.data, key.size));
        for (auto it = m_shapes.constFind(h); it != m_shapes.cend() && it.key() == h; ++it) {
            const Shape *shape = m_cache[size_t(*it)].shape;
            if (shape->size() != keys.size())
                continue;
            bool same = true;
            for (qsizetype i = 0; i < keys.size() && same; ++i) {
                const RawKey &key = keys[i];
                same = key.decoded >= 0 ? shape->key(i) == m_decodedKeys.at(key.decoded)
                                        : shape->key(i) == QLatin1StringView(key.data, key.size);
            }
            if (same)
                return *it;
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
        m_cache.push_back({Shape::intern(names).take()}); // the cache's reference
        m_shapes.insert(h, qsizetype(m_cache.size() - 1));
        return qsizetype(m_cache.size() - 1);
    }

public:
    ~Parser()
    {
        for (const CachedShape &cached : m_cache)
            cached.shape->deref(cached.spare + 1);
    }

private:
    QList<QString> m_decodedKeys;
    std::vector<std::unique_ptr<NodeBuilder>> m_builders;
    std::vector<CachedShape> m_cache;
    QMultiHash<size_t, qsizetype> m_shapes; // key lists' hash -> m_cache index
};

} // namespace

ParseResult parseJson(QByteArrayView utf8)
{
    Parser parser(utf8.data(), utf8.data() + utf8.size());
    return parser.run();
}

} // namespace DataClient::detail
