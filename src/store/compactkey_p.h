// CompactKey: a primary key in 16 bytes (Latin-1 up to 15 characters inline, else on the heap),
// so 10k entity slots do not carry 10k QString allocations.
#pragma once

#include <QtCore/QString>

#include <cstring>

namespace DataClient::detail {

class CompactKey
{
public:
    CompactKey() { std::memset(m_chars, 0, sizeof m_chars); }
    explicit CompactKey(QStringView key) : CompactKey()
    {
        // Checked and copied in one pass (every new entity of a write makes one).
        char16_t wide = 0;
        if (key.size() <= InlineCapacity) {
            for (qsizetype i = 0; i < key.size(); ++i) {
                wide |= key[i].unicode() & 0xff00;
                m_chars[i] = char(key[i].unicode());
            }
        }
        if (key.size() <= InlineCapacity && !wide) {
            m_chars[InlineCapacity] = char(key.size());
        } else {
            std::memset(m_chars, 0, sizeof m_chars); // the characters copied above
            QString *heap = new QString(key.toString());
            std::memcpy(m_chars, &heap, sizeof heap);
            m_chars[InlineCapacity] = char(HeapTag);
        }
    }
    CompactKey(const CompactKey &other) : CompactKey()
    {
        if (other.isHeap())
            *this = CompactKey(QStringView(*other.heap()));
        else
            std::memcpy(m_chars, other.m_chars, sizeof m_chars);
    }
    CompactKey(CompactKey &&other) noexcept
    {
        std::memcpy(m_chars, other.m_chars, sizeof m_chars);
        std::memset(other.m_chars, 0, sizeof m_chars);
    }
    CompactKey &operator=(CompactKey other) noexcept
    {
        char tmp[sizeof m_chars];
        std::memcpy(tmp, m_chars, sizeof m_chars);
        std::memcpy(m_chars, other.m_chars, sizeof m_chars);
        std::memcpy(other.m_chars, tmp, sizeof m_chars);
        return *this;
    }
    ~CompactKey()
    {
        if (isHeap())
            delete heap();
    }

    bool equals(QStringView key) const
    {
        if (isHeap())
            return *heap() == key;
        const qsizetype n = inlineSize();
        if (key.size() != n)
            return false;
        for (qsizetype i = 0; i < n; ++i) {
            if (key[i].unicode() != static_cast<unsigned char>(m_chars[i]))
                return false;
        }
        return true;
    }
    //! The key as UTF-16 without allocating (inline keys are widened into \a buffer).
    QStringView view(char16_t (&buffer)[16]) const
    {
        if (isHeap())
            return QStringView(*heap());
        const qsizetype n = inlineSize();
        for (qsizetype i = 0; i < n; ++i)
            buffer[i] = char16_t(static_cast<unsigned char>(m_chars[i]));
        return QStringView(buffer, n);
    }
    QString toString() const
    {
        return isHeap() ? *heap() : QString(QLatin1StringView(m_chars, inlineSize()));
    }
    //! The same hash for a key however it is stored.
    static size_t hash(QStringView key)
    {
        size_t h = 1469598103934665603ULL;
        for (QChar c : key)
            h = (h ^ c.unicode()) * 1099511628211ULL;
        return h ^ (h >> 29);
    }
    size_t hash() const
    {
        if (isHeap())
            return hash(QStringView(*heap()));
        size_t h = 1469598103934665603ULL;
        for (qsizetype i = 0; i < inlineSize(); ++i)
            h = (h ^ static_cast<unsigned char>(m_chars[i])) * 1099511628211ULL;
        return h ^ (h >> 29);
    }

private:
    static constexpr int InlineCapacity = 15;
    static constexpr unsigned char HeapTag = 0xff;
    bool isHeap() const { return static_cast<unsigned char>(m_chars[InlineCapacity]) == HeapTag; }
    qsizetype inlineSize() const { return static_cast<unsigned char>(m_chars[InlineCapacity]); }
    QString *heap() const
    {
        QString *p;
        std::memcpy(&p, m_chars, sizeof p);
        return p;
    }
    char m_chars[16];
};
static_assert(sizeof(CompactKey) == 16);

} // namespace DataClient::detail
