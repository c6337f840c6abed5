// JsonTreeBuilder: the tree-building half of the JSON parser (jsonparser.cpp; split out when
// simdjson was tried as a second front end, docs/performance.md): NodeBuilders reused
// per depth, and objects' key lists interned as Shapes through a cache, so that 10k todos with
// one key list build their QStrings once.
#pragma once

#include <DataClient/private/node_p.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QVarLengthArray>

#include <cstring>
#include <memory>
#include <vector>

namespace DataClient::detail {

class JsonTreeBuilder
{
public:
    JsonTreeBuilder() = default;
    JsonTreeBuilder(const JsonTreeBuilder &) = delete;
    JsonTreeBuilder &operator=(const JsonTreeBuilder &) = delete;
    ~JsonTreeBuilder();

    //! One key of an object: bytes of the input that are the key's text as Latin-1 (\a decoded
    //! < 0), or an index into decodedKeys() (escapes or non-ASCII text decoded).
    struct RawKey
    {
        const char *data;
        qsizetype size;
        qsizetype decoded = -1;
    };
    using Keys = QVarLengthArray<RawKey, 16>;

    //! The builder for the values of a container at \a depth (cleared by the caller).
    NodeBuilder &builderAt(int depth)
    {
        if (int(m_builders.size()) <= depth) [[unlikely]]
            growBuilders(depth);
        return *m_builders[size_t(depth)];
    }
    //! The cache index of the interned shape of \a keys of an object at \a depth; -1 when a key
    //! is there twice. \a keys may point into expectedKeysAt(depth)'s bytes (the parser lists
    //! the keys it read as expected from there).
    qsizetype shapeFor(const Keys &keys, int depth);

    // The last key list seen at each depth, as bytes: objects at one depth of an answer mostly
    // share their keys (every todo, every author), and comparing bytes is cheaper than hashing.
    // The parser reads the next object's keys against it (no scan for the closing quote).
    struct LastKeys
    {
        qsizetype index = -1;
        QByteArray bytes; // each key followed by the '":' of compact JSON
        QVarLengthArray<qsizetype, 16> sizes;
    };
    //! The plain key list last seen at \a depth; nullptr when there is none. It stays where it
    //! is while deeper objects are read (until shapeFor() at this depth).
    const LastKeys *expectedKeysAt(int depth) const
    {
        if (int(m_last.size()) <= depth || m_last[size_t(depth)]->index < 0)
            return nullptr;
        return m_last[size_t(depth)].get();
    }
    //! An object's keys read against the last key list at its depth (expectedKeysAt()): while
    //! they match, a key costs one short compare and is counted, not listed in Keys.
    class ExpectedKeys
    {
    public:
        explicit ExpectedKeys(const LastKeys *last)
            : m_last(last), m_bytes(last ? last->bytes.constData() : nullptr), m_reading(last)
        { }
        //! No key has differed yet.
        bool reading() const { return m_reading; }
        //! Keys read as expected and not listed in Keys.
        qsizetype matched() const { return m_matched; }
        //! Steps \a p (past a key's opening quote) over the next expected key and the '":' after
        //! it when the text has those bytes there. Expected keys are plain (no escape, quote or
        //! non-ASCII byte): equal bytes are that key and its colon.
        bool take(const char *&p, const char *end)
        {
            if (m_matched == m_last->sizes.size())
                return false;
            const qsizetype n = m_last->sizes[m_matched] + 2;
            if (end - p < n || !sameBytes(p, m_bytes, n))
                return false;
            ++m_matched;
            m_bytes += n;
            p += n;
            return true;
        }
        //! Stops reading as expected: the keys matched so far go to \a keys, pointing into the
        //! remembered bytes (they stay until shapeFor() at this depth).
        void stop(Keys &keys)
        {
            const char *bytes = m_last->bytes.constData();
            for (qsizetype i = 0; i < m_matched; ++i) {
                keys.append({bytes, m_last->sizes[i]});
                bytes += m_last->sizes[i] + 2;
            }
            m_matched = 0;
            m_reading = false;
        }
        //! Every key of the last list was read, no fewer: the object has its shape().
        bool complete() const { return m_reading && m_matched == m_last->sizes.size(); }
        qsizetype shape() const { return m_last->index; }

    private:
        //! Whether the \a n bytes at \a a and \a b are equal: inline, for keys of a few bytes (a
        //! call to memcmp costs more than the compare).
        static bool sameBytes(const char *a, const char *b, qsizetype n)
        {
            const auto word = [](const char *p) {
                quint64 w;
                std::memcpy(&w, p, 8);
                return w;
            };
            const auto half = [](const char *p) {
                quint32 w;
                std::memcpy(&w, p, 4);
                return w;
            };
            if (n >= 8) {
                for (qsizetype i = 0; i + 8 <= n; i += 8) {
                    if (word(a + i) != word(b + i))
                        return false;
                }
                return word(a + n - 8) == word(b + n - 8); // the last word overlaps the one before
            }
            if (n >= 4)
                return half(a) == half(b) && half(a + n - 4) == half(b + n - 4);
            for (qsizetype i = 0; i < n; ++i) {
                if (a[i] != b[i])
                    return false;
            }
            return true;
        }

        const LastKeys *m_last;
        const char *m_bytes;
        qsizetype m_matched = 0;
        bool m_reading;
    };
    //! One reference to the cached shape \a index, for a node about to be made (references are
    //! taken 256 at a time: one atomic operation per batch, not per object).
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
    //! The nodes are made in \a arena (nullptr: on the heap); set before the first builderAt().
    void setArena(NodeArena *arena) { m_arena = arena; }
    //! Decoded keys of the objects being built (a stack: each object drops its own when done).
    QList<QString> &decodedKeys() { return m_decodedKeys; }

private:
    struct CachedShape
    {
        const Shape *shape;
        int spare = 0; // references held for nodes still to be made
    };
    static constexpr int RefBatch = 256;

    void growBuilders(int depth);
    qsizetype lookUp(const Keys &keys);

    std::vector<std::unique_ptr<LastKeys>> m_last; // pointers: a deeper level added keeps them

    QList<QString> m_decodedKeys;
    std::vector<std::unique_ptr<NodeBuilder>> m_builders;
    NodeArena *m_arena = nullptr;
    std::vector<CachedShape> m_cache;
    QMultiHash<size_t, qsizetype> m_shapes; // key lists' hash -> m_cache index
};

} // namespace DataClient::detail
