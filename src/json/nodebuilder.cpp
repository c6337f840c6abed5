// NodeBuilder: the values and strings of one node collected, then made into it (node_p.h).
#include <DataClient/private/node_p.h>

#include <DataClient/private/isodatetime_p.h>

#include "makenode_p.h"

namespace DataClient::detail {

void NodeBuilder::readInstant(Value &value, QLatin1StringView text)
{
    static_assert(InstantTextLength == IsoCommonFormLength);
    qint64 msecs = 0;
    if (text.size() == IsoCommonFormLength && text[10] == 'T' && readIsoDateTime(text, &msecs))
        value.setInstant(msecs);
}

void NodeBuilder::appendBigInteger(QLatin1StringView digits)
{
    const quint32 offset = appendBlob(digits.data(), digits.size());
    Value &v = m_values.emplace_back(); // in place, as appendLatin1() (node_p.h)
    v.type = ValueType::BigInteger;
    v.string.offset = offset;
    v.string.length = quint32(digits.size());
}

void NodeBuilder::appendString(QStringView text)
{
    bool latin1 = true;
    for (QChar c : text) {
        if (c.unicode() > 0xff) {
            latin1 = false;
            break;
        }
    }
    if (latin1) {
        Value v;
        v.type = ValueType::String;
        v.string.offset = quint32(m_blob.size());
        v.string.length = quint32(text.size());
        const size_t start = m_blob.size();
        m_blob.resize(start + size_t(text.size()));
        char *out = m_blob.data() + start;
        for (qsizetype i = 0; i < text.size(); ++i)
            out[i] = char(text[i].unicode());
        readInstant(v, QLatin1StringView(out, text.size()));
        m_values.push_back(v);
        return;
    }
    if (m_blob.size() % 2)
        m_blob.push_back('\0'); // UTF-16 is read in place: keep it 2-byte aligned
    Value v;
    v.type = ValueType::String;
    v.utf16 = true;
    v.string.length = quint32(text.size());
    v.string.offset = appendBlob(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
    m_values.push_back(v);
}

void NodeBuilder::append(const Value &value, const Node *source)
{
    switch (value.type) {
    case ValueType::String:
        if (value.utf16)
            appendString(source->utf16(value));
        else
            appendLatin1(source->latin1(value));
        break;
    case ValueType::BigInteger:
        appendBigInteger(source->latin1(value));
        break;
    case ValueType::Object:
    case ValueType::Array:
        appendNode(NodeRef::share(value.node));
        break;
    default:
        m_values.push_back(value);
    }
}

NodeRef NodeBuilder::finish(const Shape *shape, bool isArray, bool shapeRefGiven)
{
    Node *node = makeNode(quint32(m_values.size()), quint32(m_blob.size()), shape, isArray,
                          shapeRefGiven, m_arena);
    BlobBuffer::copy(reinterpret_cast<char *>(node->values()),
                     reinterpret_cast<const char *>(m_values.data()),
                     m_values.size() * sizeof(Value));
    BlobBuffer::copy(node->blob(), m_blob.data(), m_blob.size());
    m_values.clear(); // the node owns the child references now
    m_blob.clear();
    return NodeRef::adopt(node);
}

void NodeBuilder::appendAll(NodeBuilder &other)
{
    if (!other.m_blob.empty() && m_blob.size() % 2)
        m_blob.push_back('\0'); // other's UTF-16 strings stay 2-byte aligned
    const quint32 shift = quint32(m_blob.size());
    m_blob.append(other.m_blob.data(), other.m_blob.size());
    const size_t first = m_values.size();
    m_values.insert(m_values.end(), other.m_values.begin(), other.m_values.end()); // grows 2x
    for (size_t i = first; i < m_values.size(); ++i) {
        if (m_values[i].inBlob())
            m_values[i].string.offset += shift;
    }
    other.m_values.clear(); // the references are ours now
    other.m_blob.clear();
}

Value NodeBuilder::takeSingle()
{
    Q_ASSERT(m_values.size() == 1);
    const Value value = m_values.front();
    m_values.clear(); // the reference moves to the caller
    m_blob.clear();
    return value;
}

void NodeBuilder::clearValues()
{
    for (const Value &v : m_values) {
        if (v.type == ValueType::Object || v.type == ValueType::Array)
            v.node->release();
    }
    m_values.clear();
    m_blob.clear();
}

NodeRef NodeBuilder::finishObject(const Shape *shape)
{
    Q_ASSERT(shape && shape->size() == qsizetype(m_values.size()));
    return finish(shape, false);
}

NodeRef NodeBuilder::finishObjectGivenRef(const Shape *shape)
{
    Q_ASSERT(shape && shape->size() == qsizetype(m_values.size()));
    return finish(shape, false, true);
}

NodeRef NodeBuilder::finishArray()
{
    return finish(nullptr, true);
}

} // namespace DataClient::detail
