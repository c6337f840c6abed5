// The compact JSON tree the store keeps (docs/performance.md explains why not QJsonObject: a
// parsed QJsonArray of 10k todos takes 15.6 MB, this takes about 2 MB).
//
// A Node is one allocation: a header, `count` 16-byte Values, then a blob holding the node's
// own strings (Latin-1 when every character fits, else UTF-16). Objects share an interned Shape
// (their ordered key list), so 10k todos store their keys once. Nodes are immutable once built
// and reference-counted, so the store, its optimistic layers and every Record read from them
// share one copy. The nodes of a parse come from its arenas (nodearena_p.h; Node::inArena): one,
// or one per chunk a helper thread read when a long list was split (src/json/parsesplit_p.h).
#pragma once

#include <DataClient/private/blobbuffer_p.h>
#include <DataClient/private/shape_p.h>

#include <DataClient/private/jsonglobal_p.h>

#include <QtCore/QAtomicInt>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QVariant>

#include <cstring>
#include <functional>
#include <vector>

namespace DataClient::detail {

enum class ValueType : quint8 {
    // Scalars first: isScalar() (variantof_p.h) is one comparison.
    Undefined,
    Null,
    False,
    True,
    Number, // a double
    Integer, // a whole number that fits in 64 bits, kept exactly (like QJsonValue's qint64)
    BigInteger, // a whole number beyond 64 bits: its digits in the blob, like a String
    String,
    Object,
    Array,
    EntityRef, // a normalized nested entity: (entity table, slot) in the store
    CollectionRef, // a normalized nested collection: (collection table, slot)
};

struct Node;
class NodeArena;

//! One JSON value inside a Node (16 bytes). Strings point into the owning node's blob.
struct Value
{
    union
    {
        double number;
        qint64 integer;
        Node *node;
        struct
        {
            quint32 offset;
            quint32 length;
        } string;
        struct
        {
            quint32 table;
            quint32 slot;
        } ref;
    };
    ValueType type = ValueType::Undefined;
    bool utf16 = false; // String: blob holds UTF-16 (else Latin-1)
    // EntityRef/CollectionRef: ids of a batch not yet resolved, for StorePrivate::resolve() to
    // rewrite (left set when the batch's ids are the store's already).
    // String: bits 32..47 of the cached instant (see instant()).
    quint16 pending = 0;
    // String: bits 0..31 of the cached instant; 0 elsewhere.
    quint32 instantLow = 0;

    Value() : number(0) { }

    // A Latin-1 string in the common ISO 8601 form ("2024-02-15T09:49:06.214Z", what servers
    // and JavaScript's toISOString() send) carries its instant, read once when the string is
    // stored (NodeBuilder::appendLatin1()): a list of 10k dates is then read without parsing
    // them again, both when the store checks them (normalize) and when Records deserialize
    // them. The string itself stays as the server sent it. 48 bits, biased so that 0 means
    // "none": instants within about 4400 years of 1970.
    static constexpr qint64 InstantBias = qint64(1) << 47;
    bool instant(qint64 *msecs) const
    {
        const quint64 code = quint64(pending) << 32 | instantLow;
        if (type != ValueType::String || code == 0)
            return false;
        *msecs = qint64(code) - InstantBias;
        return true;
    }
    void setInstant(qint64 msecs)
    {
        if (msecs <= -InstantBias || msecs >= InstantBias)
            return; // out of range: read from the string when needed
        const quint64 code = quint64(msecs + InstantBias);
        pending = quint16(code >> 32);
        instantLow = quint32(code);
    }
    bool isObject() const { return type == ValueType::Object; }
    bool isArray() const { return type == ValueType::Array; }
    bool isString() const { return type == ValueType::String; }
    bool isNumber() const
    {
        return type == ValueType::Number || type == ValueType::Integer
            || type == ValueType::BigInteger;
    }
    //! String and BigInteger keep their text in the owning node's blob (string.offset/length).
    bool inBlob() const { return type == ValueType::String || type == ValueType::BigInteger; }
    bool isNullish() const { return type == ValueType::Null || type == ValueType::Undefined; }
    bool isRef() const { return type == ValueType::EntityRef || type == ValueType::CollectionRef; }
    //! A number: an Integer when \a n is a whole number in the 64-bit range (as QJsonDocument
    //! stores it), so that one value has one form whichever path it came by.
    static Value makeNumber(double n)
    {
        Value v;
        if (n >= -0x1p63 && n < 0x1p63 && n == double(qint64(n))) {
            v.type = ValueType::Integer;
            v.integer = qint64(n);
        } else {
            v.type = ValueType::Number;
            v.number = n;
        }
        return v;
    }
    static Value makeInteger(qint64 n)
    {
        Value v;
        v.type = ValueType::Integer;
        v.integer = n;
        return v;
    }
    static Value makeBool(bool b)
    {
        Value v;
        v.type = b ? ValueType::True : ValueType::False;
        return v;
    }
    static Value makeNull()
    {
        Value v;
        v.type = ValueType::Null;
        return v;
    }
    static Value makeRef(ValueType type, quint32 table, quint32 slot, bool pending = false)
    {
        Value v;
        v.type = type;
        v.ref.table = table;
        v.ref.slot = slot;
        v.pending = pending ? 1 : 0;
        return v;
    }
};
static_assert(sizeof(Value) == 16);

//! A JSON object or array: header, values, blob (see the top of this file).
struct DATACLIENT_JSON_EXPORT Node
{
    mutable QAtomicInt ref = 1;
    quint32 count = 0;
    const Shape *shape = nullptr; // objects only
    quint32 blobSize = 0;
    bool isArray = false;
    //! Set by fromJsonValue() on the holder it returns when some object in the tree has more than
    //! MaxObjectKeys keys: the store refuses such a tree (the JSON parser refuses the text).
    bool tooManyKeys = false;
    //! Made in a parse's NodeArena: its memory goes back to the arena, not to operator delete.
    bool inArena = false;

    Value *values() { return reinterpret_cast<Value *>(this + 1); }
    const Value *values() const { return reinterpret_cast<const Value *>(this + 1); }
    const Value &at(qsizetype i) const { return values()[i]; }
    char *blob() { return reinterpret_cast<char *>(values() + count); }
    const char *blob() const { return reinterpret_cast<const char *>(values() + count); }
    //! Value of \a key, or nullptr.
    const Value *field(QStringView key) const;
    const Value *field(QLatin1StringView key) const;
    //! A number's value as a double (a BigInteger's digits converted).
    double toDouble(const Value &value) const;
    QString string(const Value &value) const
    {
        return value.utf16 ? utf16(value).toString() : QString(latin1(value));
    }
    //! Compares a String value with \a text without allocating.
    bool stringEquals(const Value &value, QStringView text) const;
    QLatin1StringView latin1(const Value &value) const
    {
        return QLatin1StringView(blob() + value.string.offset, value.string.length);
    }
    QStringView utf16(const Value &value) const
    {
        return QStringView(reinterpret_cast<const char16_t *>(blob() + value.string.offset),
                           value.string.length);
    }

    void addRef() const { ref.ref(); }
    void release() const;
    //! Allocates an uninitialized node; values must be filled before use.
    //! \a shape gets a reference, unless \a shapeRefGiven: the caller's becomes the node's.
    //! From \a arena when given and the node fits in its blocks, else from the heap.
    static Node *allocate(quint32 count, quint32 blobSize, const Shape *shape, bool isArray,
                          bool shapeRefGiven = false, NodeArena *arena = nullptr);
    //! A copy of \a source on the heap (one allocation and one memcpy; child nodes are shared), for the
    //! caller to change values in before anyone else sees it: use replace(). Values whose bit
    //! is set in \a nulled (indices below 64) become null instead (about to be replaced: their
    //! nodes are not referenced only to be released). \a detach: child nodes that are or hold
    //! arena nodes are copied (detached()) instead of shared, in the same pass as detachChildren()
    //! would make.
    static Node *copyOf(const Node *source, quint64 nulled = 0, bool detach = false);
    //! Replaces the children of a node of ours alone (made by copyOf() or a NodeBuilder, not yet
    //! shared) that are or hold arena nodes with heap copies (detached()).
    void detachChildren();
    //! Replaces value \a index of a node made by copyOf(); takes over \a value's node reference.
    void replace(quint32 index, const Value &value);
    //! Makes value \a index of a node made by copyOf() a reference (or null), field by field.
    void replaceWithRef(quint32 index, ValueType type, quint32 table, quint32 slot, bool pending)
    {
        Value &old = values()[index];
        if (old.type == ValueType::Object || old.type == ValueType::Array)
            old.node->release();
        old.ref.table = table;
        old.ref.slot = slot;
        old.type = type;
        old.utf16 = false;
        old.pending = pending ? 1 : 0;
        old.instantLow = 0;
    }
};
static_assert(sizeof(Node) % 8 == 0);

//! Owning, reference-counted pointer to a Node.
class NodeRef
{
public:
    NodeRef() = default;
    //! Adopts \a node (which has a reference for us already).
    static NodeRef adopt(Node *node)
    {
        NodeRef r;
        r.m_node = node;
        return r;
    }
    static NodeRef share(const Node *node)
    {
        if (node)
            node->addRef();
        return adopt(const_cast<Node *>(node));
    }
    NodeRef(const NodeRef &other) : m_node(other.m_node)
    {
        if (m_node)
            m_node->addRef();
    }
    NodeRef(NodeRef &&other) noexcept : m_node(std::exchange(other.m_node, nullptr)) { }
    NodeRef &operator=(const NodeRef &other)
    {
        NodeRef copy(other);
        std::swap(m_node, copy.m_node);
        return *this;
    }
    NodeRef &operator=(NodeRef &&other) noexcept
    {
        std::swap(m_node, other.m_node);
        return *this;
    }
    ~NodeRef()
    {
        if (m_node)
            m_node->release();
    }
    const Node *get() const { return m_node; }
    const Node *operator->() const { return m_node; }
    explicit operator bool() const { return m_node != nullptr; }
    Node *take() { return std::exchange(m_node, nullptr); }

private:
    Node *m_node = nullptr;
};

//! \a node itself when neither it nor any node below it is in an arena (NodeArena), else a heap
//! copy of it whose arena parts are copied too: what the store keeps must not pin the blocks of
//! a whole answer (a 2 MB parse held alive by one author object).
DATACLIENT_JSON_EXPORT NodeRef detached(const Node *node);

//! Collects values and strings, then makes one Node.
class DATACLIENT_JSON_EXPORT NodeBuilder
{
public:
    NodeBuilder() = default;
    NodeBuilder(const NodeBuilder &) = delete;
    NodeBuilder &operator=(const NodeBuilder &) = delete;
    ~NodeBuilder() { clear(); }
    //! The nodes finished from now on come from \a arena (which must outlive those calls).
    void setArena(NodeArena *arena) { m_arena = arena; }
    void reserve(qsizetype values, qsizetype blobBytes)
    {
        m_values.reserve(size_t(values));
        m_blob.reserve(size_t(blobBytes));
    }
    //! Appends a copy of \a value from \a source (strings re-stored, nodes referenced).
    void append(const Value &value, const Node *source);
    void appendString(QStringView text);
    //! Inline: the parser appends 130k values for 10k todos, most of them Latin-1 strings.
    //! The Values are made in place, field by field: a Value made aside and then copied was
    //! read back as 16 bytes just after its 4- and 8-byte parts were written, a store-forwarding
    //! stall that took a third of the string path (perf, docs/performance.md).
    void appendLatin1(QLatin1StringView text)
    {
        const quint32 offset = appendBlob(text.data(), text.size());
        Value &v = m_values.emplace_back();
        v.type = ValueType::String;
        v.string.offset = offset;
        v.string.length = quint32(text.size());
        if (text.size() == InstantTextLength)
            readInstant(v, text);
    }
    //! A whole number beyond 64 bits, kept as its digits (optional '-' then digits).
    void appendBigInteger(QLatin1StringView digits);
    //! Takes over a reference to \a node.
    void appendNode(NodeRef node)
    {
        Value &v = m_values.emplace_back();
        v.type = node->isArray ? ValueType::Array : ValueType::Object;
        v.node = node.take();
    }
    void appendValue(const Value &scalar) { m_values.push_back(scalar); }
    //! Moves \a other's values (and their node references) and strings to the end of these.
    void appendAll(NodeBuilder &other);
    qsizetype size() const { return qsizetype(m_values.size()); }
    //! Drops what was appended (releasing child nodes); keeps the capacity.
    void clear()
    {
        if (!m_values.empty() || !m_blob.empty()) // inline: the parser clears before each object
            clearValues();
    }
    NodeRef finishObject(const Shape *shape);
    //! The same, taking over a reference to \a shape the caller holds for this node.
    NodeRef finishObjectGivenRef(const Shape *shape);
    NodeRef finishArray();
    //! Hands over the only value appended (and its node reference, if any) and empties the builder.
    Value takeSingle();

private:
    //! The length of the ISO 8601 form whose instant a string carries (IsoCommonFormLength).
    static constexpr qsizetype InstantTextLength = 24;
    //! Value::instant(): a string in the common ISO 8601 form carries its instant.
    static void readInstant(Value &value, QLatin1StringView text);
    NodeRef finish(const Shape *shape, bool isArray, bool shapeRefGiven = false);
    void clearValues();
    // std::vector, not QList/QByteArray: appends inline to a few instructions (the parser
    // makes 130k values for 10k todos), and clear() keeps the capacity for the next node.
    std::vector<Value> m_values; // node pointers inside are owned until finish()/clear()
    BlobBuffer m_blob;
    NodeArena *m_arena = nullptr;
    //! Appends \a size bytes to the blob; returns where they start.
    quint32 appendBlob(const char *data, qsizetype size)
    {
        return quint32(m_blob.append(data, size_t(size)));
    }
};

//! Deep comparison (strings by content, numbers by value, refs by identity).
DATACLIENT_JSON_EXPORT bool valuesEqual(const Value &a, const Node *aOwner, const Value &b,
                                        const Node *bOwner);
DATACLIENT_JSON_EXPORT bool nodesEqual(const Node *a, const Node *b);

//! 128 bits hashed from a node's bytes (header, values, blob; a child node's bytes in place of
//! its address). Equal fingerprints mean, but for a chance of about one in 2^127 per pair
//! compared, nodes laid out alike byte for byte, so nodesEqual(); nodes that are equal but laid
//! out otherwise (fields in another order, 0 and -0) may differ. For recognising a repeat of an
//! object (an author of many todos) by 16 bytes kept aside, without reading the first one.
//! Compare fingerprints of nodes alive at the same time: a shape is hashed by its address,
//! which a later shape may take once it is freed. Never {0, 0}: that is free to mean "none".
struct NodeFingerprint
{
    quint64 a = 0;
    quint64 b = 0;
    bool isNull() const { return (a | b) == 0; }
    friend bool operator==(const NodeFingerprint &, const NodeFingerprint &) = default;
};
DATACLIENT_JSON_EXPORT NodeFingerprint nodeFingerprint(const Node *node);

//! How to render refs when converting to JSON/variants (the store gives pks back).
using RefToJson = std::function<QJsonValue(const Value &ref)>;

DATACLIENT_JSON_EXPORT QJsonValue toJsonValue(const Value &value, const Node *owner,
                                              const RefToJson &refs = {});
DATACLIENT_JSON_EXPORT QVariant toVariant(const Value &value, const Node *owner,
                                          const RefToJson &refs = {});
//! A QJsonValue as a Node tree; the result holds it as the only value of a one-element array.
//! An object with more than MaxObjectKeys keys is converted, and the holder marked tooManyKeys.
DATACLIENT_JSON_EXPORT NodeRef fromJsonValue(const QJsonValue &value);

} // namespace DataClient::detail
