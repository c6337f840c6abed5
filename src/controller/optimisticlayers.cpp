#include "optimisticlayers_p.h"

#include <algorithm>

namespace DataClient::detail {

void OptimisticLayers::record(quint64 id, qint64 date, const QSet<EntityRef> &entities)
{
    Layer &layer = m_layers[id];
    layer.date = date;
    layer.entities.unite(entities);
}

void OptimisticLayers::redate(quint64 id, qint64 date)
{
    const auto it = m_layers.find(id);
    if (it != m_layers.end())
        it->date = date;
}

QList<quint64> OptimisticLayers::supersededBy(qint64 date, const EntityRefSet &committed) const
{
    QList<quint64> obsolete;
    if (committed.isEmpty())
        return obsolete;
    for (auto it = m_layers.cbegin(); it != m_layers.cend(); ++it) {
        if (it->date < date && committed.intersects(it->entities))
            obsolete.append(it.key());
    }
    return obsolete;
}

bool OptimisticLayers::touches(const EntityRef &ref) const
{
    return std::any_of(m_layers.cbegin(), m_layers.cend(),
                       [&ref](const Layer &layer) { return layer.entities.contains(ref); });
}

} // namespace DataClient::detail
