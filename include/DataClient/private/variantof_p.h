// Building the QVariants that Record::valueAt() and the denormalizer hand out, without the
// detours of the public constructors: a list of 10k rows reads tens of thousands of them.
#pragma once

#include <DataClient/private/node_p.h>

#include <QtCore/QVariant>

#include <new>
#include <type_traits>

namespace DataClient::detail {

/*!
    Moves \a value into \a variant, which must be null (default-constructed): what
    QVariant::fromValue(T &&) (Qt 6.6) does, for Qt 6.4.

    Qt 6.4's QVariant has no move-in constructor: the copying one costs an atomic reference
    count round trip for a QString or a Record, and QVariant(QMetaType) + data() goes through
    the metatype's default constructor and a detach() check. This fills the variant's storage
    the way Qt's own inline constructors do, through the public QVariant::data_ptr(); only types
    QVariant keeps inline are accepted. Filling the variant where it lives (a list's element)
    rather than moving a filled one there also spares the CPU a stalled store forwarding: a
    QVariant move reads 16 bytes at a time what was just written 8 at a time.

    Kept on Qt 6.6+ too, where QVariant::fromValue(T &&) exists: measured on Qt 6.8.2 (Debian
    13, Release, same machine, runs interleaved), using it in variantOf() made
    `b.denormalize.collection.coldmemo.10k` 1.2x slower (best of three rounds 4.39 -> 5.33 ms)
    and also filling list elements with it 1.25x (docs/performance.md, "What makes it fast").
*/
template<typename T> void fillVariant(QVariant &variant, T &&value)
{
    using Type = std::remove_cvref_t<T>;
    static_assert(QVariant::Private::CanUseInternalSpace<Type>,
                  "only for types a QVariant stores inline");
    QVariant::Private &d = variant.data_ptr();
    Q_ASSERT(d.is_null && !d.is_shared && d.packedType == 0);
    new (&d.data.data) Type(std::forward<T>(value));
    d.is_null = false;
    d.packedType = quintptr(QMetaType::fromType<Type>().iface()) >> 2;
}

//! A QVariant that takes over \a value (see fillVariant()).
template<typename T> QVariant variantOf(T &&value)
{
    QVariant variant;
    fillVariant(variant, std::forward<T>(value));
    return variant;
}

//! True for the values scalarVariant() converts: everything but objects, arrays and refs.
inline bool isScalar(const Value &value)
{
    return value.type < ValueType::Object;
}

/*!
    A scalar value (undefined, null, bool, number, string) as a QVariant (a whole number in the
    64-bit range a qlonglong, other numbers a double), built in place: what
    toVariant() makes of one, and what Record::valueAt() returns for most fields (directly).
*/
inline QVariant scalarVariant(const Value &value, const Node *owner)
{
    switch (value.type) {
    case ValueType::Number:
        return variantOf(value.number);
    case ValueType::Integer:
        return variantOf(qlonglong(value.integer)); // exact, like QJsonValue::toVariant()
    case ValueType::BigInteger:
        return variantOf(owner->toDouble(value));
    case ValueType::True:
        return variantOf(true);
    case ValueType::False:
        return variantOf(false);
    case ValueType::String:
        return variantOf(owner->string(value));
    case ValueType::Null:
        return QVariant::fromValue(nullptr);
    default:
        return QVariant();
    }
}

} // namespace DataClient::detail
