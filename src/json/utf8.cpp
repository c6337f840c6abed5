#include <DataClient/private/utf8_p.h>

#include <cstring>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

qsizetype invalidUtf8Offset(QByteArrayView bytes)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(bytes.data());
    const auto *end = begin + bytes.size();
    const auto *p = begin;
    while (p < end) {
        // 8 ASCII bytes at a time (most of a JSON body)
        while (end - p >= 8) {
            quint64 word;
            std::memcpy(&word, p, 8);
            if (word & 0x8080808080808080ULL)
                break;
            p += 8;
        }
        if (p == end)
            break;
        if (*p < 0x80) {
            ++p;
            continue;
        }
        const int length = utf8SequenceLength(p, end);
        if (length == 0)
            return p - begin;
        p += length;
    }
    return -1;
}

QString utf8ErrorAt(qsizetype offset)
{
    return u"invalid UTF-8 at byte offset %1"_s.arg(offset);
}

QString utf8Error(QByteArrayView bytes)
{
    const qsizetype offset = invalidUtf8Offset(bytes);
    return offset < 0 ? QString() : utf8ErrorAt(offset);
}

} // namespace DataClient::detail
