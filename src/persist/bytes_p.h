// Little-endian bytes and LEB128 varints for the snapshot codec; the reader never reads past its
// end (every read reports failure instead), so a damaged file cannot overrun a buffer.
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QString>

#include <cstring>

namespace DataClient::detail {

//! Value tags of the encoded compact tree (ValueType, with the two string encodings apart).
enum class Tag : quint8 {
    Undefined,
    Null,
    False,
    True,
    Number,
    Integer,
    BigInteger,
    Latin1,
    Utf16,
    Object,
    Array,
    EntityRef,
    CollectionRef,
};

class ByteWriter
{
public:
    QByteArray bytes;

    void u8(quint8 v) { bytes.append(char(v)); }
    void fixed64(quint64 v)
    {
        char b[8];
        for (int i = 0; i < 8; ++i)
            b[i] = char(v >> (8 * i));
        bytes.append(b, 8);
    }
    void varint(quint64 v)
    {
        char b[10];
        int n = 0;
        while (v >= 0x80) {
            b[n++] = char(v | 0x80);
            v >>= 7;
        }
        b[n++] = char(v);
        bytes.append(b, n);
    }
    void svarint(qint64 v) { varint((quint64(v) << 1) ^ quint64(v >> 63)); }
    void raw(const char *data, qsizetype size)
    {
        varint(quint64(size));
        bytes.append(data, size);
    }
    void string(const QString &s) { raw(s.toUtf8()); }
    void raw(const QByteArray &b) { raw(b.constData(), b.size()); }
};

class ByteReader
{
public:
    explicit ByteReader(QByteArrayView bytes) : m_data(bytes.data()), m_left(bytes.size()) { }

    qsizetype left() const { return m_left; }
    bool u8(quint8 *v)
    {
        if (m_left < 1)
            return false;
        *v = quint8(*m_data++);
        --m_left;
        return true;
    }
    bool fixed64(quint64 *v)
    {
        if (m_left < 8)
            return false;
        quint64 r = 0;
        for (int i = 0; i < 8; ++i)
            r |= quint64(quint8(m_data[i])) << (8 * i);
        m_data += 8;
        m_left -= 8;
        *v = r;
        return true;
    }
    bool varint(quint64 *v)
    {
        quint64 r = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            quint8 b = 0;
            if (!u8(&b))
                return false;
            r |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80)) {
                *v = r;
                return true;
            }
        }
        return false;
    }
    //! A count of items each taking at least \a minBytes: larger than what is left is damage.
    bool count(quint64 *v, qsizetype minBytes = 1)
    {
        return varint(v) && *v <= quint64(m_left / minBytes);
    }
    bool svarint(qint64 *v)
    {
        quint64 u = 0;
        if (!varint(&u))
            return false;
        *v = qint64(u >> 1) ^ -qint64(u & 1);
        return true;
    }
    bool raw(QByteArrayView *v, qsizetype unit = 1)
    {
        quint64 n = 0;
        if (!varint(&n) || n > quint64(m_left / unit))
            return false;
        *v = QByteArrayView(m_data, qsizetype(n) * unit);
        m_data += n * unit;
        m_left -= qsizetype(n) * unit;
        return true;
    }
    bool string(QString *s)
    {
        QByteArrayView b;
        if (!raw(&b))
            return false;
        *s = QString::fromUtf8(b);
        return true;
    }

private:
    const char *m_data;
    qsizetype m_left;
};

} // namespace DataClient::detail
