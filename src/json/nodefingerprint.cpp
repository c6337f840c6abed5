// A node's fingerprint: 128 bits hashed from its bytes, for recognising a repeat of an object
// without reading the first one (see nodeFingerprint() in node_p.h).
#include <DataClient/private/node_p.h>

#include <cstring>

namespace DataClient::detail {

namespace {
// Two lanes of a multiply-fold hash (the 128-bit product of the state and a word, its halves
// xored: the mixing step of wyhash and mum-hash). Each lane takes two words per multiply and
// the lanes do not wait for each other, so an author of about twenty words is a dozen
// multiplies deep. The constants are odd 64-bit numbers with about half their bits set (from
// the digits of pi); the value of the result matters only within one process.
constexpr quint64 LaneA = 0x243f6a8885a308d3ULL;
constexpr quint64 LaneB = 0x13198a2e03707345ULL;
constexpr quint64 MixA = 0xa4093822299f31d1ULL;
constexpr quint64 MixB = 0x082efa98ec4e6c89ULL;

inline quint64 fold(quint64 x, quint64 y)
{
    const unsigned __int128 product = static_cast<unsigned __int128>(x) * y;
    return quint64(product) ^ quint64(product >> 64);
}

struct Lanes
{
    quint64 a = LaneA;
    quint64 b = LaneB;
    void add(quint64 first, quint64 second)
    {
        a = fold(first ^ MixA, second ^ a);
        b = fold(second ^ MixB, first ^ b);
    }
};

void addNode(Lanes &lanes, const Node *node)
{
    // The header as nodesEqual() reads it: the same shape (interned: a pointer, 8-aligned, so
    // its low bit is free for the kind), count and blob size.
    lanes.add(quintptr(node->shape) | quintptr(node->isArray),
              quint64(node->count) << 32 | node->blobSize);
    // Values: 16 bytes each (no padding: sizeof(Value) is its fields'), a child node by its
    // own fingerprint instead of its address.
    for (quint32 i = 0; i < node->count; ++i) {
        const Value &value = node->at(i);
        if (value.type == ValueType::Object || value.type == ValueType::Array) {
            const NodeFingerprint child = nodeFingerprint(value.node);
            lanes.add(child.a, child.b ^ quint64(value.type));
            continue;
        }
        quint64 words[2];
        std::memcpy(words, &value, sizeof words);
        lanes.add(words[0], words[1]);
    }
    // The blob (strings): 16 bytes a step, the tail zero-filled (the blob size is counted
    // above, so "a" and "a\0" differ).
    const char *blob = node->blob();
    quint32 at = 0;
    for (; at + 16 <= node->blobSize; at += 16) {
        quint64 words[2];
        std::memcpy(words, blob + at, sizeof words);
        lanes.add(words[0], words[1]);
    }
    if (at < node->blobSize) {
        quint64 words[2] = {0, 0};
        std::memcpy(words, blob + at, node->blobSize - at);
        lanes.add(words[0], words[1]);
    }
}
} // namespace

NodeFingerprint nodeFingerprint(const Node *node)
{
    Lanes lanes;
    if (node)
        addNode(lanes, node);
    // A last mix of each lane with the other, so that no lane ends on a word of input; odd, so
    // that no node has the zero fingerprint ("none" where fingerprints are kept).
    return NodeFingerprint {fold(lanes.a ^ MixB, lanes.b ^ LaneA) | 1,
                            fold(lanes.b ^ MixA, lanes.a ^ LaneB)};
}

} // namespace DataClient::detail
