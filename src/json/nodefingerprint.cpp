// A node's fingerprint: 128 bits hashed from its bytes, for recognising a repeat of an object
// without reading the first one (see nodeFingerprint() in node_p.h).
#include <DataClient/private/node_p.h>

#include <cstring>

namespace DataClient::detail {

namespace {
// Two lanes of a multiply-fold hash (the 128-bit product of the state and a word, its halves
// xored: the mixing step of wyhash and mum-hash). Each lane takes two words per multiply and
// the lanes do not wait for each other, so an author of about twenty words is a dozen
// multiplies deep. (Multiplies keyed by position instead of by the state, the lanes only
// rotated and added: slower at 1M, perf.) The constants are odd 64-bit numbers with about
// half their bits set (from the digits of pi); the value of a fingerprint matters only within
// one process.
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

template<typename Word> Word load(const char *at)
{
    Word word;
    std::memcpy(&word, at, sizeof word); // a plain load (a fixed size)
    return word;
}

//! The last \a size (1 to 15) bytes of a blob as two words, every byte in them, read in place:
//! copied into zero-filled words with memcpy(), they were read back before the copy's stores
//! could be forwarded, a third of the time of a fingerprint (perf). The reads overlap (some
//! bytes are in both words); for one size, no two tails give the same two words.
std::pair<quint64, quint64> tailWords(const char *at, quint32 size)
{
    if (size >= 8)
        return {load<quint64>(at), load<quint64>(at + size - 8)};
    if (size >= 4)
        return {load<quint32>(at) | quint64(load<quint32>(at + size - 4)) << 32, size};
    const auto byte = [at](quint32 i) { return quint64(static_cast<unsigned char>(at[i])); };
    return {byte(0) | byte(size / 2) << 8 | byte(size - 1) << 16, size};
}

//! \a lanes with \a node's bytes added. By value: through a reference, the lanes were stored
//! back after every step (they might have been the node's bytes, for all the compiler knew).
Lanes addNode(Lanes lanes, const Node *node)
{
    // The header as nodesEqual() reads it: the same shape (interned: a pointer, 8-aligned, so
    // its low bit is free for the kind), count and blob size.
    lanes.add(quintptr(node->shape) | quintptr(node->isArray),
              quint64(node->count) << 32 | node->blobSize);
    // Values: 16 bytes each (no padding: sizeof(Value) is its fields'), a child node by its
    // own bytes in their place instead of its address (a stream that still reads one way only:
    // each header says how many values and bytes follow it). In the same lanes: a fingerprint of
    // its own and its last mix per child made the author's fingerprint a third longer
    // (callgrind).
    for (quint32 i = 0; i < node->count; ++i) {
        const Value &value = node->at(i);
        if (value.type == ValueType::Object || value.type == ValueType::Array) {
            lanes = addNode(lanes, value.node);
            continue;
        }
        const char *bytes = reinterpret_cast<const char *>(&value);
        lanes.add(load<quint64>(bytes), load<quint64>(bytes + 8));
    }
    // The blob (strings): 16 bytes a step, then the tail (its size is the blob's, hashed above).
    const char *blob = node->blob();
    quint32 at = 0;
    for (; at + 16 <= node->blobSize; at += 16) {
        lanes.add(load<quint64>(blob + at), load<quint64>(blob + at + 8));
    }
    if (at < node->blobSize) {
        const auto [first, second] = tailWords(blob + at, node->blobSize - at);
        lanes.add(first, second);
    }
    return lanes;
}
} // namespace

NodeFingerprint nodeFingerprint(const Node *node)
{
    Lanes lanes;
    if (node)
        lanes = addNode(lanes, node);
    // A last mix of each lane with the other, so that no lane ends on a word of input; odd, so
    // that no node has the zero fingerprint ("none" where fingerprints are kept).
    return NodeFingerprint {fold(lanes.a ^ MixB, lanes.b ^ LaneA) | 1,
                            fold(lanes.b ^ MixA, lanes.a ^ LaneB)};
}

} // namespace DataClient::detail
