#include <DataClient/private/jsonparser_p.h>

#include "jsonscanner_p.h"
#include "jsontree_p.h"
#include "parsesplit_p.h"

#include <DataClient/private/nodearena_p.h>
#include <DataClient/private/vectorstate_p.h>

#include <QtCore/QThread>

#include <algorithm>
#include <exception>
#include <optional>
#include <vector>

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

    ~Parser()
    {
        // The helper reads the caller's text: it must be done (or stop) before we return.
        if (m_split)
            m_split->settle();
    }

    ParseResult run()
    {
        ParseResult result;
        try {
            NodeBuilder holder;
            holder.setArena(m_arena ? &*m_arena : nullptr);
            skipSpace();
            startSplit();
            parseValue(holder, 0);
            expectEnd();
            result.holder = holder.finishArray();
        } catch (const JsonParseError &e) {
            result.offset = e.at - m_begin;
            result.error = messageOf(e);
        } catch (const ChunkFailed &) {
            result.offset = m_chunkErrorOffset; // the helper's: the first error in the text
            result.error = m_chunkError;
        }
        return result;
    }

private:
    struct ChunkFailed
    { };

    QString messageOf(const JsonParseError &e) const
    {
        // Outside strings any byte >= 0x80 is a syntax error; when it is bad UTF-8 too, say
        // that: the message utf8Error() gives for the same bytes (the QJsonDocument paths).
        const auto *at = reinterpret_cast<const unsigned char *>(e.at);
        const bool badUtf8 = e.at < m_end && *at >= 0x80
            && utf8SequenceLength(at, reinterpret_cast<const unsigned char *>(m_end)) == 0;
        const qsizetype offset = e.at - m_begin;
        return badUtf8 ? utf8ErrorAt(offset)
                       : u"%1 at byte offset %2"_s.arg(QString::fromLatin1(e.what)).arg(offset);
    }

    // A long top-level list of objects ("[{"id":1,...},{"id":2,...}]") is cut into chunks
    // that a helper thread reads from the back (parsesplit_p.h): at the first "},{"id":" (the
    // first item's opening, repeated) after each eighth of the text.
    void startSplit()
    {
        if (m_end - m_p < splitParseFrom() || *m_p != '[' || QThread::idealThreadCount() < 2)
            return;
        const std::vector<const char *> starts
            = ParseSplit::guessItemStarts(m_p, m_end, SplitParts);
        if (starts.empty())
            return;
        m_split = std::make_shared<ParseSplit>(starts);
        ParseSplit::start(m_split, [begin = m_begin, end = m_end](ParseSplit &split, int index) {
            Parser helper(begin, end);
            helper.readChunk(split, index);
        });
    }

    // The helper's side: chunk \a index, from its start to the first item at or past the next
    // chunk's start, or to the end of the list and of the text.
    void readChunk(ParseSplit &split, int index)
    {
        ParseSplit::Chunk &chunk = split.chunk(index);
        try {
            m_p = chunk.start; // (chunk.items makes no node: the parser's list takes them)
            const char *next = index + 1 < split.count() ? split.chunk(index + 1).start : nullptr;
            if (readItems(chunk.items, 1, next)) {
                chunk.stop = m_p;
            } else {
                expectEnd();
                chunk.toEnd = true;
            }
        } catch (const JsonParseError &e) {
            chunk.items.clear();
            chunk.errorOffset = e.at - m_begin;
            chunk.error = messageOf(e);
        } catch (...) { // std::bad_alloc: thrown on the parser's thread, as without a helper
            chunk.items.clear();
            chunk.failure = std::current_exception();
        }
    }

    // The parser's side, at an item of the top-level array at or past the next chunk's start:
    // true when the helper's chunks (now appended to \a items) end the list and the text.
    bool joinSplit(NodeBuilder &items)
    {
        ParseSplit &split = *m_split;
        if (m_p != split.chunk(m_nextChunk).start)
            return endSplit(); // the guess was inside an item: read the rest alone
        if (!waitForParseHelper() && split.claim(m_nextChunk)) {
            if (++m_nextChunk == split.count())
                endSplit(); // every chunk is ours
            return false;
        }
        // The helper has this chunk and every one after it. The loop ends at the latest with
        // the last chunk, which the helper reads to the end of the text (or fails).
        for (int i = m_nextChunk;; ++i) {
            split.waitFor(i);
            ParseSplit::Chunk &chunk = split.chunk(i);
            noteJoinedParseChunk();
            if (chunk.failure)
                std::rethrow_exception(chunk.failure);
            if (!chunk.error.isNull()) {
                m_chunkError = chunk.error;
                m_chunkErrorOffset = chunk.errorOffset;
                throw ChunkFailed {};
            }
            if (i == m_nextChunk) {
                // Room for the whole list at once, from this chunk's count (the chunks are cut
                // alike): doubling through it made each larger copy a fresh mmap() of its own,
                // page-faulted in again on every parse (measured: docs/performance.md).
                const qsizetype perChunk = std::max(chunk.items.size(), items.size() / (i + 1));
                items.reserve(items.size() + perChunk * (split.count() - i) * 9 / 8, 0);
            }
            items.appendAll(chunk.items);
            if (chunk.toEnd) {
                m_p = m_end;
                endSplit();
                return true;
            }
            if (i + 1 == split.count() || chunk.stop != split.chunk(i + 1).start) {
                m_p = chunk.stop; // past the next guess: read on alone from where it stopped
                return endSplit();
            }
        }
    }

    bool endSplit()
    {
        m_split->settle();
        m_split.reset();
        return false;
    }

    // Inline in each loop that reads values (an object's, an array's): a call per value saved
    // and restored the registers of every scalar's path (callgrind: 6 % of a parse).
    [[gnu::always_inline]] void parseValue(NodeBuilder &out, int depth)
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
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            return parseValueAfterSpace(out, depth);
        default:
            return parseNumber(out);
        }
    }

    // Space before a value, which compact JSON never has: callers do not skip it first.
    void parseValueAfterSpace(NodeBuilder &out, int depth)
    {
        skipSpace();
        parseValue(out, depth);
    }

    void literal(const char *word, Value value, NodeBuilder &out)
    {
        expectWord(word);
        out.appendValue(value);
    }

    // Inline in parseValue(), like parseString()'s common case: calls for 30k numbers and 60k
    // strings of todos-10k saved and restored registers (callgrind).
    [[gnu::always_inline]] void parseNumber(NodeBuilder &out)
    {
        const char *start = nullptr;
        const Value number = scanNumber(&start);
        if (number.type == ValueType::BigInteger)
            out.appendBigInteger(QLatin1StringView(start, m_p - start));
        else
            out.appendValue(number);
    }

    [[gnu::always_inline]] void parseString(NodeBuilder &out)
    {
        ++m_p; // opening quote
        const char *start = m_p;
        const char *textEnd = nullptr;
        if (scanString(&textEnd))
            out.appendLatin1(QLatin1StringView(start, textEnd - start));
        else
            appendDecoded(start, textEnd, out);
    }

    // A string with an escape or a non-ASCII character, from \a start to \a textEnd.
    void appendDecoded(const char *start, const char *textEnd, NodeBuilder &out)
    {
        if (decodeLatin1(start, textEnd)) {
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
        readItems(items, depth);
        out.appendNode(items.finishArray());
    }

    // The items of an array from the first to the closing bracket (the cursor past it):
    // returns false there. True when it stopped before an item of the top-level list at or past
    // \a stopAt (a helper's chunk read), or where the helper's chunks were joined (the text is
    // then read to its end).
    bool readItems(NodeBuilder &items, int depth, const char *stopAt = nullptr)
    {
        while (true) {
            skipSpace();
            if (depth == 1) {
                if (stopAt && m_p >= stopAt)
                    return true;
                if (m_split && m_p >= m_split->chunk(m_nextChunk).start && joinSplit(items))
                    return true;
            }
            parseValue(items, depth);
            if (nextIs(',')) {
                ++m_p;
                continue;
            }
            if (m_p >= m_end)
                fail("unterminated array");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == ']') {
                ++m_p;
                return false;
            }
            fail("expected ',' or ']' in array");
        }
    }

    void expectEnd()
    {
        skipSpace();
        if (m_p != m_end)
            fail("unexpected text after the JSON value");
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
        // a key costs one short compare, not a scan, a list entry and a compare in shapeFor().
        ExpectedKeys expected(expectedKeysAt(depth));
        skipSpace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            out.appendNode(fields.finishObjectGivenRef(nodeShape(shapeFor(keys, depth))));
            return;
        }
        while (true) {
            if (!nextIs('"'))
                fail("expected a string key in object");
            if (expected.matched() + keys.size() == MaxObjectKeys) {
                static_assert(MaxObjectKeys == 65536, "keep the message in step");
                fail("an object with more than 65536 keys"); // at the first key too many
            }
            ++m_p;
            const char *start = m_p;
            if (expected.reading() && !expected.take(m_p, m_end))
                expected.stop(keys);
            if (!expected.reading()) {
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
            parseValue(fields, depth); // skips space before the value
            if (nextIs(',')) {
                ++m_p;
                continue;
            }
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
        if (expected.reading() && !expected.complete())
            expected.stop(keys); // fewer keys than the last object's
        const qsizetype shape = expected.reading() ? expected.shape() : shapeFor(keys, depth);
        if (shape < 0)
            fail("duplicate key in object");
        out.appendNode(fields.finishObjectGivenRef(nodeShape(shape)));
        if (decodedKeys.size() != decodedBase)
            decodedKeys.resize(decodedBase);
    }

    // Destroyed before the builders (bases): fine, it only gives back the parse's credits; the
    // blocks go with the last node.
    std::optional<NodeArena> m_arena;
    std::shared_ptr<ParseSplit> m_split; // a long list read with a helper thread
    int m_nextChunk = 0; // the split's chunk the parser arrives at next
    QString m_chunkError;
    qsizetype m_chunkErrorOffset = 0;
};

} // namespace

ParseResult parseJson(QByteArrayView utf8)
{
    clearUpperVectorState(); // the caller's thread may have hashed a QString (vectorstate_p.h)
    Parser parser(utf8.data(), utf8.data() + utf8.size());
    return parser.run();
}

} // namespace DataClient::detail
