// Schema: how a response is normalized into the store and read back (docs/schemas.md).
#pragma once

#include <DataClient/collection.h>
#include <DataClient/entityschema.h>
#include <DataClient/global.h>
#include <DataClient/params.h>

#include <QtCore/QHash>
#include <QtCore/QSet>
#include <QtCore/QSharedDataPointer>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <functional>
#include <memory>

namespace DataClient {

class SchemaPrivate;

/*!
    A cheap-to-copy immutable schema value. Schemas compose like the reference's:

    \code
    const Schema todo = Schema::entity(todoEntity);            // one record
    const Schema list = Schema::collection(Schema::array(todo)); // getList: Collection([Todo])
    const Schema push = list.push();                           // getList.push
    const Schema page = list.paginated();                      // getList.getPage
    const Schema del = Schema::invalidate(todo);               // delete
    const Schema wrapped = Schema::object({{u"results"_s, list}, {u"total"_s, Schema()}});
    \endcode

    The collection variants (push(), unshift(), addWith(), paginated(), remove()) also work on an
    Object wrapper holding one Collection field: they apply to that field.
*/
class DATACLIENT_SCHEMA_EXPORT Schema
{
public:
    enum class Kind { None, Entity, Array, Object, Collection, Invalidate };
    //! What normalizing a Collection does with the stored list of the same arguments.
    enum class CollectionMode {
        Replace, //!< the list becomes the response (getList)
        Push, //!< append the response's entities to every matching stored list (getList.push)
        Unshift, //!< prepend them (getList.unshift)
        //! combine with the merge function of addWith() (paginated(): append, no duplicates)
        AddWith,
        Remove, //!< remove them from every matching stored list
        //! take the response's entities out of the stored lists the call's arguments name that
        //! they no longer fit, and append them to those they now fit (getList.move)
        Move,
    };
    //! Combines a stored collection (pks in order) with incoming pks.
    using CollectionMerge
        = std::function<QStringList(const QStringList &existing, const QStringList &incoming)>;
    //! Whether a pushed item joins the stored collection with \a collectionArgs (see
    //! Collection::matches).
    using CollectionFilter = std::function<bool(const Params &collectionArgs,
                                                const Params &callArgs, const QJsonObject &item)>;

    //! None: the value passes through unchanged (QJsonValue::toVariant() when read).
    Schema();
    Schema(const Schema &other);
    Schema(Schema &&other) noexcept;
    Schema &operator=(const Schema &other);
    Schema &operator=(Schema &&other) noexcept;
    ~Schema();

    static Schema entity(const EntitySchema &entity);
    template<typename T> static Schema entity() { return entity(EntitySchema::fromGadget<T>()); }
    static Schema array(const Schema &item);
    static Schema object(const QHash<QString, Schema> &fields);
    //! A list identified by its arguments. \a arrayOrItem is Schema::array(entity) or the entity
    //! itself. \a type customizes filtering (nullptr: the default Collection).
    static Schema collection(const Schema &arrayOrItem,
                             std::shared_ptr<const Collection> type = {});
    //! Deletes the entity whose pk (a string) or pk fields (an object) the value holds.
    static Schema invalidate(const Schema &entity);

    Kind kind() const;
    bool isNull() const;
    //! Entity and Invalidate: the entity key. Collection: "[<entity key>]". Array: "[<item key>]".
    QString key() const;
    //! The entity of an Entity, Invalidate, Collection or Array-of-entity schema.
    EntitySchema entitySchema() const;
    //! Array and Collection: the schema of one item.
    Schema itemSchema() const;
    //! Object: the schema of each field (fields not listed pass through).
    QHash<QString, Schema> fields() const;

    // Collection variants -------------------------------------------------------------------
    Schema push() const;
    Schema unshift() const;
    Schema addWith(CollectionMerge merge, CollectionFilter filter = {}) const;
    //! addWith() that appends a page, skipping items already in the list (getList.getPage).
    Schema paginated() const;
    Schema remove() const;
    Schema move() const;
    CollectionMode collectionMode() const;
    //! The collection customization (never null for a Collection).
    std::shared_ptr<const Collection> collectionType() const;
    CollectionMerge collectionMerge() const;
    CollectionFilter collectionFilter() const;
    //! For an Object wrapper: the name of its Collection field, else empty.
    QString collectionField() const;
    //! This schema if it is a Collection, the wrapped Collection of an Object, else a None schema.
    Schema collectionSchema() const;

    // What every layer asks of a schema, answered by one walk (schemawalk.cpp) ---------------
    /*!
        Calls \a visit with this schema and each schema it reaches (items, fields, the nested
        fields of entities), parents first. Each entity type is entered once (entity types may
        refer to each other) and the walk ends at depth 32. \a visit returns false to skip what
        lies below the schema it was given.
    */
    void walk(const std::function<bool(const Schema &schema)> &visit) const;
    //! The entity keys ("Todo") and collection keys ("[Todo]") whose changes can alter what a
    //! result read with this schema shows.
    QSet<QString> reachedKeys() const;
    //! Where the list of a result is: the schema itself (an Array or a Collection), or a field of
    //! an Object wrapping one ({results: [Todo], total: 0}): listField() names that field.
    Schema listSchema() const;
    //! The Object field holding the list (see listSchema()); empty when the list is the value
    //! itself or there is none.
    QString listField() const;
    //! The entity of the list's rows: of an Array or Collection of entities, or of arrays of
    //! them (Collection(Array(Entity))); null when the rows are not entities.
    EntitySchema rowEntity() const;
    //! Whether a value of this schema can be normalized on any thread: it reaches no entity with
    //! a pk function, a process or merge hook, or a deserializer that is not built in (those may
    //! call into JS, which lives on the GUI thread).
    bool normalizesAnywhere() const;
    /*!
        The schema of the value a member's call resolves with, when that is not what the store
        keeps under the member's key: a push or unshift (Collection in Push/Unshift mode)
        resolves with the one entity it created (the entities, when \a answerIsList), a page
        (AddWith mode) with the page's own items, not the whole list they were merged into. For
        an Object wrapping such a Collection, the wrapper with that field read so. Any other
        schema resolves as it is stored: itself.
    */
    Schema answerSchema(bool answerIsList = false) const;

    //! Same definition (copies compare equal; two separately built schemas do not).
    friend bool operator==(const Schema &a, const Schema &b) { return a.d == b.d; }
    friend bool operator!=(const Schema &a, const Schema &b) { return a.d != b.d; }

private:
    friend class SchemaPrivate;
    explicit Schema(SchemaPrivate *data);
    QExplicitlySharedDataPointer<SchemaPrivate> d;
};

} // namespace DataClient
