// JsonTreeBuilder: the tree-building half of the JSON parser (jsonparser.cpp; split out when
// simdjson was tried as a second front end, issue 19, docs/performance.md): NodeBuilders reused
// per depth, and objects' key lists interned as Shapes through a cache, so that 10k todos with
// one key list build their QStrings once.
#pragma once

#include <DataClient/private/node_p.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QVarLengthArray>

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
