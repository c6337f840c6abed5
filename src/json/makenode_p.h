// makeNode(): a node of the given size, from an arena or the heap. Inline and not exported, so
// that NodeBuilder::finish() (30k nodes for 10k todos) makes nodes without a call: calls to the
// exported Node::allocate() within this library went through the PLT.
#pragma once

#include <DataClient/private/node_p.h>
#include <DataClient/private/nodearena_p.h>

#include <new>

namespace DataClient::detail {

inline Node *makeNode(quint32 count, quint32 blobSize, const Shape *shape, bool isArray,
                      bool shapeRefGiven, NodeArena *arena)
{
    // Whole 8-byte units: the next node of an arena stays aligned (a heap block is anyway).
    const size_t bytes = (sizeof(Node) + count * sizeof(Value) + blobSize + 7) & ~size_t(7);
    void *memory = arena ? arena->allocate(bytes) : nullptr;
    const bool inArena = memory != nullptr;
    if (!memory)
        memory = ::operator new(bytes);
    Node *node = new (memory) Node;
    node->inArena = inArena;
    node->count = count;
    node->blobSize = blobSize;
    node->shape = shape;
    node->isArray = isArray;
    if (shape && !shapeRefGiven)
        shape->ref();
    return node;
}

} // namespace DataClient::detail
