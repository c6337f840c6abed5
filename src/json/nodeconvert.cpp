// Comparing compact values and converting them to and from QJsonValue / QVariant.
#include <DataClient/private/node_p.h>
#include <DataClient/private/variantof_p.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

#include <limits>

using namespace Qt::StringLiterals;

namespace DataClient::detail {

// --- comparisons and conversions -------------------------------------------------------------

bool valuesEqual(const Value &a, const Node *aOwner, const Value &b, const Node *bOwner)
{
    if (a.type != b.type) {
        // One number, one form (Value::makeNumber()): an Integer equals no Number. Only a
        // BigInteger's value is also a double's (read as one, both are the same number).
        const auto number = [](const Value &v, const Node *owner) {
            return v.type == ValueType::BigInteger ? owner->toDouble(v)
                : v.type == ValueType::Integer     ? double(v.integer)
                                                   : v.number;
        };
        return (a.type == ValueType::BigInteger || b.type == ValueType::BigInteger) && a.isNumber()
            && b.isNumber() && number(a, aOwner) == number(b, bOwner);
    }
    switch (a.type) {
    case ValueType::Number:
        return a.number == b.number;
    case ValueType::Integer:
        return a.integer == b.integer;
    case ValueType::BigInteger: // digits, compared like Latin-1 text
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
    if (a->shape == b->shape && a->blobSize == b->blobSize
        && std::memcmp(a->blob(), b->blob(), a->blobSize) == 0) {
        // Laid out alike (the same entity twice in one response): equal bytes are equal values
        // (strings at the same offsets of equal blobs); only child nodes and the values whose
        // bytes differ (0 and -0) need a closer look.
        for (quint32 i = 0; i < a->count; ++i) {
            const Value &x = a->at(i);
            const Value &y = b->at(i);
            if ((x.type == ValueType::Object || x.type == ValueType::Array) && y.type == x.type) {
                if (!nodesEqual(x.node, y.node)) // a repeated author's address: no detour
                    return false;
            } else if (std::memcmp(&x, &y, sizeof(Value)) != 0 && !valuesEqual(x, a, y, b)) {
                return false;
            }
        }
        return true;
    }
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

namespace {

// What a converted value is made of: toJsonValue() and toVariant() are one walk over the tree
// (convert() below) with these building blocks.
template<typename Out> struct Target;

template<> struct Target<QJsonValue>
{
    using Object = QJsonObject;
    using Array = QJsonArray;
    static QJsonValue scalar(const Value &value, const Node *owner)
    {
        switch (value.type) {
        case ValueType::Null:
            return QJsonValue(QJsonValue::Null);
        case ValueType::False:
            return false;
        case ValueType::True:
            return true;
        case ValueType::Number:
            return value.number;
        case ValueType::Integer:
            return QJsonValue(value.integer); // exact, as QJsonDocument keeps it
        case ValueType::BigInteger:
            return owner->toDouble(value);
        case ValueType::String:
            return owner->string(value);
        default:
            return QJsonValue(QJsonValue::Undefined);
        }
    }
    static QJsonValue ref(const RefToJson &refs, const Value &value)
    {
        return refs ? refs(value) : QJsonValue();
    }
    static void reserve(Array &, qsizetype) { }
};

template<> struct Target<QVariant>
{
    using Object = QVariantMap;
    using Array = QVariantList;
    static QVariant scalar(const Value &value, const Node *owner)
    {
        return scalarVariant(value, owner);
    }
    static QVariant ref(const RefToJson &refs, const Value &value)
    {
        return refs ? refs(value).toVariant() : QVariant();
    }
    static void reserve(Array &array, qsizetype size) { array.reserve(size); }
};

template<typename Out> Out convert(const Value &value, const Node *owner, const RefToJson &refs)
{
    using T = Target<Out>;
    if (isScalar(value))
        return T::scalar(value, owner);
    switch (value.type) {
    case ValueType::Object: {
        typename T::Object object;
        const Node *node = value.node;
        for (quint32 i = 0; i < node->count; ++i)
            object.insert(node->shape->key(i), convert<Out>(node->at(i), node, refs));
        return object;
    }
    case ValueType::Array: {
        typename T::Array array;
        const Node *node = value.node;
        T::reserve(array, node->count);
        for (quint32 i = 0; i < node->count; ++i)
            array.append(convert<Out>(node->at(i), node, refs));
        return array;
    }
    case ValueType::EntityRef:
    case ValueType::CollectionRef:
        return T::ref(refs, value);
    default: // scalars: above
        break;
    }
    return {};
}

} // namespace

QJsonValue toJsonValue(const Value &value, const Node *owner, const RefToJson &refs)
{
    return convert<QJsonValue>(value, owner, refs);
}

QVariant toVariant(const Value &value, const Node *owner, const RefToJson &refs)
{
    return convert<QVariant>(value, owner, refs);
}

namespace {

// One conversion: notes objects wider than MaxObjectKeys for the holder (Node::tooManyKeys).
struct FromJson
{
    bool tooManyKeys = false;
    // The last shapes used: a list's objects mostly have one key list, found here without the
    // registry's lock and hashing.
    static constexpr int Recent = 4;
    ShapeRef recent[Recent];
    int next = 0;

    const Shape *shapeOf(const QList<QString> &keys)
    {
        for (const ShapeRef &known : recent) {
            if (known.get() && known.get()->keys() == keys)
                return known.get();
        }
        recent[next] = Shape::intern(keys);
        const Shape *shape = recent[next].get();
        next = (next + 1) % Recent;
        return shape;
    }

    NodeRef object(const QJsonObject &object)
    {
        if (object.size() > MaxObjectKeys)
            tooManyKeys = true;
        NodeBuilder builder;
        QList<QString> keys;
        keys.reserve(object.size());
        builder.reserve(object.size(), 64);
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            keys.append(it.key());
            append(builder, it.value());
        }
        return builder.finishObject(shapeOf(keys));
    }

    NodeRef array(const QJsonArray &array)
    {
        NodeBuilder builder;
        builder.reserve(array.size(), 0);
        for (const QJsonValue &item : array)
            append(builder, item);
        return builder.finishArray();
    }

    void append(NodeBuilder &builder, const QJsonValue &value)
    {
        switch (value.type()) {
        case QJsonValue::Null:
            builder.appendValue(Value::makeNull());
            break;
        case QJsonValue::Bool:
            builder.appendValue(Value::makeBool(value.toBool()));
            break;
        case QJsonValue::Double: {
            // QJsonValue keeps a whole number parsed from JSON as a qint64: toInteger() gives it
            // exactly (and a whole double in range, which is that integer too). Else a double;
            // makeNumber() makes it an integer when it is a whole one (min() itself).
            constexpr qint64 NotWhole = std::numeric_limits<qint64>::min();
            const qint64 integer = value.toInteger(NotWhole);
            builder.appendValue(integer != NotWhole ? Value::makeInteger(integer)
                                                    : Value::makeNumber(value.toDouble()));
            break;
        }
        case QJsonValue::String:
            builder.appendString(value.toString());
            break;
        case QJsonValue::Array:
            builder.appendNode(array(value.toArray()));
            break;
        case QJsonValue::Object:
            builder.appendNode(object(value.toObject()));
            break;
        case QJsonValue::Undefined:
            builder.appendValue(Value());
            break;
        }
    }
};

} // namespace

NodeRef fromJsonValue(const QJsonValue &value)
{
    FromJson conversion;
    NodeBuilder holder;
    conversion.append(holder, value);
    NodeRef result = holder.finishArray();
    const_cast<Node *>(result.get())->tooManyKeys = conversion.tooManyKeys; // ours alone yet
    return result;
}

} // namespace DataClient::detail
