// BlobBuffer: the bytes of a node's strings while a NodeBuilder collects them (node_p.h).
#pragma once

#include <DataClient/private/jsonglobal_p.h>

#include <cstddef>
#include <cstring>

namespace DataClient::detail {

//! The bytes of a node's strings while it is built (NodeBuilder). Not std::vector<char>: its
//! insert() calls memmove for every string, and a JSON answer's strings are mostly a few bytes
//! (130k of them in 10k todos); append() copies them inline (copy()).
class DATACLIENT_JSON_EXPORT BlobBuffer
{
public:
    BlobBuffer() = default;
    BlobBuffer(const BlobBuffer &) = delete;
    BlobBuffer &operator=(const BlobBuffer &) = delete;
    ~BlobBuffer();

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const char *data() const { return m_data; }
    char *data() { return m_data; }
    void clear() { m_size = 0; }
    void reserve(size_t bytes)
    {
        if (bytes > m_capacity)
            grow(bytes);
    }
    //! Makes the size \a bytes; new bytes are left unset.
    void resize(size_t bytes)
    {
        reserve(bytes);
        m_size = bytes;
    }
    void push_back(char c) { *(extend(1)) = c; }
    //! Appends \a n bytes from \a from; returns where they start.
    size_t append(const char *from, size_t n)
    {
        const size_t at = m_size;
        copy(extend(n), from, n);
        return at;
    }
    //! memcpy() for the few bytes of a JSON string or node (inline up to 256 bytes: a call
    //! costs more than the copy), without reading or writing past either end.
    static void copy(char *to, const char *from, size_t n)
    {
        if (n >= 16 && n <= 256) {
            for (size_t i = 0; i + 16 < n; i += 16)
                move<16>(to + i, from + i);
            move<16>(to + n - 16, from + n - 16); // overlaps the one before
        } else if (n >= 8 && n < 16) {
            move<8>(to, from);
            move<8>(to + n - 8, from + n - 8);
        } else if (n >= 4 && n < 8) {
            move<4>(to, from);
            move<4>(to + n - 4, from + n - 4);
        } else if (n > 256) {
            std::memcpy(to, from, n);
        } else {
            for (size_t i = 0; i < n; ++i)
                to[i] = from[i];
        }
    }

private:
    template<size_t N> static void move(char *to, const char *from)
    {
        char chunk[N];
        std::memcpy(chunk, from, N);
        std::memcpy(to, chunk, N);
    }
    char *extend(size_t n)
    {
        if (m_capacity - m_size < n) [[unlikely]]
            grow(m_size + n);
        char *at = m_data + m_size;
        m_size += n;
        return at;
    }
    void grow(size_t atLeast);

    char *m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};

} // namespace DataClient::detail
