// StoreSnapshot: the store's committed tables as they are at one moment, for the persisted store
// (src/persist, docs/offline.md). Taking one on the GUI thread copies slot vectors and shares
// every record (nodes are immutable and reference-counted), so it costs no serialization there;
// a worker then reads it. The same type carries a decoded file back: restoreInto() makes the
// tables of an empty store exactly these, slot numbers included, so the references inside the
// records stay valid without rewriting them.
#pragma once

#include <DataClient/global.h>
#include <DataClient/meta.h>
#include <DataClient/params.h>
#include <DataClient/private/node_p.h>

#include <QtCore/QList>
#include <QtCore/QSet>
#include <QtCore/QString>

#include <memory>
#include <vector>

namespace DataClient {

class Store;

namespace detail {

//! One entity slot: its pk, record (null when absent or deleted) and meta.
struct SnapshotEntity
{
    QString pk;
    NodeRef node;
    Meta meta;
    bool deleted = false;
};

struct SnapshotEntityTable
{
    QString key;
    //! Left out by persist: false: the slots stay (placeholder pks, no records), so that slot
    //! numbers held by other records and lists still name a slot.
    bool omitted = false;
    std::vector<SnapshotEntity> slots;
};

struct SnapshotCollection
{
    QString argsKey;
    Params args;
    QList<quint32> items; // slots of the item table
    Meta meta;
    bool exists = false;
};

struct SnapshotCollectionTable
{
    QString key;
    quint32 itemTable = 0;
    std::vector<SnapshotCollection> slots;
};

struct SnapshotResult
{
    QString key;
    NodeRef holder; // one-element array holding the normalized value
    Meta meta;
};

//! What a snapshot leaves out (privacy switches: docs/offline.md).
struct SnapshotFilter
{
    QSet<QString> entityKeys;
    QSet<QString> resultKeys;
};

struct DATACLIENT_STORE_EXPORT StoreSnapshot
{
    std::vector<SnapshotEntityTable> entityTables;
    std::vector<SnapshotCollectionTable> collectionTables;
    std::vector<SnapshotResult> results;

    //! The committed data of \a store (never its optimistic layers), without what \a filter names
    //! (the store's thread).
    static StoreSnapshot take(const Store &store, const SnapshotFilter &filter = {});
    //! Why the snapshot is not consistent (a reference or item naming no slot, a record that is
    //! not an object, a key twice), or an empty string. A decoded file is checked before use.
    QString check() const;
    //! Makes \a store's tables this snapshot's. \a store must be empty (nothing written since it
    //! was made or reset) and the snapshot checked; otherwise, or when a table holds a pk twice,
    //! returns false with the reason in \a why, the store left empty.
    bool restoreInto(Store &store, QString *why = nullptr) const;
    qsizetype entityCount() const;
};

} // namespace detail
} // namespace DataClient
