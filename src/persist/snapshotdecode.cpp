// Decoding a snapshot file (snapshotcodec_p.h): total. Every read is bounded by what is left of
// the payload, every count by the bytes it would take, nesting by MaxDepth; what decodes is then
// checked as a whole (StoreSnapshot::check(): every reference names a slot), so a file that
// passes its checksum but was written wrong is refused as well.
#include "bytes_p.h"

#include <DataClient/private/jsonparser_p.h>
#include <DataClient/private/snapshotcodec_p.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSet>

#include <cmath>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

namespace {

constexpr int MaxDepth = MaxJsonDepth; // what the JSON parser lets into the store

class Decoder
{
public:
    explicit Decoder(QByteArrayView payload) : in(payload) { }

    ByteReader in;
    QString error;

    bool fail(const QString &why)
    {
        if (error.isEmpty())
            error = why;
        return false;
    }

    bool meta(Meta *m)
    {
        return (in.svarint(&m->date) && in.svarint(&m->fetchedAt) && in.svarint(&m->expiresAt))
            || fail(u"a meta cut short"_s);
    }

    //! One value appended to \a builder.
    bool value(NodeBuilder &builder, int depth)
    {
        quint8 tag = 0;
        if (!in.u8(&tag))
            return fail(u"a value cut short"_s);
        switch (Tag(tag)) {
        case Tag::Undefined:
        case Tag::Null:
        case Tag::False:
        case Tag::True: {
            Value v;
            v.type = Tag(tag) == Tag::Undefined ? ValueType::Undefined
                : Tag(tag) == Tag::Null         ? ValueType::Null
                : Tag(tag) == Tag::False        ? ValueType::False
                                                : ValueType::True;
            builder.appendValue(v);
            return true;
        }
        case Tag::Number: {
            quint64 bits = 0;
            if (!in.fixed64(&bits))
                return fail(u"a number cut short"_s);
            double d = 0;
            std::memcpy(&d, &bits, sizeof d);
            if (!std::isfinite(d))
                return fail(u"a number that is not finite"_s);
            builder.appendValue(Value::makeNumber(d));
            return true;
        }
        case Tag::Integer: {
            qint64 n = 0;
            if (!in.svarint(&n))
                return fail(u"an integer cut short"_s);
            builder.appendValue(Value::makeInteger(n));
            return true;
        }
        case Tag::BigInteger:
        case Tag::Latin1: {
            QByteArrayView text;
            if (!in.raw(&text))
                return fail(u"a string cut short"_s);
            if (Tag(tag) == Tag::BigInteger) {
                qsizetype i = text.startsWith('-') ? 1 : 0;
                if (i == text.size())
                    return fail(u"a big integer without digits"_s);
                for (; i < text.size(); ++i) {
                    if (text[i] < '0' || text[i] > '9')
                        return fail(u"a big integer with a character that is not a digit"_s);
                }
                builder.appendBigInteger(QLatin1StringView(text.data(), text.size()));
            } else {
                builder.appendLatin1(QLatin1StringView(text.data(), text.size()));
            }
            return true;
        }
        case Tag::Utf16: {
            QByteArrayView bytes;
            if (!in.raw(&bytes, 2))
                return fail(u"a string cut short"_s);
            // Copied: the file's bytes need not be aligned for char16_t.
            QString text(bytes.size() / 2, Qt::Uninitialized);
            std::memcpy(text.data(), bytes.data(), size_t(bytes.size()));
            builder.appendString(text);
            return true;
        }
        case Tag::Object:
        case Tag::Array: {
            NodeRef child = node(Tag(tag), depth + 1);
            if (!child)
                return false;
            builder.appendNode(std::move(child));
            return true;
        }
        case Tag::EntityRef:
        case Tag::CollectionRef: {
            quint64 table = 0, slot = 0;
            if (!in.varint(&table) || !in.varint(&slot) || table > 0xffffffffu
                || slot > 0xffffffffu)
                return fail(u"a reference cut short or out of range"_s);
            // Checked against the tables by StoreSnapshot::check().
            builder.appendValue(Value::makeRef(
                Tag(tag) == Tag::EntityRef ? ValueType::EntityRef : ValueType::CollectionRef,
                quint32(table), quint32(slot)));
            return true;
        }
        }
        return fail(u"an unknown value tag %1"_s.arg(tag));
    }

    //! An object or array whose tag was read.
    NodeRef node(Tag tag, int depth)
    {
        if (depth > MaxDepth) {
            fail(u"nesting deeper than %1"_s.arg(MaxDepth));
            return {};
        }
        const Shape *shape = nullptr;
        quint64 count = 0;
        if (tag == Tag::Array) {
            if (!in.count(&count)) {
                fail(u"an array whose size is past the end"_s);
                return {};
            }
        } else {
            quint64 id = 0;
            if (!in.varint(&id)) {
                fail(u"an object cut short"_s);
                return {};
            }
            if (id == 0 && !newShape())
                return {};
            if (id > quint64(m_shapes.size()) || (id == 0 && m_shapes.empty())) {
                fail(u"an object naming key list %1 of %2"_s.arg(id).arg(m_shapes.size()));
                return {};
            }
            shape = id == 0 ? m_shapes.back().get() : m_shapes[size_t(id - 1)].get();
            count = quint64(shape->size());
        }
        // One builder per depth, kept: its buffers are reused by every node at that depth (10k
        // records would otherwise allocate and grow 10k value lists and blobs).
        if (m_builders.size() <= size_t(depth))
            m_builders.resize(size_t(depth) + 1);
        if (!m_builders[size_t(depth)])
            m_builders[size_t(depth)] = std::make_unique<NodeBuilder>();
        NodeBuilder &builder = *m_builders[size_t(depth)];
        for (quint64 i = 0; i < count; ++i) {
            if (!value(builder, depth))
                return {};
        }
        return shape ? builder.finishObject(shape) : builder.finishArray();
    }

    bool newShape()
    {
        quint64 count = 0;
        if (!in.count(&count) || count > quint64(MaxObjectKeys))
            return fail(u"a key list cut short or too long"_s);
        QList<QString> keys;
        keys.reserve(qsizetype(count));
        QSet<QString> seen;
        for (quint64 i = 0; i < count; ++i) {
            QString key;
            if (!in.string(&key))
                return fail(u"a key list cut short"_s);
            if (seen.contains(key))
                return fail(u"a key list naming %1 twice"_s.arg(key));
            seen.insert(key);
            keys.append(key);
        }
        m_shapes.push_back(Shape::intern(keys));
        return true;
    }

    //! A record or holder (an object or array at the top).
    NodeRef topNode()
    {
        quint8 tag = 0;
        if (!in.u8(&tag) || (Tag(tag) != Tag::Object && Tag(tag) != Tag::Array)) {
            fail(u"a record that is not an object or array"_s);
            return {};
        }
        return node(Tag(tag), 0);
    }

    bool payload(StoreSnapshot *s, SchemaPrints *prints);

private:
    std::vector<ShapeRef> m_shapes;
    std::vector<std::unique_ptr<NodeBuilder>> m_builders; // by depth
};

bool Decoder::payload(StoreSnapshot *s, SchemaPrints *prints)
{
    quint64 n = 0;
    if (!in.count(&n, 9))
        return fail(u"the fingerprints cut short"_s);
    for (quint64 i = 0; i < n; ++i) {
        QString key;
        quint64 print = 0;
        if (!in.string(&key) || !in.fixed64(&print))
            return fail(u"the fingerprints cut short"_s);
        prints->insert(key, print);
    }
    if (!in.count(&n, 3))
        return fail(u"the entity tables cut short"_s);
    s->entityTables.resize(size_t(n));
    quint64 claimed = 0; // slots of every table: each takes 2 bytes or more of what follows
    for (SnapshotEntityTable &table : s->entityTables) {
        quint8 omitted = 0;
        quint64 slots = 0;
        if (!in.string(&table.key) || !in.u8(&omitted) || !in.count(&slots, 2)
            || (claimed += slots) > quint64(in.left() / 2))
            return fail(u"the entity tables cut short"_s);
        table.omitted = omitted != 0;
        table.slots.resize(size_t(slots));
    }
    for (SnapshotEntityTable &table : s->entityTables) {
        Meta previous;
        for (SnapshotEntity &entity : table.slots) {
            quint8 flags = 0;
            if (!in.string(&entity.pk) || !in.u8(&flags) || flags > 7)
                return fail(u"an entity of %1 cut short"_s.arg(table.key));
            if (flags & 4)
                entity.meta = previous;
            else if (!meta(&entity.meta))
                return false;
            previous = entity.meta;
            entity.deleted = flags & 2;
            if ((flags & 1) && !(entity.node = topNode()))
                return false;
        }
    }
    if (!in.count(&n, 4))
        return fail(u"the list tables cut short"_s);
    s->collectionTables.resize(size_t(n));
    for (SnapshotCollectionTable &table : s->collectionTables) {
        quint64 itemTable = 0, slots = 0;
        if (!in.string(&table.key) || !in.varint(&itemTable) || itemTable > 0xffffffffu
            || !in.count(&slots, 6))
            return fail(u"the list tables cut short"_s);
        table.itemTable = quint32(itemTable);
        table.slots.resize(size_t(slots));
        for (SnapshotCollection &collection : table.slots) {
            QByteArrayView args;
            quint8 exists = 0;
            quint64 items = 0;
            if (!in.string(&collection.argsKey) || !in.raw(&args) || !in.u8(&exists))
                return fail(u"a list of %1 cut short"_s.arg(table.key));
            QJsonParseError parseError;
            const QJsonDocument doc = QJsonDocument::fromJson(args.toByteArray(), &parseError);
            if (parseError.error != QJsonParseError::NoError || !doc.isObject())
                return fail(u"a list of %1 whose arguments are not a JSON object"_s.arg(table.key));
            collection.args = doc.object().toVariantMap();
            collection.exists = exists != 0;
            if (!meta(&collection.meta) || !in.count(&items))
                return fail(u"a list of %1 cut short"_s.arg(table.key));
            collection.items.resize(qsizetype(items));
            for (quint32 &item : collection.items) {
                quint64 slot = 0;
                if (!in.varint(&slot) || slot > 0xffffffffu)
                    return fail(u"a list of %1 cut short"_s.arg(table.key));
                item = quint32(slot);
            }
        }
    }
    if (!in.count(&n, 5))
        return fail(u"the results cut short"_s);
    s->results.resize(size_t(n));
    for (SnapshotResult &result : s->results) {
        if (!in.string(&result.key) || !meta(&result.meta))
            return fail(u"a result cut short"_s);
        if (!(result.holder = topNode()))
            return false;
    }
    if (in.left() != 0)
        return fail(u"%1 bytes after the end of the data"_s.arg(in.left()));
    return true;
}

} // namespace

SnapshotCodec::Decoded SnapshotCodec::decode(QByteArrayView bytes)
{
    Decoded decoded;
    if (bytes.isEmpty()) {
        decoded.reason = u"the file is empty"_s;
        return decoded;
    }
    if (bytes.size() < qsizetype(sizeof Magic) || std::memcmp(bytes.data(), Magic, sizeof Magic))
        decoded.reason = u"not a DataClient store file (no magic)"_s;
    else if (bytes.size() < HeaderSize)
        decoded.reason
            = u"the header is cut short (%1 of %2 bytes)"_s.arg(bytes.size()).arg(HeaderSize);
    if (!decoded.reason.isEmpty())
        return decoded;
    ByteReader header(bytes.sliced(sizeof Magic, HeaderSize - sizeof Magic));
    quint64 version = 0, fingerprint = 0, size = 0, sum = 0;
    header.fixed64(&version);
    header.fixed64(&fingerprint);
    header.fixed64(&size);
    header.fixed64(&sum);
    if (version != FormatVersion) {
        decoded.outcome = Outcome::WrongVersion;
        decoded.reason
            = u"format version %1, this build reads version %2"_s.arg(version).arg(FormatVersion);
        return decoded;
    }
    const QByteArrayView payload = bytes.sliced(HeaderSize);
    if (quint64(payload.size()) != size) {
        decoded.reason
            = u"%1 bytes of data where the header says %2 (cut short or torn)"_s.arg(payload.size())
                  .arg(size);
        return decoded;
    }
    if (checksum(payload) != sum) {
        decoded.reason = u"the checksum does not match (damaged)"_s;
        return decoded;
    }
    Decoder decoder(payload);
    if (!decoder.payload(&decoded.snapshot, &decoded.prints)) {
        decoded.reason = decoder.error;
        decoded.snapshot = {};
        return decoded;
    }
    if (const QString why = decoded.snapshot.check(); !why.isEmpty()) {
        decoded.reason = u"inconsistent data: "_s + why;
        decoded.snapshot = {};
        return decoded;
    }
    if (combined(decoded.prints) != fingerprint) {
        decoded.reason = u"the fingerprint in the header does not match the data"_s;
        decoded.snapshot = {};
        return decoded;
    }
    decoded.outcome = Outcome::Loaded;
    return decoded;
}

} // namespace DataClient::detail
