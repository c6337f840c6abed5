// The Controller's side of the persisted store (docs/offline.md): which file, what is left out,
// the fingerprints to check and the coalesced write-behind (persistencemanager.cpp).
#pragma once

#include <DataClient/restendpoint.h>

#include <DataClient/private/persistedfile_p.h>

#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QSet>

namespace DataClient::detail {

struct PersistState
{
    QString setting; // Controller::persistence(): "", "default" or a path
    int intervalMs = 1000;
    QPointer<PersistedFile> file; // null while off or refused
    //! Fingerprints of the entity schemas this run wrote or read with.
    SchemaPrints current;
    //! The loaded file's fingerprints not yet compared with this run's schemas: each is checked
    //! before the first read or write with its key's schema.
    SchemaPrints unchecked;
    //! Endpoints already checked (kept alive, so an address is never another endpoint's).
    QHash<const RestEndpoint *, std::shared_ptr<const RestEndpoint>> checked;
    //! Results of endpoints with `persist: false`.
    QSet<QString> leftOut;
    //! Entity keys whose schema says withPersist(false).
    QSet<QString> leftOutEntities;
    quint64 timer = 0; // the scheduled write, 0 when none
    qint64 lastWrite = -1; // when the last write started (clock time)
    //! The store holds what is not on disk: changed since the last snapshot, or the last write
    //! failed (its changes are written by the next one, the retry or the Controller's end).
    bool dirty = false;
    //! Writes failed in a row: warned at the first, retried with a growing delay until one lands.
    int failures = 0;
};

} // namespace DataClient::detail
