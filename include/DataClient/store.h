// Store: the normalized entity table, the endpoint results and the optimistic layers.
#pragma once

#include <DataClient/changeset.h>
#include <DataClient/compactjson.h>
#include <DataClient/denormalized.h>
#include <DataClient/entityrefset.h>
#include <DataClient/global.h>
#include <DataClient/meta.h>
#include <DataClient/params.h>
#include <DataClient/schema.h>
#include <DataClient/storewrite.h>

#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QStringList>

#include <memory>
#include <optional>

namespace DataClient {

class StorePrivate;
class StoreLayers;
namespace detail {
struct StoreSnapshot;
}

/*!
    The normalized store: entities keyed by (entity key, pk) with their meta,
    endpoint results keyed by a result key (the endpoint's cache key, e.g. "GET http://x/todos"),
    and optimistic layers above the committed data. Not a QObject; single-threaded (the
    Controller owns one and uses it from the GUI thread).

    Writes normalize a response with its Schema and report a ChangeSet; a value that does not fit
    its schema writes nothing and returns the SchemaError. Reads denormalize with memoization:
    unchanged inputs give the identical shared QVariant, and a changed entity recomputes only the
    parts of a result that depend on it.
*/
class DATACLIENT_STORE_EXPORT Store
{
public:
    Store();
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    //! Normalizes \a value with \a schema and commits the entities and (when \a resultKey is not
    //! empty) the result. \a meta.date is when the request was sent, used by the race rule: an
    //! older write never overwrites fields written by a newer one, it only fills missing fields.
    StoreWrite setResponse(const QString &resultKey, const Schema &schema, const Params &args,
                           const QJsonValue &value, const Meta &meta);
    //! The same from the compact form (CompactJson::parse()): no QJsonDocument in between.
    StoreWrite setResponse(const QString &resultKey, const Schema &schema, const Params &args,
                           const CompactJson &value, const Meta &meta);
    //! The ids of the optimistic layers shown above the committed data (the Controller's
    //! optimistic writes, docs/optimistic-updates.md), ascending.
    QList<quint64> optimisticLayers() const;

    //! The result stored under \a resultKey, read with \a schema (\a args identify collections
    //! and nested collections).
    Denormalized denormalize(const QString &resultKey, const Schema &schema, const Params &args);
    //! Reads the entity table without a result: Entity -> the entity whose pk \a args give;
    //! Collection (or Object wrapper) -> the stored collection of \a args.
    Denormalized query(const Schema &schema, const Params &args);

    //! Forgets the result (its entities stay).
    ChangeSet invalidateResult(const QString &resultKey);
    //! Removes one entity (lists drop it; results holding it report it missing).
    ChangeSet removeEntity(const EntityRef &ref);
    //! Empties everything (entities, results, layers, memo). Later writes whose meta.date is
    //! earlier than the reset are dropped.
    ChangeSet reset();
    //! When reset() last ran (ms since the epoch), 0 if never.
    qint64 resetAt() const;

    bool hasResult(const QString &resultKey) const;
    Meta resultMeta(const QString &resultKey) const;
    void setResultMeta(const QString &resultKey, const Meta &meta);
    QStringList resultKeys() const;

    //! The committed serialized record, as the server sent it after merging (no layers).
    std::optional<QJsonObject> entity(const EntityRef &ref) const;
    Meta entityMeta(const EntityRef &ref) const;
    //! Number of committed entities of \a key (all keys when empty); collections not counted.
    qsizetype entityCount(const QString &key = {}) const;

    //! Heap bytes the store's own data takes: entity and collection tables, results, optimistic
    //! layers; each allocation counted as the allocator counts it (glibc: its chunk size, what
    //! the benchmarks' mallinfo2 rows add up). The memo (denormalized views, shared with the
    //! Records views hold) is not counted. docs/memory.md compares it with the benchmarks.
    qint64 memoryUsage() const;

    // Inspection (the store inspector, docs/inspector.md): reads only, never memoized.

    //! The entity keys the store has a table for ("Todo", "User"), sorted; collections not listed.
    QStringList entityKeys() const;
    //! The pks of the entities of \a key that are shown: committed and present, or made by an
    //! optimistic layer; in the order they were first stored.
    QStringList entityPks(const QString &key) const;
    //! The entity as it is shown (optimistic layers applied), serialized like entity().
    std::optional<QJsonObject> shownEntity(const EntityRef &ref) const;
    //! An optimistic layer changes (or makes, or hides) the entity.
    bool isOptimistic(const EntityRef &ref) const;
    //! The entities the shown entity's record refers to (through nested entities and the items
    //! of nested collections), each once, in the order of the record.
    QList<EntityRef> references(const EntityRef &ref) const;
    //! The entities the result of \a resultKey shows directly (its top-level entities and the
    //! items of its collections), each once.
    QList<EntityRef> resultEntities(const QString &resultKey) const;
    /*!
        The shown entity (or the stored result of \a resultKey) as compact JSON, nested entities
        as their pks, cut after about \a maxChars characters (then ending with "…"): a display
        that costs the same for a record of 60k fields or an answer of 50 MB as for a small
        one. Empty when the store holds nothing there.
    */
    QString preview(const EntityRef &ref, qsizetype maxChars) const;
    QString resultPreview(const QString &resultKey, qsizetype maxChars) const;

private:
    friend struct detail::StoreSnapshot; // the persisted store reads and restores the tables
    friend class StoreLayers; // the layers' API (private/storelayers_p.h)
    std::unique_ptr<StorePrivate> d;
};

} // namespace DataClient
