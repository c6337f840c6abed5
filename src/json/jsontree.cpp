#include "jsontree_p.h"

#include <algorithm>
#include <cstring>

namespace DataClient::detail {

JsonTreeBuilder::~JsonTreeBuilder()
{
    for (const CachedShape &cached : m_cache)
        cached.shape->deref(cached.spare + 1); // the spare references and the cache's own
}

void JsonTreeBuilder::growBuilders(int depth)
{
    while (int(m_builders.size()) <= depth) {
        m_builders.push_back(std::make_unique<NodeBuilder>());
        m_builders.back()->setArena(m_arena);
    }
}

qsizetype JsonTreeBuilder::shapeFor(const Keys &keys, int depth)
{
    while (int(m_last.size()) <= depth)
        m_last.push_back(std::make_unique<LastKeys>());
    LastKeys &last = *m_last[size_t(depth)];
    if (last.index >= 0 && last.sizes.size() == keys.size()) {
        const char *bytes = last.bytes.constData();
        bool same = true;
        for (qsizetype i = 0; i < keys.size() && same; ++i) {
            const RawKey &key = keys[i];
            same = key.decoded < 0 && key.size == last.sizes[i]
                && std::memcmp(key.data, bytes, size_t(key.size)) == 0;
            bytes += key.size + 2; // the key's '":'
        }
        if (same)
            return last.index;
    }
    const qsizetype index = lookUp(keys);
    if (index < 0)
        return index;
    // Made aside and then swapped in: keys may point into the bytes being replaced.
    QByteArray bytes;
    last.index = index;
    last.sizes.clear();
    for (const RawKey &key : keys) {
        if (key.decoded >= 0) { // not remembered: compared as decoded text by lookUp()
            last.index = -1;
            break;
        }
        bytes.append(key.data, key.size);
        bytes.append("\":", 2);
        last.sizes.append(key.size);
    }
    last.bytes = std::move(bytes);
    return index;
}

qsizetype JsonTreeBuilder::lookUp(const Keys &keys)
{
    size_t h = size_t(keys.size());
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
        return -1;
    m_cache.push_back({Shape::intern(names).take()}); // the cache's reference
    m_shapes.insert(h, qsizetype(m_cache.size() - 1));
    return qsizetype(m_cache.size() - 1);
}

} // namespace DataClient::detail
