// Store::preview(): a record or a result as compact JSON, cut after a bounded number of
// characters. Written straight from the nodes, so that showing the first line of a record of
// 60k fields or of an answer of 50 MB reads only what is shown (toJsonValue() would build all of
// it first).
#include "storeprivate_p.h"

#include <DataClient/private/node_p.h>
#include <DataClient/private/shape_p.h>

namespace DataClient {

using detail::Node;
using detail::Value;
using detail::ValueType;

namespace {

class PreviewWriter
{
public:
    PreviewWriter(const StorePrivate &store, qsizetype maxChars) : m_store(store), m_max(maxChars)
    {
        m_out.reserve(qMin<qsizetype>(maxChars, 4096) + 8);
    }

    QString take()
    {
        if (full())
            m_out.append(QChar(0x2026)); // …
        return std::move(m_out);
    }

    void value(const Value &value, const Node *owner)
    {
        if (full())
            return;
        switch (value.type) {
        case ValueType::Undefined:
        case ValueType::Null:
            m_out.append(u"null");
            break;
        case ValueType::False:
            m_out.append(u"false");
            break;
        case ValueType::True:
            m_out.append(u"true");
            break;
        case ValueType::Integer:
            m_out.append(QString::number(value.integer));
            break;
        case ValueType::Number:
            m_out.append(QString::number(value.number, 'g', 17));
            break;
        case ValueType::BigInteger:
            m_out.append(owner->latin1(value));
            break;
        case ValueType::String: {
            // Only what can still be shown is read: a string of 50 MB costs maxChars.
            const qsizetype room = qMax<qsizetype>(0, m_max - m_out.size());
            if (value.utf16) {
                string(owner->utf16(value), room);
            } else {
                const QLatin1StringView text = owner->latin1(value);
                const QString shown = text.left(room).toString();
                quoted(shown, text.size());
            }
            break;
        }
        case ValueType::Object:
        case ValueType::Array:
            node(value.node);
            break;
        case ValueType::EntityRef:
            string(m_store.entityTables[value.ref.table]->slots[value.ref.slot].pk.toString());
            break;
        case ValueType::CollectionRef:
            string(m_store.collectionTables[value.ref.table]->slots[value.ref.slot].argsKey);
            break;
        }
    }

    void node(const Node *node)
    {
        if (!node) {
            m_out.append(u"null");
            return;
        }
        const bool array = node->isArray || !node->shape;
        m_out.append(array ? u'[' : u'{');
        for (quint32 i = 0; i < node->count && !full(); ++i) {
            if (i > 0)
                m_out.append(u',');
            if (!array) {
                string(node->shape->key(i));
                m_out.append(u':');
            }
            value(node->at(i), node);
        }
        if (!full())
            m_out.append(array ? u']' : u'}');
    }

private:
    bool full() const { return m_out.size() >= m_max; }
    void string(QStringView text) { string(text, qMax<qsizetype>(0, m_max - m_out.size())); }
    void string(QStringView text, qsizetype room) { quoted(text.left(room), text.size()); }
    //! \a shown: the start of a string of \a size characters.
    void quoted(QStringView shown, qsizetype size)
    {
        m_out.append(u'"');
        for (QChar c : shown) {
            if (c == u'"' || c == u'\\') {
                m_out.append(u'\\');
                m_out.append(c);
            } else if (c.unicode() < 0x20) {
                m_out.append(QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QChar(u'0')));
            } else {
                m_out.append(c);
            }
        }
        if (shown.size() == size)
            m_out.append(u'"');
    }

    const StorePrivate &m_store;
    qsizetype m_max;
    QString m_out;
};

} // namespace

QString Store::preview(const EntityRef &ref, qsizetype maxChars) const
{
    const StorePrivate::EntityTable *table = d->findEntityTable(ref.key);
    const qint64 slot = table ? table->find(ref.pk) : -1;
    const Node *node = slot >= 0 ? table->effective(quint32(slot)) : nullptr;
    if (!node)
        return {};
    PreviewWriter writer(*d, maxChars);
    writer.node(node);
    return writer.take();
}

QString Store::resultPreview(const QString &resultKey, qsizetype maxChars) const
{
    const Node *holder = d->effectiveResult(resultKey);
    if (!holder || holder->count == 0)
        return {};
    PreviewWriter writer(*d, maxChars);
    writer.value(holder->at(0), holder);
    return writer.take();
}

} // namespace DataClient
