// Bookkeeping of the optimistic layers the Controller keeps in the Store
// (docs/optimistic-updates.md): which layer belongs to which request, in request order, and
// which layers a
// confirmed write makes obsolete.
#pragma once

#include <DataClient/private/testexport_p.h>
#include <DataClient/entityref.h>
#include <DataClient/entityrefset.h>

#include <QtCore/QMap>
#include <QtCore/QList>
#include <QtCore/QSet>

#include <limits>

namespace DataClient::detail {

/*!
    Layer ids increase with request order, so the Store applies the layers of overlapping
    mutations in the order they were made (three rapid toggles show the last one).

    The race rule applies to layers too: a layer is an unconfirmed write dated when its request
    was sent (its current attempt). Once data written by a request sent later is committed for
    the same entity, the older layer must no longer show over it, or a confirmed newer value
    could be hidden by an older guess (toggle true, false, true: when the third confirms first,
    the second's "false" layer would otherwise reappear). Such layers are removed right away;
    their own responses, when they come, are older than the committed data and do not overwrite
    it. Only a change's answer removes older layers: a read's answer may come from before the
    change reached the server, and the change's own answer is dated when it arrives, after it.

    A layer whose request is not on the wire (queued in the outbox, waiting for a retry) is dated
    `unsent`, after everything: the server will apply it after every request already sent, so
    no answer committed meanwhile supersedes it, and its guess shows over such answers. When the
    request is sent, the layer takes the send date.
*/
class DATACLIENT_TEST_EXPORT OptimisticLayers
{
public:
    //! A new layer id, greater than every id handed out before (never 0).
    quint64 allocate() { return ++m_lastId; }

    //! The date of a layer whose request waits to be sent: later than every real date.
    static constexpr qint64 unsent = std::numeric_limits<qint64>::max();

    //! Remembers that layer \a id (a request sent at \a date, or `unsent`) wrote \a entities.
    void record(quint64 id, qint64 date, const QSet<EntityRef> &entities);
    bool contains(quint64 id) const { return m_layers.contains(id); }
    //! The date of layer \a id (0 when there is none).
    qint64 date(quint64 id) const { return m_layers.value(id).date; }
    //! Layer \a id's request was sent at \a date, or waits again (`unsent`).
    void redate(quint64 id, qint64 date);
    QSet<EntityRef> entities(quint64 id) const { return m_layers.value(id).entities; }
    //! Whether a layer still waiting for its request wrote \a ref.
    bool touches(const EntityRef &ref) const;

    /*!
        Layers made obsolete by a commit of \a committed entities written by a request sent at
        \a date: every recorded layer sent earlier (date < \a date) that touches one of
        them. The caller removes them from the store and calls forget().
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
