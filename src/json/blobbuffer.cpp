#include <DataClient/private/blobbuffer_p.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace DataClient::detail {

BlobBuffer::~BlobBuffer()
{
    std::free(m_data);
}

void BlobBuffer::grow(size_t atLeast)
{
    const size_t capacity = std::max({atLeast, m_capacity * 2, size_t(256)});
    char *data = static_cast<char *>(std::realloc(m_data, capacity));
    if (!data)
        throw std::bad_alloc();
    m_data = data;
    m_capacity = capacity;
}

} // namespace DataClient::detail
