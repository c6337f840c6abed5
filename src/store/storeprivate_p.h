// StorePrivate: tables, optimistic layers and the memo. Where its parts are defined: the public
// face in store.cpp; writes in commit.cpp (committing a prepared batch), resolve.cpp (a batch's
// slots becoming the store's) and layers.cpp (optimistic layers); reads in denormalizer.cpp and
// memo.cpp; the table types in tables_p.h / tables.cpp. Normalizing (normalizer.cpp,
// normalizeentity.cpp, normalizecollection.cpp) builds a WriteBatch without a store and reaches
// StorePrivate only to see what is stored.
#pragma once

#include <DataClient/store.h>

#include "entityrefset_p.h"
#include "memo_p.h"
#include "tables_p.h"
#include "writebatch_p.h"

#include <QtCore/QHash>

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace DataClient {

class StorePrivate
{
public:
    using EntityTable = detail::EntityTable;
    using CollectionTable = detail::CollectionTable;

    // --- tables ---
    EntityTable &entityTable(const QString &key);
    CollectionTable &collectionTable(const QString &key, quint32 itemTable);
    EntityTable *findEntityTable(const QString &key) const;

    std::vector<std::unique_ptr<EntityTable>> entityTables;
    QHash<QString, quint32> entityTableIds;
    std::vector<std::unique_ptr<CollectionTable>> collectionTables;
    QHash<QString, quint32> collectionTableIds;
    QHash<QString, detail::ResultSlot> results;
    QHash<QString, detail::NodeRef> resultOverrides; // optimistic results (null: hidden)
    qint64 resetAt = 0;

    // --- writes (commit.cpp, layers.cpp) ---
    StoreWrite write(std::optional<quint64> layer, const QString &resultKey, const Schema &schema,
                     const Params &args, const detail::Node *holder, const Meta &meta);
    //! Normalizes into a batch without touching any store (any thread); \a layer: for an
    //! optimistic layer (placeholder keys allowed).
    static std::shared_ptr<detail::WriteBatch> prepare(const Schema &schema, const Params &args,
                                                       const detail::Node *holder,
                                                       std::optional<SchemaError> *error,
                                                       bool layer = false);
    StoreWrite commitPrepared(std::optional<quint64> layer, const QString &resultKey,
                              const std::shared_ptr<detail::WriteBatch> &batch, const Meta &meta);
    //! Maps a prepared batch's local tables and slots onto the store's (resolve.cpp).
    void resolve(detail::WriteBatch &batch);
    //! Why the batch's new entities would not fit the store's tables, if they would not
    //! (EntityTable::capacity()); checked before resolve() changes anything.
    std::optional<SchemaError> roomFor(const detail::WriteBatch &batch) const;
    void commit(detail::WriteBatch &batch, const QString &resultKey, const Meta &meta,
                ChangeSet &changes);
    //! What an entity or collection shows changed: report it and invalidate what depends on it.
    void entityChanged(quint32 table, quint32 slot, ChangeSet &changes);
    void collectionChanged(quint32 table, quint32 slot, ChangeSet &changes);
    void resultChanged(const QString &key, ChangeSet &changes);
    static detail::NodeRef mergeRecords(const EntitySchemaPrivate *schema,
                                        const detail::NodeRef &existing,
                                        const detail::NodeRef &incoming, bool incomingIsNewer);
    //! Applies one staged collection write to a collection's (exists, items) state.
    bool applyCollectionWrite(const CollectionTable &table, const detail::CollectionWrite &write,
                              const detail::CollectionSlot &collection, bool *exists,
                              QList<quint32> *items);

    // --- re-filtering (refilter.cpp) ---
    //! An entity whose committed record changed, and the record it had.
    struct ChangedEntity
    {
        quint32 table;
        quint32 slot;
        detail::NodeRef before;
    };
    using RecordOf = std::function<const detail::Node *(quint32 slot)>;
    //! Whether a change of an entity from \a before to \a after touches a field that can move
    //! it between \a table's collections (false for a new or deleted entity).
    bool watchedFieldChanged(CollectionTable &table, const detail::Node *before,
                             const detail::Node *after);
    //! Moves entity \a slot into or out of \a items (a collection of \a table with \a args),
    //! or within them when ordered, for its change from \a before to \a after; \a record
    //! gives the other rows' records. True if \a items changed.
    bool refilterItems(const CollectionTable &table, const Params &args, quint32 slot,
                       const QJsonObject &before, const QJsonObject &after, const RecordOf &record,
                       QList<quint32> *items) const;
    //! Re-filters every stored collection for committed changes of \a changed.
    void refilterCommitted(const std::vector<ChangedEntity> &changed, const detail::MetaRef &meta,
                           ChangeSet &changes);

    // --- optimistic layers (layers.cpp) ---
    struct LayerBatch
    {
        QString resultKey;
        std::shared_ptr<detail::WriteBatch> batch;
        Meta meta;
    };
    std::map<quint64, std::vector<LayerBatch>> layers;
    void recomputeEntityOverride(quint32 table, quint32 slot, ChangeSet &changes);
    void recomputeCollectionOverride(quint32 table, quint32 slot, ChangeSet &changes);
    static std::optional<QList<quint32>> effectiveItems(const CollectionTable &table, quint32 slot);
    void recomputeResultOverride(const QString &key, ChangeSet &changes);
    void recomputeLayersFor(const detail::WriteBatch &batch, const QString &resultKey,
                            ChangeSet &changes);

    // --- memo (denormalizer.cpp) ---
    detail::EntityViews &entityViews(quint32 table, const EntitySchema &schema);
    detail::ListView &listView(quint32 collectionTable, quint32 slot,
                               const EntitySchema &itemSchema);
    detail::ResultView &resultView(const QString &key);
    void retireResultView(const QString &key);
    void clearMemo();

    std::vector<std::unique_ptr<detail::EntityViews>> entityViewStore;
    QHash<QPair<quint32, const void *>, detail::EntityViews *> entityViewIndex;
    std::vector<std::vector<detail::EntityViews *>> entityViewsByTable;
    std::vector<std::unique_ptr<detail::ListView>> listViewStore;
    QHash<QPair<quint64, const void *>, detail::ListView *> listViewIndex;
    QMultiHash<quint64, detail::ListView *> listViewsByCollection;
    std::vector<std::unique_ptr<detail::ResultView>> resultViewStore;
    QHash<QString, detail::ResultView *> resultViewIndex;
    std::vector<detail::ResultView *> freeResultViews;

    // --- reads (denormalizer.cpp) ---
    Denormalized readResult(const QString &key, const Schema &schema);
    Denormalized query(const Schema &schema, const Params &args);
    const detail::Node *effectiveResult(const QString &key) const;
    detail::RefToJson refRenderer() const;
};

} // namespace DataClient
