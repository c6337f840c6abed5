// Shape: an interned, ordered list of object keys, shared by the compact objects (node_p.h)
// that have them; reference-counted, registry in shape.cpp.
#pragma once

#include <DataClient/private/jsonglobal_p.h>

#include <QtCore/QAtomicInt>
#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

#include <utility>

namespace DataClient::detail {

class ShapeRef;

//! Objects with more keys than this are refused (a JSON parse error, a SchemaError in the store):
//! only a broken or hostile server sends them (docs/schemas.md, "Limits").
constexpr qsizetype MaxObjectKeys = 65536;

//! An interned, ordered list of object keys.
class DATACLIENT_JSON_EXPORT Shape
{
public:
    //! The Shape for \a keys, with a reference for the caller: the registry's shared one (made
    //! on first use), or a private one when the registry holds MaxInternedBytes already.
    //! A shape lives as long as references to it (nodes, caches) do, then leaves the registry.
    static ShapeRef intern(const QList<QString> &keys);
    //! The registry's bound: the sum of bytesFor() of the shapes it holds (docs/schemas.md).
    static constexpr qsizetype MaxInternedBytes = qsizetype(16) << 20;

    qsizetype size() const { return m_keys.size(); }
    const QString &key(qsizetype i) const { return m_keys.at(i); }
    const QList<QString> &keys() const { return m_keys; }
    int indexOf(QStringView key) const;
    int indexOf(QLatin1StringView key) const;
    size_t hash() const { return m_hash; }

    void ref() const { m_ref.ref(); }
    void deref() const
    {
        if (!m_ref.deref())
            destroy();
    }
    // References by the batch: the parser takes them for many nodes at once, and freeing a tree
    // gives those of its objects back together (one atomic operation each, not one per object).
    void ref(int count) const { m_ref.fetchAndAddRelaxed(count); }
    void deref(int count) const
    {
        if (m_ref.fetchAndSubOrdered(count) == count)
            destroy();
    }

    static size_t hashKeys(const QList<QString> &keys);
    //! What the registry counts for a shape of \a keys (the bound is on the sum).
    static qsizetype bytesFor(const QList<QString> &keys);
    //! The registry's current total and shape count (for tests and diagnostics).
    static qsizetype internedBytes();
    static qsizetype internedCount();

private:
    Shape(const QList<QString> &keys, size_t hash, qsizetype bytes, bool interned);
    bool refIfAlive() const;
    void destroy() const;
    QList<QString> m_keys;
    QHash<QString, int> m_index; // only for wide objects
    size_t m_hash = 0;
    qsizetype m_bytes = 0;
    mutable QAtomicInt m_ref = 1; // owners: nodes, the parser's cache, field plans
    bool m_interned = false;
};

//! Owning pointer to a Shape (one reference).
class ShapeRef
{
public:
    ShapeRef() = default;
    static ShapeRef adopt(const Shape *shape)
    {
        ShapeRef r;
        r.m_shape = shape;
        return r;
    }
    ShapeRef(const ShapeRef &) = delete;
    ShapeRef &operator=(const ShapeRef &) = delete;
    ShapeRef(ShapeRef &&other) noexcept : m_shape(std::exchange(other.m_shape, nullptr)) { }
    ShapeRef &operator=(ShapeRef &&other) noexcept
    {
        std::swap(m_shape, other.m_shape);
        return *this;
    }
    ~ShapeRef()
    {
        if (m_shape)
            m_shape->deref();
    }
    const Shape *get() const { return m_shape; }
    const Shape *take() { return std::exchange(m_shape, nullptr); }

private:
    const Shape *m_shape = nullptr;
};

} // namespace DataClient::detail
