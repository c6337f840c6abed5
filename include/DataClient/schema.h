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
#include <QtCore/QVariant>

#include <functional>
#include <memory>

namespace DataClient {

class Record;
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
    const Schema feedItem = Schema::unionOf({{u"comment"_s, comment}, {u"like"_s, like}},
                                            u"type"_s);  // one of several entity types
    const Schema usersById = Schema::values(Schema::entity(user)); // {"12": {...}, "13": {...}}
    \endcode

    The collection variants (push(), unshift(), addWith(), paginated(), remove()) also work on an
    Object wrapper holding one Collection field: they apply to that field.
*/
class DATACLIENT_SCHEMA_EXPORT Schema
{
public:
    enum class Kind {
        None,
        Entity,
        Array,
        Object,
        Collection,
        Invalidate,
        Union,
        Values,
        All,
        Query
    };
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
    //! The members of a Union: a type name and the Entity schema of the items of that type.
    using UnionMembers = QList<std::pair<QString, Schema>>;
    //! Picks the member of a Union for \a value (\a parent: the enclosing value, null at the
    //! top): returns one of the member names (anything else is a SchemaError).
    using UnionPick = std::function<QString(const QJsonObject &value, const QJsonValue &parent)>;
    //! The order of an All list: true when \a a goes before \a b.
    using AllOrder = std::function<bool(const Record &a, const Record &b)>;
    //! A Query's computation over the value its input schema reads (an All's list).
    using QueryCompute = std::function<QVariant(const QVariant &input)>;
    //! A counting Query's test of one entity.
    using QueryWhere = std::function<bool(const Record &record)>;

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
    /*!
        An item of one of several entity types (an activity feed, search results), told apart by
        its field \a typeField: `{"type": "comment", ...}` is normalized with the member named
        "comment". Each member is an Entity schema. Usable wherever a schema is (Array,
        Collection, Object, Values, nested fields). A value whose type names no member is a
        SchemaError naming the value and the known types; nothing is written.
        (`union` is a C++ keyword, hence the name.)
    */
    static Schema unionOf(const UnionMembers &members, const QString &typeField);
    //! A Union whose member \a pick chooses from the value (no type field needed).
    static Schema unionOf(const UnionMembers &members, UnionPick pick);
    /*!
        An object whose every value has the schema \a item, keyed by anything (ids: `{"12":
        {...}, "13": {...}}`): entities, unions, or plain values with a None item. Read back as
        a QVariantMap with the same keys (a JS object in QML).
    */
    static Schema values(const Schema &item);
    /*!
        Every stored entity of \a entity's type (from any request, push or write) as a list,
        read with Store::query() / Controller::get(): in pk order, or in \a order. Memoized: a
        read after no change of that type is the same shared list; a change re-reads the
        changed entity only, then rebuilds the list of memoized Records.
    */
    static Schema all(const Schema &entity, AllOrder order = {});
    /*!
        A memoized computation over what \a input (an All, or another Query) reads: \a compute
        runs only when that value changed (a read after no change is the value computed last).
    */
    static Schema query(const Schema &input, QueryCompute compute);
    /*!
        The number of entities of \a all (an All schema) for which \a where is true, kept up
        to date entity by entity: a change of one entity evaluates \a where for that entity
        only.
    */
    static Schema queryCount(const Schema &all, QueryWhere where);

    Kind kind() const;
    bool isNull() const;
    //! Entity and Invalidate: the entity key. Collection: "[<entity key>]". Array: "[<item key>]".
    //! Union: "Union(<name>:<entity key>,...;<type field>)": two unions of other members (or
    //! another type field) never share a key, nor the collections made of them. Values:
    //! "{<item key>}". All: "All(<entity key>)". Query: "Query(<input key>)".
    QString key() const;
    //! The entity of an Entity, Invalidate, Collection or Array-of-entity schema.
    EntitySchema entitySchema() const;
    //! Array, Collection and Values: the schema of one item; a Collection of a Union: the Union.
    Schema itemSchema() const;
    //! All: its order (null: pk order). Query: its computation or its test.
    AllOrder allOrder() const;
    QueryCompute queryCompute() const;
    QueryWhere queryWhere() const;
    //! Union: its members, in the order given.
    UnionMembers unionMembers() const;
    //! Union: its type field (empty for the function form).
    QString unionField() const;
    //! Union: the member name of entity key \a entityKey ("comment" for "Comment"), else empty.
    QString unionMemberName(const QString &entityKey) const;
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
    void swap(Schema &other) noexcept { d.swap(other.d); }
    friend bool operator==(const Schema &a, const Schema &b) { return a.d == b.d; }
    friend bool operator!=(const Schema &a, const Schema &b) { return a.d != b.d; }

private:
    friend class SchemaPrivate;
    explicit Schema(SchemaPrivate *data);
    QExplicitlySharedDataPointer<SchemaPrivate> d;
};

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::Schema)
