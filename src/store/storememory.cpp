// Store::memoryUsage(): the heap the store's own data takes, each allocation counted the way the
// allocator counts it. With glibc that is the chunk size (malloc_usable_size() + the chunk
// header), the unit mallinfo2() adds up, so the figure is comparable with the benchmarks'
// memory rows (bench/benchmark.cpp, Runner::heapInUse()); docs/memory.md compares the two.
// Containers whose blocks cannot be reached from outside (QHash) are estimated from their
// capacity.
#include "storeprivate_p.h"

#include <QtCore/QSet>

#if defined(__GLIBC__)
#    include <malloc.h>
#endif

#include <unordered_set>
#include <vector>

namespace DataClient {

using namespace detail;

namespace {

constexpr qint64 ChunkHeader = sizeof(size_t);

//! What the allocator holds for the block \a p of \a requested bytes.
qint64 chunk(const void *p, size_t requested)
{
    if (!p)
        return 0;
#if defined(__GLIBC__)
    Q_UNUSED(requested);
    return qint64(malloc_usable_size(const_cast<void *>(p))) + ChunkHeader;
#else
    return qint64((requested + ChunkHeader + 15) & ~size_t(15));
#endif
}

template<typename T> qint64 vectorBytes(const std::vector<T> &v)
{
    return v.capacity() ? chunk(v.data(), v.capacity() * sizeof(T)) : 0;
}

//! A QList's block (header and elements), estimated: QList hides its block's start.
template<typename T> qint64 listBytes(const QList<T> &list)
{
    if (list.capacity() == 0)
        return 0;
    return qint64((16 + size_t(list.capacity()) * sizeof(T) + ChunkHeader + 15) & ~size_t(15));
}

qint64 stringBytes(const QString &s)
{
    const auto *block = const_cast<QString &>(s).data_ptr().d_ptr(); // no detach: a read
    return block ? chunk(block, sizeof(*block) + size_t(s.capacity() + 1) * sizeof(QChar)) : 0;
}

//! QHash keeps its entries in spans of 128 (offsets, then an entries block): an estimate.
template<typename K, typename V> qint64 hashBytes(const QHash<K, V> &hash)
{
    const qint64 buckets = hash.capacity();
    if (buckets == 0)
        return 0;
    const qint64 spans = (buckets + 127) / 128;
    return spans * (128 + 16) + qint64(hash.size()) * qint64(sizeof(K) + sizeof(V)) * 9 / 8
        + 2 * ChunkHeader * spans;
}

qint64 keyBytes(const CompactKey &pk)
{
    char16_t buffer[16];
    const QStringView view = pk.view(buffer);
    if (static_cast<const void *>(view.data()) == static_cast<const void *>(buffer))
        return 0; // inline
    return qint64((sizeof(QString) + ChunkHeader + 15) & ~size_t(15))
        + qint64((size_t(view.size() + 1) * 2 + 16 + ChunkHeader + 15) & ~size_t(15));
}

//! Counts nodes (and their child nodes) and meta blocks once each.
class Counter
{
public:
    qint64 bytes = 0;

    void node(const Node *root)
    {
        if (root)
            m_pending.push_back(root);
        while (!m_pending.empty()) {
            const Node *node = m_pending.back();
            m_pending.pop_back();
            // A node only the store holds is reached once; a shared one is counted once.
            if (node->ref.loadRelaxed() > 1 && !m_seen.insert(node).second)
                continue;
            bytes += chunk(node, sizeof(Node) + node->count * sizeof(Value) + node->blobSize);
            for (quint32 i = 0; i < node->count; ++i) {
                const Value &value = node->at(i);
                if (value.type == ValueType::Object || value.type == ValueType::Array)
                    m_pending.push_back(value.node);
            }
        }
    }
    void meta(const MetaRef &meta)
    {
        if (meta && m_seen.insert(meta.data()).second)
            bytes += chunk(meta.data(), sizeof(MetaBlock));
    }

private:
    std::vector<const Node *> m_pending;
    std::unordered_set<const void *> m_seen;
};

} // namespace

qint64 Store::memoryUsage() const
{
    Counter count;
    count.bytes += qint64(sizeof(StorePrivate));
    for (const auto &table : d->entityTables) {
        count.bytes += chunk(table.get(), sizeof(EntityTable)) + stringBytes(table->key);
        count.bytes += vectorBytes(table->slots) + vectorBytes(table->index())
            + vectorBytes(table->released());
        for (const EntitySlot &slot : table->slots) {
            count.bytes += keyBytes(slot.pk);
            count.node(slot.node.get());
            count.meta(slot.meta);
        }
        count.bytes += hashBytes(table->overrides);
        for (const EntityOverride &shown : std::as_const(table->overrides))
            count.node(shown.node.get());
    }
    count.bytes += vectorBytes(d->entityTables) + hashBytes(d->entityTableIds);
    for (const auto &table : d->collectionTables) {
        count.bytes += chunk(table.get(), sizeof(CollectionTable)) + stringBytes(table->key);
        count.bytes += vectorBytes(table->slots) + hashBytes(table->index);
        for (const CollectionSlot &slot : table->slots) {
            // argsKey is shared with the index's key; the arguments are a few small variants.
            count.bytes += stringBytes(slot.argsKey) + listBytes(slot.items);
            count.bytes += slot.args.isEmpty() ? 0 : 64 + qint64(slot.args.size()) * 96;
            count.meta(slot.meta);
        }
        count.bytes += hashBytes(table->overrides);
        for (const CollectionOverride &shown : std::as_const(table->overrides))
            count.bytes += listBytes(shown.items);
    }
    count.bytes += vectorBytes(d->collectionTables) + hashBytes(d->collectionTableIds);
    count.bytes += hashBytes(d->results) + hashBytes(d->resultOverrides);
    for (auto it = d->results.cbegin(); it != d->results.cend(); ++it) {
        count.bytes += stringBytes(it.key());
        count.node(it->holder.get());
    }
    for (auto it = d->resultOverrides.cbegin(); it != d->resultOverrides.cend(); ++it)
        count.node(it->get());
    return count.bytes;
}

} // namespace DataClient
