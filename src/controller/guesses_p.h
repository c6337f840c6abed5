// The optimistic guesses of the Controller's core: what a mutation shows before the server answers
// (a layer over the committed data, docs/optimistic-updates.md), dated when its request is sent,
// removed by its own answer or failure and by a newer committed answer about the same entities.
#pragma once

#include "optimisticlayers_p.h"

#include <DataClient/changeset.h>
#include <DataClient/params.h>
#include <DataClient/responsestate.h>

#include <QtCore/QJsonValue>

namespace DataClient {
class ControllerPrivate;
class RestEndpoint;
} // namespace DataClient

namespace DataClient::detail {

struct InFlightRequest;

class Guesses
{
public:
    explicit Guesses(ControllerPrivate &core) : m_core(core) { }

    /*!
        Shows the guess of a mutation, if its endpoint makes one, dated \a date; returns its layer
        id or 0 and sets \a changes. A guess of a new row without a primary key shows under a key
        a manager gives (Lifecycle::newRowKey()), returned in \a newRowKey (nullptr: no such row
        is shown then).
    */
    quint64 show(const RestEndpoint &endpoint, const Params &params, const QJsonValue &body,
                 qint64 date, ChangeSet *changes, QString *newRowKey);
    //! Layer \a layer's request was sent at \a date, or waits again (OptimisticLayers::unsent);
    //! returns what that changed of what is shown.
    ChangeSet redate(quint64 layer, qint64 date);
    //! Removes layer \a own (if any) and every layer the commit of \a committed at \a date makes
    //! obsolete; returns what that changed.
    ChangeSet remove(quint64 own, qint64 date, const EntityRefSet &committed);
    /*!
        The date a change's answer is written with: when it arrives, not when the change was sent.
        A read sent before the answer arrived (while the change was waiting or on the wire) may
        have reached the server before the change, whatever the order of the two sends: the
        change's confirmed answer is newer than it, and a read sent after the answer arrived is
        newer than the change. A change answered after a change sent later was confirmed keeps its
        send date (it was applied before that one). The guesses of changes sent after it and
        not answered yet take dates after it (what that shows goes into \a changes).
    */
    qint64 confirmationDate(const InFlightRequest &change, ChangeSet *changes);
    //! Whether the entity a single-entity read shows is written by a guess whose request is still
    //! in flight (an optimistic delete hides it: the key is loading, not missing).
    bool hide(const RestEndpoint &endpoint, const Params &params) const;
    //! ResponseState::pending of a read of \a endpoint + \a params showing \a state.
    bool pending(const ResponseState &state, const RestEndpoint &endpoint,
                 const Params &params) const;
    //! The entities layer \a layer writes.
    QSet<EntityRef> entities(quint64 layer) const { return m_layers.entities(layer); }
    bool contains(quint64 layer) const { return m_layers.contains(layer); }
    //! Every guess is gone (resetEntireStore()).
    void clear() { m_layers.clear(); }

private:
    ControllerPrivate &m_core;
    OptimisticLayers m_layers;
    qint64 m_newestConfirmedChange = 0; //!< the send date of the newest change confirmed so far
};

} // namespace DataClient::detail
