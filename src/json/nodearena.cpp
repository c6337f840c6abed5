// The blocks of a parse's node arena (nodearena_p.h).
#include <DataClient/private/nodearena_p.h>

#include <algorithm>
#include <mutex>
#include <new>

namespace DataClient::detail {

namespace {
QAtomicInteger<qint64> g_liveBlocks;

// The start of every block: where its nodes find the arena's count.
struct BlockHeader
{
    NodeArena::Shared *shared;
    BlockHeader *next; // the block made before this one
    // BlockAlign bytes (the first block of a small input is smaller): kept for the next parse
    // when given back
    bool full;
};
constexpr size_t HeaderBytes = (sizeof(BlockHeader) + 7) & ~size_t(7);

// Full blocks given back, kept for the next parse (up to 4 MB, a 10k-todo answer's worth): a
// 64 KB block aligned to 64 KB is its own mmap() in glibc, so without this every parse of a
// large answer page-faulted all its memory in again (14 % of parsing todos-10k.json, measured;
// docs/performance.md "What makes it fast"). Any thread gives blocks back: a mutex.
class BlockCache
{
public:
    static constexpr int MaxBlocks = 64;
    void *take()
    {
        const std::lock_guard lock(m_mutex);
        return m_count ? m_blocks[--m_count] : nullptr;
    }
    bool give(void *block)
    {
        const std::lock_guard lock(m_mutex);
        if (m_count == MaxBlocks)
            return false;
        m_blocks[m_count++] = block;
        return true;
    }
    int count()
    {
        const std::lock_guard lock(m_mutex);
        return m_count;
    }

private:
    std::mutex m_mutex;
    void *m_blocks[MaxBlocks] = {};
    int m_count = 0;
};
BlockCache &blockCache()
{
    static BlockCache *cache = new BlockCache; // never destroyed: nodes may outlive statics
    return *cache;
}
} // namespace

struct NodeArena::Shared
{
    // Nodes alive + credits held by the parse + 1 while the parse goes on (so that nodes released
    // during the parse, on an error, never free the blocks under it).
    QAtomicInteger<qint64> live = 1;
    BlockHeader *last = nullptr; // the newest block; each points to the one before
};

NodeArena::NodeArena(qsizetype inputBytes)
{
    // The first block sized to the input (a tree takes about as many bytes as its text), the
    // next ones full: a 5 KB answer does not hold 64 KB.
    size_t size = 4096;
    while (size < size_t(inputBytes) && size < BlockAlign)
        size *= 2;
    m_nextBlockSize = size;
}

NodeArena::~NodeArena()
{
    if (m_shared)
        release(m_shared, m_credits + 1); // and the parse's own hold
}

void NodeArena::takeCredits()
{
    m_shared->live.fetchAndAddRelaxed(CreditBatch);
    m_credits += CreditBatch;
}

void *NodeArena::allocateSlow(size_t bytes)
{
    if (!Enabled || bytes > BlockAlign - HeaderBytes)
        return nullptr;
    const size_t size = std::max(m_nextBlockSize, bytes + HeaderBytes);
    m_nextBlockSize = BlockAlign;
    void *memory = size == BlockAlign ? blockCache().take() : nullptr;
    if (!memory)
        memory = ::operator new(size, std::align_val_t(BlockAlign));
    g_liveBlocks.fetchAndAddRelaxed(1);
    if (!m_shared) {
        m_shared = new Shared;
        takeCredits();
    }
    auto *block = new (memory) BlockHeader {m_shared, m_shared->last, size == BlockAlign};
    m_shared->last = block; // only the parsing thread adds blocks; the count orders the rest
    m_next = static_cast<char *>(memory) + HeaderBytes;
    m_end = static_cast<char *>(memory) + size;
    return allocate(bytes);
}

void NodeArena::release(Shared *shared, qint64 nodes)
{
    if (shared->live.fetchAndSubOrdered(nodes) != nodes)
        return;
    for (BlockHeader *block = shared->last; block;) {
        BlockHeader *before = block->next;
        const bool full = block->full;
        block->~BlockHeader();
        if (!full || !blockCache().give(block)) {
            // unsized: clang 14 has no sized aligned delete without -fsized-deallocation
            ::operator delete(static_cast<void *>(block), std::align_val_t(BlockAlign));
        }
        g_liveBlocks.fetchAndSubRelaxed(1);
        block = before;
    }
    delete shared;
}

qint64 liveNodeArenaBlocks()
{
    return g_liveBlocks.loadRelaxed();
}

int cachedNodeArenaBlocks()
{
    return blockCache().count();
}

} // namespace DataClient::detail
