// The persisted store, the Controller's side (docs/offline.md): opening the file and hydrating
// the store from it before any query reads, checking the file's schema fingerprints, and the
// write-behind: a snapshot of the committed tables at most once per persistIntervalMs, waiting
// through the Controller's scheduler and saved on a worker (PersistedFile).
#pragma once

#include "lifecycle_p.h"
#include "persiststate_p.h"

namespace DataClient::detail {

class PersistenceManager final : public Lifecycle
{
public:
    explicit PersistenceManager(ControllerPrivate &core);

    //! Before reading or writing with \a endpoint's schema: its fingerprints are this run's, and
    //! a loaded file made with other schemas is dropped. \a resultKey (may be empty) is left out
    //! of the file when the endpoint has `persist: false`.
    void read(const RestEndpoint &endpoint, const QString &resultKey) override;
    void readSchema(const Schema &schema) override;
    void writingSchema(const Schema &schema) override;
    //! A commit: a write is scheduled (at most one per persistIntervalMs).
    void storeChanged(const ChangeSet &changes, bool committed) override;
    //! The reset store is not written: the file goes.
    void storeReset() override;
    //! Writes what is not on disk yet, synchronously.
    void closing() override;

    //! The file the store is persisted in (absolute), empty while persistence is off or refused.
    QString filePath() const;
    //! Opens \a setting's file (hydrating an empty store from it) after closing the current one.
    void open(const QString &setting);
    //! Controller::clearPersisted().
    void clear();

    PersistState state;

private:
    void noteSchema(const Schema &schema);
    void markDirty();
    void write();
    void written(const QString &error);
    void flush();
};

} // namespace DataClient::detail
