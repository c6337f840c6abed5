// Interned key lists of compact objects (node_p.h).
#include "node_p.h"

#include <QtCore/QMutex>

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

} // namespace DataClient::detail
