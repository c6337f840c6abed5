// Encoding a StoreSnapshot (snapshotcodec_p.h); runs on a worker. Payload layout (all counts and
// numbers LEB128 varints, strings UTF-8 with their length first):
//   fingerprints: count, then (entity key, fixed64 print) each
//   entity tables: count, then (key, omitted u8, slot count) each; then every table's slots:
//     pk, flags u8 (1 record, 2 deleted, 4 same meta as the previous slot), [meta], [record]
//   list tables: count, then (key, item table, slot count, then per slot: arguments key,
//     arguments as compact JSON, exists u8, meta, item count, items)
//   results: count, then (key, meta, holder)
// Records are the compact tree as the store keeps it: each object's key list (shape) written once
// and then named by number, references as (table, slot) of the tables above.
#include "bytes_p.h"

#include <DataClient/private/snapshotcodec_p.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace DataClient::detail {

namespace {

class Encoder
{
public:
    ByteWriter out;

    void meta(const Meta &m)
    {
        out.svarint(m.date);
        out.svarint(m.fetchedAt);
        out.svarint(m.expiresAt);
    }

    void value(const Value &v, const Node *owner)
    {
        switch (v.type) {
        case ValueType::Undefined:
            out.u8(quint8(Tag::Undefined));
            break;
        case ValueType::Null:
            out.u8(quint8(Tag::Null));
            break;
        case ValueType::False:
            out.u8(quint8(Tag::False));
            break;
        case ValueType::True:
            out.u8(quint8(Tag::True));
            break;
        case ValueType::Number: {
            out.u8(quint8(Tag::Number));
            quint64 bits = 0;
            std::memcpy(&bits, &v.number, sizeof bits);
            out.fixed64(bits);
            break;
        }
        case ValueType::Integer:
            out.u8(quint8(Tag::Integer));
            out.svarint(v.integer);
            break;
        case ValueType::BigInteger:
        case ValueType::String:
            if (v.utf16) {
                out.u8(quint8(Tag::Utf16));
                out.varint(v.string.length);
                out.bytes.append(owner->blob() + v.string.offset, qsizetype(v.string.length) * 2);
            } else {
                out.u8(quint8(v.type == ValueType::String ? Tag::Latin1 : Tag::BigInteger));
                out.raw(owner->blob() + v.string.offset, v.string.length);
            }
            break;
        case ValueType::Object:
        case ValueType::Array:
            node(v.node);
            break;
        case ValueType::EntityRef:
        case ValueType::CollectionRef:
            out.u8(quint8(v.type == ValueType::EntityRef ? Tag::EntityRef : Tag::CollectionRef));
            out.varint(v.ref.table);
            out.varint(v.ref.slot);
            break;
        }
    }

    void node(const Node *n)
    {
        if (n->isArray) {
            out.u8(quint8(Tag::Array));
            out.varint(n->count);
        } else {
            out.u8(quint8(Tag::Object));
            // 0: a new shape follows (then known as the next number); else its number + 1.
            const auto known = m_shapes.constFind(n->shape);
            if (known != m_shapes.cend()) {
                out.varint(known.value() + 1);
            } else {
                out.varint(0);
                out.varint(quint64(n->shape->size()));
                for (const QString &key : n->shape->keys())
                    out.string(key);
                m_shapes.insert(n->shape, quint64(m_shapes.size()));
            }
        }
        for (quint32 i = 0; i < n->count; ++i)
            value(n->at(i), n);
    }

private:
    QHash<const Shape *, quint64> m_shapes;
};

} // namespace

QByteArray SnapshotCodec::encode(const StoreSnapshot &snapshot, const SchemaPrints &prints)
{
    Encoder e;
    e.out.bytes.reserve(1 << 20);
    e.out.varint(quint64(prints.size()));
    for (auto it = prints.cbegin(); it != prints.cend(); ++it) {
        e.out.string(it.key());
        e.out.fixed64(it.value());
    }
    e.out.varint(snapshot.entityTables.size());
    for (const SnapshotEntityTable &table : snapshot.entityTables) {
        e.out.string(table.key);
        e.out.u8(table.omitted ? 1 : 0);
        e.out.varint(table.slots.size());
    }
    for (const SnapshotEntityTable &table : snapshot.entityTables) {
        const Meta *previous = nullptr;
        for (const SnapshotEntity &entity : table.slots) {
            e.out.string(entity.pk);
            const bool sameMeta = previous && *previous == entity.meta;
            e.out.u8(quint8((entity.node ? 1 : 0) | (entity.deleted ? 2 : 0) | (sameMeta ? 4 : 0)));
            if (!sameMeta)
                e.meta(entity.meta);
            previous = &entity.meta;
            if (entity.node)
                e.node(entity.node.get());
        }
    }
    e.out.varint(snapshot.collectionTables.size());
    for (const SnapshotCollectionTable &table : snapshot.collectionTables) {
        e.out.string(table.key);
        e.out.varint(table.itemTable);
        e.out.varint(table.slots.size());
        for (const SnapshotCollection &collection : table.slots) {
            e.out.string(collection.argsKey);
            e.out.raw(QJsonDocument(QJsonObject::fromVariantMap(collection.args))
                          .toJson(QJsonDocument::Compact));
            e.out.u8(collection.exists ? 1 : 0);
            e.meta(collection.meta);
            e.out.varint(quint64(collection.items.size()));
            for (const quint32 item : collection.items)
                e.out.varint(item);
        }
    }
    e.out.varint(snapshot.results.size());
    for (const SnapshotResult &result : snapshot.results) {
        e.out.string(result.key);
        e.meta(result.meta);
        e.node(result.holder.get());
    }

    ByteWriter header;
    header.bytes.reserve(HeaderSize + e.out.bytes.size());
    header.bytes.append(Magic, sizeof Magic);
    header.fixed64(FormatVersion); // version (low 32 bits) and flags (none yet)
    header.fixed64(combined(prints));
    header.fixed64(quint64(e.out.bytes.size()));
    header.fixed64(checksum(e.out.bytes));
    header.bytes.append(e.out.bytes);
    return header.bytes;
}

quint64 SnapshotCodec::combined(const SchemaPrints &prints)
{
    // Order-independent: the sum of each (key, print)'s own mix.
    quint64 sum = 0;
    for (auto it = prints.cbegin(); it != prints.cend(); ++it)
        sum += checksum(it.key().toUtf8()) ^ (it.value() * 0x9e3779b97f4a7c15ULL);
    return sum;
}

quint64 SnapshotCodec::checksum(QByteArrayView bytes)
{
    // Eight bytes at a time with a 64-bit multiply-rotate mix (as xxHash's rounds), then the tail.
    constexpr quint64 P1 = 0x9e3779b185ebca87ULL;
    constexpr quint64 P2 = 0xc2b2ae3d27d4eb4fULL;
    quint64 h = P2 ^ quint64(bytes.size());
    const char *p = bytes.data();
    qsizetype n = bytes.size();
    while (n >= 8) {
        quint64 w = 0;
        std::memcpy(&w, p, 8);
        h ^= w * P2;
        h = ((h << 31) | (h >> 33)) * P1;
        p += 8;
        n -= 8;
    }
    while (n > 0) {
        h ^= quint8(*p++) * P1;
        h = ((h << 11) | (h >> 53)) * P2;
        --n;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    return h;
}

} // namespace DataClient::detail
