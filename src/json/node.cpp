// Compact nodes: allocation, copies and release (node_p.h; the builder: nodebuilder.cpp).
#include <DataClient/private/node_p.h>

#include <DataClient/private/nodearena_p.h>

#include "makenode_p.h"

#include <charconv>
#include <new>

namespace DataClient::detail {

Node *Node::allocate(quint32 count, quint32 blobSize, const Shape *shape, bool isArray,
                     bool shapeRefGiven, NodeArena *arena)
{
    return makeNode(count, blobSize, shape, isArray, shapeRefGiven, arena);
}

namespace {
bool holdsArenaNodes(const Node *node)
{
    if (node->inArena)
        return true;
    for (quint32 i = 0; i < node->count; ++i) {
        const Value &v = node->values()[i];
        if ((v.type == ValueType::Object || v.type == ValueType::Array) && holdsArenaNodes(v.node))
            return true;
    }
    return false;
}

// copyOf()'s heap copy of child \a index of \a copy. Out of memory half way, \a copy is
// released: the values from \a index on are not its own yet (nulled first).
Node *detachedChild(Node *copy, quint32 index)
{
    try {
        return detached(copy->values()[index].node).take();
    } catch (...) {
        for (quint32 j = index; j < copy->count; ++j)
            copy->values()[j].type = ValueType::Null;
        copy->release();
        throw;
    }
}
} // namespace

Node *Node::copyOf(const Node *source, quint64 nulled, bool detach)
{
    const size_t size = sizeof(Node) + source->count * sizeof(Value) + source->blobSize;
    void *memory = ::operator new(size);
    std::memcpy(memory, static_cast<const void *>(source), size);
    Node *node = static_cast<Node *>(memory);
    new (&node->ref) QAtomicInt(1);
    node->inArena = false;
    if (node->shape)
        node->shape->ref();
    for (quint32 i = 0; i < node->count; ++i) {
        Value &v = node->values()[i];
        if (i < 64 && (nulled >> i) & 1) {
            v.type = ValueType::Null;
            continue;
        }
        if (v.type == ValueType::Object || v.type == ValueType::Array) {
            if (detach && holdsArenaNodes(v.node))
                v.node = detachedChild(node, i);
            else
                v.node->addRef();
        }
    }
    return node;
}

void Node::detachChildren()
{
    for (quint32 i = 0; i < count; ++i) {
        Value &v = values()[i];
        if ((v.type == ValueType::Object || v.type == ValueType::Array)
            && holdsArenaNodes(v.node)) {
            NodeRef copy = detached(v.node);
            v.node->release();
            v.node = copy.take();
        }
    }
}

NodeRef detached(const Node *node)
{
    if (!holdsArenaNodes(node))
        return NodeRef::share(node);
    return NodeRef::adopt(Node::copyOf(node, 0, true));
}

void Node::replace(quint32 index, const Value &value)
{
    Value &old = values()[index];
    if (old.type == ValueType::Object || old.type == ValueType::Array)
        old.node->release();
    Q_ASSERT(!value.inBlob()); // strings and big integers live in the blob of their own node
    old = value;
}

namespace {
// The shape references of the objects of a tree being freed, given back a batch per shape: the
// objects of an answer mostly share a few shapes (10k todos and their authors: two).
class ShapeDerefs
{
public:
    ShapeDerefs() = default;
    ShapeDerefs(const ShapeDerefs &) = delete;
    ShapeDerefs &operator=(const ShapeDerefs &) = delete;
    ~ShapeDerefs()
    {
        for (int i = 0; i < Slots; ++i) {
            if (m_shapes[i])
                m_shapes[i]->deref(m_counts[i]);
        }
    }
    void add(const Shape *shape)
    {
        for (int i = 0; i < Slots; ++i) {
            if (m_shapes[i] == shape) {
                ++m_counts[i];
                return;
            }
        }
        if (m_shapes[m_next])
            m_shapes[m_next]->deref(m_counts[m_next]);
        m_shapes[m_next] = shape;
        m_counts[m_next] = 1;
        m_next = (m_next + 1) % Slots;
    }

private:
    static constexpr int Slots = 4;
    const Shape *m_shapes[Slots] = {};
    int m_counts[Slots] = {};
    int m_next = 0;
};

// The same for the arena counts of the freed arena nodes: a tree mostly comes from one parse.
class ArenaDerefs
{
public:
    ArenaDerefs() = default;
    ArenaDerefs(const ArenaDerefs &) = delete;
    ArenaDerefs &operator=(const ArenaDerefs &) = delete;
    ~ArenaDerefs() { flush(); }
    void add(const Node *node)
    {
        NodeArena::Shared *shared = NodeArena::sharedOf(node);
        if (shared != m_shared) {
            flush();
            m_shared = shared;
        }
        ++m_count;
    }

private:
    void flush()
    {
        if (m_count)
            NodeArena::release(m_shared, m_count);
        m_count = 0;
    }
    NodeArena::Shared *m_shared = nullptr;
    qint64 m_count = 0;
};

struct Derefs
{
    ShapeDerefs shapes;
    ArenaDerefs arenas; // declared last, flushed first: after it the blocks may be gone
};

// Frees \a node (its count is 0) and the children only it held.
void destroy(const Node *node, Derefs &derefs)
{
    for (quint32 i = 0; i < node->count; ++i) {
        const Value &v = node->values()[i];
        // The only reference (count 1, ours) cannot be taken by another thread meanwhile: no
        // atomic decrement needed (a 10k answer frees 30k such children).
        if ((v.type == ValueType::Object || v.type == ValueType::Array)
            && (v.node->ref.loadAcquire() == 1 || !v.node->ref.deref()))
            destroy(v.node, derefs);
    }
    if (node->shape)
        derefs.shapes.add(node->shape);
    if (node->inArena) {
        node->~Node();
        derefs.arenas.add(node); // reads only the block header, not the node
        return;
    }
    node->~Node();
    ::operator delete(const_cast<Node *>(node));
}
} // namespace

void Node::release() const
{
    if (ref.deref())
        return;
    Derefs derefs;
    destroy(this, derefs);
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

double Node::toDouble(const Value &value) const
{
    switch (value.type) {
    case ValueType::Number:
        return value.number;
    case ValueType::Integer:
        return double(value.integer);
    case ValueType::BigInteger: {
        // Checked when parsed: the digits are a whole number within the double range.
        const QLatin1StringView digits = latin1(value);
        double number = 0;
        std::from_chars(digits.data(), digits.data() + digits.size(), number);
        return number;
    }
    default:
        return 0;
    }
}

bool Node::stringEquals(const Value &value, QStringView text) const
{
    if (value.type != ValueType::String)
        return false;
    return value.utf16 ? utf16(value) == text : latin1(value) == text;
}

} // namespace DataClient::detail
