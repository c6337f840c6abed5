#include "node_p.h"

#include <DataClient/schemaerror.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QMutex>

#include <new>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

// --- Shape ---------------------------------------------------------------------------------

namespace {
// Objects wider than this get a hash index; narrower ones are searched linearly (faster).
constexpr qsizetype LinearSearchLimit = 12;
// Distinct key lists interned at most; beyond, shapes are reference-counted per node, so a
// server inventing key sets cannot grow the table forever.
constexpr qsizetype MaxInternedShapes = 1 << 16;

struct ShapeRegistry
{
    QMutex mutex;
    QMultiHash<size_t, const Shape *> shapes;
};

ShapeRegistry &registry()
{
    static ShapeRegistry *instance = new ShapeRegistry; // immortal, like the shapes it holds
    return *instance;
}
} // namespace

size_t Shape::hashKeys(const QList<QString> &keys)
{
    size_t h = 0;
    for (const QString &key : keys)
        h = qHashMulti(h, key);
    return h;
}

Shape::Shape(const QList<QString> &keys, bool interned)
    : m_keys(keys), m_hash(hashKeys(keys)), m_interned(interned)
{
    if (keys.size() > LinearSearchLimit) {
        for (int i = 0; i < keys.size(); ++i)
            m_index.insert(keys.at(i), i);
    }
}

const Shape *Shape::intern(const QList<QString> &keys)
{
    const size_t h = hashKeys(keys);
    ShapeRegistry &r = registry();
    QMutexLocker lock(&r.mutex);
    for (auto it = r.shapes.constFind(h); it != r.shapes.cend() && it.key() == h; ++it) {
        if ((*it)->keys() == keys)
            return *it;
    }
    if (r.shapes.size() >= MaxInternedShapes)
        return new Shape(keys, false);
    const Shape *shape = new Shape(keys, true);
    r.shapes.insert(h, shape);
    return shape;
}

int Shape::indexOf(QStringView key) const
{
    if (!m_index.isEmpty())
        return m_index.value(key.toString(), -1);
    for (qsizetype i = 0; i < m_keys.size(); ++i) {
        const QString &candidate = m_keys.at(i);
        if (candidate.size() == key.size() && candidate == key) // sizes first: no call
            return int(i);
    }
    return -1;
}

int Shape::indexOf(QLatin1StringView key) const
{
    if (!m_index.isEmpty())
        return m_index.value(QString(key), -1);
    for (qsizetype i = 0; i < m_keys.size(); ++i) {
        if (m_keys.at(i) == key)
            return int(i);
    }
    return -1;
}

// --- Node ----------------------------------------------------------------------------------

Node *Node::allocate(quint32 count, quint32 blobSize, const Shape *shape, bool isArray)
{
    void *memory = ::operator new(sizeof(Node) + count * sizeof(Value) + blobSize);
    Node *node = new (memory) Node;
    node->count = count;
    node->blobSize = blobSize;
    node->shape = shape;
    node->isArray = isArray;
    if (shape)
        shape->ref();
    return node;
}

Node *Node::copyOf(const Node *source)
{
    const size_t size = sizeof(Node) + source->count * sizeof(Value) + source->blobSize;
    void *memory = ::operator new(size);
    std::memcpy(memory, static_cast<const void *>(source), size);
    Node *node = static_cast<Node *>(memory);
    new (&node->ref) QAtomicInt(1);
    if (node->shape)
        node->shape->ref();
    for (quint32 i = 0; i < node->count; ++i) {
        const Value &v = node->values()[i];
        if (v.type == ValueType::Object || v.type == ValueType::Array)
            v.node->addRef();
    }
    return node;
}

void Node::replace(quint32 index, const Value &value)
{
    Value &old = values()[index];
    if (old.type == ValueType::Object || old.type == ValueType::Array)
        old.node->release();
    Q_ASSERT(value.type != ValueType::String); // strings live in the blob of their own node
    old = value;
}

void Node::release() const
{
    if (ref.deref())
        return;
    for (quint32 i = 0; i < count; ++i) {
        const Value &v = values()[i];
        if (v.type == ValueType::Object || v.type == ValueType::Array)
            v.node->release();
    }
    if (shape)
        shape->deref();
    this->~Node();
    ::operator delete(const_cast<Node *>(this));
}

const Value *Node::field(QStringView key) const
{
    const int i = shape ? shape->indexOf(key) : -1;
    return i < 0 ? nullptr : &values()[i];
}

const Value *Node::field(QLatin1StringView key) const
{
    const int i = shape ? shape->indexOf(key) : -1;
    return i < 0 ? nullptr : &values()[i];
}

QString Node::string(const Value &value) const
{
    return value.utf16 ? utf16(value).toString() : QString(latin1(value));
}

bool Node::stringEquals(const Value &value, QStringView text) const
{
    if (value.type != ValueType::String)
        return false;
    return value.utf16 ? utf16(value) == text : latin1(value) == text;
}

// --- NodeBuilder ---------------------------------------------------------------------------

void NodeBuilder::appendLatin1(QLatin1StringView text)
{
    Value v;
    v.type = ValueType::String;
    v.string.offset = quint32(m_blob.size());
    v.string.length = quint32(text.size());
    m_blob.append(text.data(), text.size());
    m_values.append(v);
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
        const qsizetype start = m_blob.size();
        m_blob.resize(start + text.size());
        char *out = m_blob.data() + start;
        for (qsizetype i = 0; i < text.size(); ++i)
            out[i] = char(text[i].unicode());
        m_values.append(v);
        return;
    }
    if (m_blob.size() % 2)
        m_blob.append('\0'); // UTF-16 is read in place: keep it 2-byte aligned
    Value v;
    v.type = ValueType::String;
    v.utf16 = true;
    v.string.offset = quint32(m_blob.size());
    v.string.length = quint32(text.size());
    m_blob.append(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
    m_values.append(v);
}

void NodeBuilder::appendNode(NodeRef node)
{
    Value v;
    v.type = node->isArray ? ValueType::Array : ValueType::Object;
    v.node = node.take();
    m_values.append(v);
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
    case ValueType::Object:
    case ValueType::Array:
        appendNode(NodeRef::share(value.node));
        break;
    default:
        m_values.append(value);
    }
}

NodeRef NodeBuilder::finish(const Shape *shape, bool isArray)
{
    Node *node = Node::allocate(quint32(m_values.size()), quint32(m_blob.size()), shape, isArray);
    if (!m_values.isEmpty())
        std::memcpy(static_cast<void *>(node->values()), m_values.constData(),
                    size_t(m_values.size()) * sizeof(Value));
    if (!m_blob.isEmpty())
        std::memcpy(node->blob(), m_blob.constData(), size_t(m_blob.size()));
    m_values.resize(0); // the node owns the child references now
    m_blob.resize(0);
    return NodeRef::adopt(node);
}

Value NodeBuilder::takeSingle()
{
    Q_ASSERT(m_values.size() == 1);
    const Value value = m_values.first();
    m_values.resize(0); // the reference moves to the caller
    m_blob.resize(0);
    return value;
}

void NodeBuilder::clear()
{
    for (const Value &v : std::as_const(m_values)) {
        if (v.type == ValueType::Object || v.type == ValueType::Array)
            v.node->release();
    }
    m_values.resize(0);
    m_blob.resize(0);
}

NodeRef NodeBuilder::finishObject(const Shape *shape)
{
    Q_ASSERT(shape && shape->size() == m_values.size());
    return finish(shape, false);
}

NodeRef NodeBuilder::finishArray()
{
    return finish(nullptr, true);
}

// --- comparisons and conversions -------------------------------------------------------------

bool valuesEqual(const Value &a, const Node *aOwner, const Value &b, const Node *bOwner)
{
    if (a.type != b.type)
        return false;
    switch (a.type) {
    case ValueType::Number:
        return a.number == b.number;
    case ValueType::String:
        if (a.string.length != b.string.length)
            return false;
        if (a.utf16 == b.utf16) {
            return std::memcmp(aOwner->blob() + a.string.offset, bOwner->blob() + b.string.offset,
                               a.string.length * (a.utf16 ? 2 : 1))
                == 0;
        }
        return aOwner->string(a) == bOwner->string(b);
    case ValueType::Object:
    case ValueType::Array:
        return nodesEqual(a.node, b.node);
    case ValueType::EntityRef:
    case ValueType::CollectionRef:
        return a.ref.table == b.ref.table && a.ref.slot == b.ref.slot;
    default:
        return true;
    }
}

bool nodesEqual(const Node *a, const Node *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->count != b->count || a->isArray != b->isArray)
        return false;
    if (a->shape == b->shape || a->shape->keys() == b->shape->keys()) {
        for (quint32 i = 0; i < a->count; ++i) {
            if (!valuesEqual(a->at(i), a, b->at(i), b))
                return false;
        }
        return true;
    }
    // Same fields in another order (QJsonObject sorts its keys, servers do not).
    for (quint32 i = 0; i < a->count; ++i) {
        const Value *other = b->field(QStringView(a->shape->key(i)));
        if (!other || !valuesEqual(a->at(i), a, *other, b))
            return false;
    }
    return true;
}

QJsonValue toJsonValue(const Value &value, const Node *owner, const RefToJson &refs)
{
    switch (value.type) {
    case ValueType::Undefined:
        return QJsonValue(QJsonValue::Undefined);
    case ValueType::Null:
        return QJsonValue(QJsonValue::Null);
    case ValueType::False:
        return false;
    case ValueType::True:
        return true;
    case ValueType::Number:
        return value.number;
    case ValueType::String:
        return owner->string(value);
    case ValueType::Object: {
        QJsonObject object;
        const Node *node = value.node;
        for (quint32 i = 0; i < node->count; ++i)
            object.insert(node->shape->key(i), toJsonValue(node->at(i), node, refs));
        return object;
    }
    case ValueType::Array: {
        QJsonArray array;
        const Node *node = value.node;
        for (quint32 i = 0; i < node->count; ++i)
            array.append(toJsonValue(node->at(i), node, refs));
        return array;
    }
    case ValueType::EntityRef:
    case ValueType::CollectionRef:
        return refs ? refs(value) : QJsonValue();
    }
    return {};
}

QVariant toVariant(const Value &value, const Node *owner, const RefToJson &refs)
{
    switch (value.type) {
    case ValueType::Undefined:
        return {};
    case ValueType::Null:
        return QVariant::fromValue(nullptr);
    case ValueType::False:
        return false;
    case ValueType::True:
        return true;
    case ValueType::Number:
        return value.number;
    case ValueType::String:
        return owner->string(value);
    case ValueType::Object: {
        QVariantMap map;
        const Node *node = value.node;
        for (quint32 i = 0; i < node->count; ++i)
            map.insert(node->shape->key(i), toVariant(node->at(i), node, refs));
        return map;
    }
    case ValueType::Array: {
        QVariantList list;
        const Node *node = value.node;
        list.reserve(node->count);
        for (quint32 i = 0; i < node->count; ++i)
            list.append(toVariant(node->at(i), node, refs));
        return list;
    }
    case ValueType::EntityRef:
    case ValueType::CollectionRef:
        return refs ? refs(value).toVariant() : QVariant();
    }
    return {};
}

namespace {

void appendJson(NodeBuilder &builder, const QJsonValue &value);

NodeRef objectFromJson(const QJsonObject &object)
{
    NodeBuilder builder;
    QList<QString> keys;
    keys.reserve(object.size());
    builder.reserve(object.size(), 64);
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        keys.append(it.key());
        appendJson(builder, it.value());
    }
    return builder.finishObject(Shape::intern(keys));
}

NodeRef arrayFromJson(const QJsonArray &array)
{
    NodeBuilder builder;
    builder.reserve(array.size(), 0);
    for (const QJsonValue &item : array)
        appendJson(builder, item);
    return builder.finishArray();
}

void appendJson(NodeBuilder &builder, const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        builder.appendValue(Value::makeNull());
        break;
    case QJsonValue::Bool:
        builder.appendValue(Value::makeBool(value.toBool()));
        break;
    case QJsonValue::Double:
        builder.appendValue(Value::makeNumber(value.toDouble()));
        break;
    case QJsonValue::String:
        builder.appendString(value.toString());
        break;
    case QJsonValue::Array:
        builder.appendNode(arrayFromJson(value.toArray()));
        break;
    case QJsonValue::Object:
        builder.appendNode(objectFromJson(value.toObject()));
        break;
    case QJsonValue::Undefined:
        builder.appendValue(Value());
        break;
    }
}

} // namespace

NodeRef fromJsonValue(const QJsonValue &value)
{
    NodeBuilder holder;
    appendJson(holder, value);
    return holder.finishArray();
}

QString describe(const Value &value, const Node *owner)
{
    switch (value.type) {
    case ValueType::Object:
    case ValueType::Array:
        return SchemaError::describe(toJsonValue(value, owner));
    case ValueType::EntityRef:
        return u"an entity reference"_s;
    case ValueType::CollectionRef:
        return u"a collection reference"_s;
    default:
        return SchemaError::describe(toJsonValue(value, owner));
    }
}

} // namespace DataClient::detail
