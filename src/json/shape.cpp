// Interned key lists of compact objects (shape_p.h).
//
// Every shape is reference-counted by what uses it (nodes, the parser's per-parse cache, field
// plans); the registry only finds shared ones and never owns them, so a shape no longer used is
// deleted and leaves the registry (a server that invents key names pins nothing once its answers
// are gone). The registry is bounded by bytes: past MaxInternedBytes, new key lists get
// private shapes (still shared within one parse, still released with their nodes).
#include <DataClient/private/shape_p.h>

#include <QtCore/QMutex>

namespace DataClient::detail {

namespace {
// Objects wider than this get a hash index; narrower ones are searched linearly (faster).
constexpr qsizetype LinearSearchLimit = 12;
// The most one shape may take of the registry's bound (Shape::MaxInternedBytes): a very wide key
// list (a dictionary, not an entity) is unlikely to repeat, so it is not interned.
constexpr qsizetype MaxInternedShapeSize = Shape::MaxInternedBytes / 64;

struct ShapeRegistry
{
    QMutex mutex; // nodes are built and released on worker threads too (StoreLayers::prepare())
    QMultiHash<size_t, const Shape *> shapes;
    qsizetype bytes = 0;
};

ShapeRegistry &registry()
{
    // Immortal: shapes still referenced at exit (static schemas' field plans) unregister late.
    static ShapeRegistry *instance = new ShapeRegistry;
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

qsizetype Shape::bytesFor(const QList<QString> &keys)
{
    // The object, and per key its QString, its UTF-16 text with the array header, and (wide
    // objects) a hash index entry: an estimate of the heap it keeps, not malloc's exact count.
    constexpr qsizetype PerKey = qsizetype(sizeof(QString)) + 16;
    constexpr qsizetype PerIndexEntry = 48;
    qsizetype bytes = qsizetype(sizeof(Shape)) + keys.size() * PerKey;
    for (const QString &key : keys)
        bytes += key.size() * 2;
    if (keys.size() > LinearSearchLimit)
        bytes += keys.size() * PerIndexEntry;
    return bytes;
}

qsizetype Shape::internedBytes()
{
    ShapeRegistry &r = registry();
    QMutexLocker lock(&r.mutex);
    return r.bytes;
}

qsizetype Shape::internedCount()
{
    ShapeRegistry &r = registry();
    QMutexLocker lock(&r.mutex);
    return r.shapes.size();
}

Shape::Shape(const QList<QString> &keys, size_t hash, qsizetype bytes, bool interned)
    : m_keys(keys), m_hash(hash), m_bytes(bytes), m_interned(interned)
{
    if (keys.size() > LinearSearchLimit) {
        for (int i = 0; i < keys.size(); ++i)
            m_index.insert(keys.at(i), i);
    }
}

ShapeRef Shape::intern(const QList<QString> &keys)
{
    const size_t h = hashKeys(keys);
    const qsizetype bytes = bytesFor(keys);
    ShapeRegistry &r = registry();
    {
        QMutexLocker lock(&r.mutex);
        for (auto it = r.shapes.constFind(h); it != r.shapes.cend() && it.key() == h; ++it) {
            if ((*it)->keys() == keys && (*it)->refIfAlive())
                return ShapeRef::adopt(*it);
        }
        if (bytes <= MaxInternedShapeSize && r.bytes + bytes <= MaxInternedBytes) {
            const Shape *shape = new Shape(keys, h, bytes, true);
            r.shapes.insert(h, shape);
            r.bytes += bytes;
            return ShapeRef::adopt(shape);
        }
    }
    return ShapeRef::adopt(new Shape(keys, h, bytes, false));
}

// A shape whose count fell to 0 is being destroyed by another thread, which is waiting for the
// registry's lock to unregister it: it must not come back to life. intern() makes a new one.
bool Shape::refIfAlive() const
{
    int count = m_ref.loadRelaxed();
    while (count > 0) {
        if (m_ref.testAndSetOrdered(count, count + 1, count))
            return true;
    }
    return false;
}

void Shape::destroy() const
{
    if (m_interned) {
        ShapeRegistry &r = registry();
        QMutexLocker lock(&r.mutex);
        r.shapes.remove(m_hash, this);
        r.bytes -= m_bytes;
    }
    delete this;
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
