// NodeArena: the nodes of one parse come from a few big blocks (bump allocation) instead of one
// operator new and one delete each (a third of the parse of todos-10k, by perf;
// docs/performance.md "What makes it fast").
//
// The blocks of one parse share ONE atomic count: the number of its nodes still alive (plus the
// credits the parse holds, see allocate()). A node knows it is arena-owned by Node::inArena and
// finds its arena from its own address: every block is aligned to BlockAlign and starts with a
// pointer to the shared state, so the node header stays 24 bytes. Node::release() of an arena
// node releases its children as before and then drops the count (batched per release); the
// blocks are freed when the last node is gone, on whichever thread that is.
//
// The price: one live node keeps its whole answer's blocks. The store therefore copies what it
// keeps out of the arena (detached(), Node::detachChildren(); normalizeentity.cpp).
//
// Under AddressSanitizer there is no arena: allocate() returns nullptr and every node is its own
// heap allocation, so that ASan keeps catching a use after free of a single node.
#pragma once

#include <DataClient/private/node_p.h>
#include <DataClient/private/testexport_p.h>

#include <QtCore/QAtomicInteger>

#include <cstddef>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#    define DATACLIENT_NODE_ARENA 0
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer)
#        define DATACLIENT_NODE_ARENA 0
#    endif
#endif
#ifndef DATACLIENT_NODE_ARENA
#    define DATACLIENT_NODE_ARENA 1
#endif

namespace DataClient::detail {

class NodeArena
{
public:
    //! Every block is aligned to this (and no bigger): a node's block is its address masked.
    static constexpr size_t BlockAlign = 64 * 1024;
    //! Inputs smaller than this are parsed without an arena: a block would outweigh their tree.
    static constexpr qsizetype MinInput = 4 * 1024;
    static constexpr bool Enabled = DATACLIENT_NODE_ARENA;

    //! An arena for the parse of \a inputBytes (sizes the first block).
    explicit NodeArena(qsizetype inputBytes);
    NodeArena(const NodeArena &) = delete;
    NodeArena &operator=(const NodeArena &) = delete;
    //! Gives back the credits not used; frees the blocks when no node of them is alive.
    ~NodeArena();

    //! Room for one node of \a bytes (a multiple of 8), counted as alive; nullptr when the node
    //! does not fit in a block (the caller takes it from the heap) or without an arena (ASan).
    void *allocate(size_t bytes)
    {
        if (!Enabled || bytes > size_t(m_end - m_next)) [[unlikely]]
            return allocateSlow(bytes);
        void *at = m_next;
        m_next += bytes;
        if (m_credits == 0) [[unlikely]]
            takeCredits();
        --m_credits;
        return at;
    }

    struct Shared;
    //! Drops \a nodes nodes of the arena \a node came from (freeing its blocks after the last).
    static void release(Shared *shared, qint64 nodes);
    static Shared *sharedOf(const Node *node)
    {
        const auto block = reinterpret_cast<std::uintptr_t>(node) & ~std::uintptr_t(BlockAlign - 1);
        return *reinterpret_cast<Shared *const *>(block);
    }

private:
    void *allocateSlow(size_t bytes);
    void takeCredits();
    // Count references taken 1024 at a time by the parsing thread: one atomic operation per batch,
    // not per node (nodes released during the parse cannot bring the count to 0 meanwhile).
    static constexpr qint64 CreditBatch = 1024;

    Shared *m_shared = nullptr;
    char *m_next = nullptr;
    char *m_end = nullptr;
    qint64 m_credits = 0;
    size_t m_nextBlockSize = 0;
};

//! Blocks of node arenas alive in this process (tests: a kept node pins its answer's blocks).
DATACLIENT_TEST_EXPORT qint64 liveNodeArenaBlocks();
//! Blocks given back and kept for the next parse (at most 64: 4 MB); not counted as live.
DATACLIENT_TEST_EXPORT int cachedNodeArenaBlocks();

} // namespace DataClient::detail
