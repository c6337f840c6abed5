// Bookkeeping of the optimistic layers the Controller keeps in the Store (DESIGN.md §5
// "Optimistic"): which layer belongs to which request, in request order, and which layers a
// confirmed write makes obsolete.
#pragma once

#include <DataClient/entityref.h>
#include <DataClient/entityrefset.h>

#include <QtCore/QMap>
#include <QtCore/QList>
#include <QtCore/QSet>

namespace DataClient::detail {

/*!
    Layer ids increase with request order, so the Store applies the layers of overlapping
    mutations in the order they were made (three rapid toggles show the last one).

    The race rule applies to layers too: a layer is an unconfirmed write made at its request's
    start time. Once data written by a request that started later is committed for the same
    entity, the older layer must no longer show over it, or a confirmed newer value could be
    hidden by an older guess (toggle true, false, true: when the third confirms first, the
    second's "false" layer would otherwise reappear). Such layers are removed right away; their
    own responses, when they come, are older than the committed data and do not overwrite it.
*/
class OptimisticLayers
{
public:
    //! A new layer id, greater than every id handed out before (never 0).
    quint64 allocate() { return ++m_lastId; }

    //! Remembers that layer \a id (a request started at \a date) wrote \a entities.
    void record(quint64 id, qint64 date, const QSet<EntityRef> &entities);
    bool contains(quint64 id) const { return m_layers.contains(id); }
    QSet<EntityRef> entities(quint64 id) const { return m_layers.value(id).entities; }
    //! Whether a layer still waiting for its request wrote \a ref.
    bool touches(const EntityRef &ref) const;

    /*!
        Layers made obsolete by a commit of \a committed entities written by a request that
        started at \a date: every recorded layer of an earlier request (date < \a date) that
        touches one of them. The caller removes them from the store and calls forget().
        \a committed is built into EntityRefs only when a layer has to be compared with it:
        without layers, a commit of 10k entities costs nothing here.
    */
    QList<quint64> supersededBy(qint64 date, const EntityRefSet &committed) const;

    void forget(quint64 id) { m_layers.remove(id); }
    //! Forgets every layer (the store was reset); ids keep increasing.
    void clear() { m_layers.clear(); }
    qsizetype size() const { return m_layers.size(); }

private:
    struct Layer
    {
        qint64 date = 0;
        QSet<EntityRef> entities;
    };
    QMap<quint64, Layer> m_layers;
    quint64 m_lastId = 0;
};

} // namespace DataClient::detail
