// Collection customization (docs/schemas.md): which arguments identify a collection and which
// stored
// collections a pushed entity joins.
#pragma once

#include <DataClient/global.h>
#include <DataClient/params.h>

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace DataClient {

/*!
    The customization class of Schema::collection(). Subclass it and override
    nonFilterArgumentKeys() (or matches()) to change which stored collections receive a pushed
    entity, then pass `std::make_shared<MyCollection>()` to Schema::collection().

    A collection's identity is its arguments (the getList parameters), values stringified and
    keys sorted: argumentsKey({{"z", "1"}, {"a", 2}}) == R"({"a":"2","z":"1"})".

    Stored collections follow their entities (docs/collections.md): when a committed change (an
    answer, an optimistic guess, Controller::set()) makes an entity stop fitting a stored
    collection's arguments it leaves that list, and when it makes the entity start fitting one
    it joins it (appended, or where lessThan() puts it). fits() decides, from the fields
    filterFields() names; `std::make_shared<Collection>(Collection::KeepsAnswers)` turns this off
    for a collection whose lists only the server can judge.
*/
class DATACLIENT_SCHEMA_EXPORT Collection
{
public:
    //! Whether stored collections of this type follow their entities' changes.
    enum Following { FollowsChanges, KeepsAnswers };
    //! Whether an entity's record belongs in a stored collection (fits()).
    enum class Fit {
        Belongs,
        DoesNotBelong,
        CannotTell, //!< a filter field is missing: the entity stays where it is
    };

    explicit Collection(Following following = FollowsChanges) : m_following(following) { }
    virtual ~Collection();

    bool followsChanges() const { return m_following == FollowsChanges; }

    //! True when \a key does not decide membership (an ordering key): a pushed entity joins
    //! collections whatever their value for it. Default: keys starting with "order".
    virtual bool nonFilterArgumentKeys(const QString &key) const;

    //! The push filter: should an entity pushed with \a callArgs (and whose value is \a item)
    //! join the stored collection whose arguments are \a collectionArgs? Default: every
    //! collection argument is a non-filter key or equals (as strings) the same key of
    //! \a callArgs or of \a item.
    virtual bool matches(const Params &collectionArgs, const Params &callArgs,
                         const QJsonObject &item) const;

    //! Re-filtering: does \a item (an entity's record after a committed change) belong in the
    //! stored collection whose arguments are \a collectionArgs? Default: every argument that is
    //! not a nonFilterArgumentKeys() equals (as strings) the item's field of the same name, or
    //! of the same name in the other key case (`user_id` for `userId` and back); CannotTell when
    //! the item lacks such a field. Override it (with filterFields()) for ranges, "contains" and
    //! the like; return CannotTell for what only the server can judge.
    virtual Fit fits(const Params &collectionArgs, const QJsonObject &item) const;
    //! The fields fits() and lessThan() read for \a collectionArgs: a change to any other field
    //! never moves a row. Default: the filter arguments' keys, in both key cases.
    virtual QStringList filterFields(const Params &collectionArgs) const;
    //! The order of an ordered collection: true when \a a comes before \a b. A joining entity
    //! goes before the first row it comes before; a row whose change puts it out of order
    //! moves. Default: false (no order: a joining entity is appended, nothing moves).
    virtual bool lessThan(const Params &collectionArgs, const QJsonObject &a,
                          const QJsonObject &b) const;
    //! Whether lessThan() orders the collection of \a collectionArgs. Default: false.
    virtual bool isOrdered(const Params &collectionArgs) const;

    //! \a key in the other key case: "user_id" for "userId", "userId" for "user_id", empty when
    //! it has no other form.
    static QString otherKeyCase(const QString &key);

    //! Arguments of a collection nested in an entity (a User's `todos`), so it shares storage
    //! with the top-level list of the same arguments. Default: {"<parentKey with a lower-case
    //! first letter>Id": parentPk}, e.g. {"userId": "1"} for User 1.
    virtual Params nestedArguments(const QString &parentKey, const QString &parentPk,
                                   const QJsonObject &parent) const;

    //! Canonical identity of \a args: compact JSON object, keys sorted, values as strings
    //! (lists joined with ","), null values dropped. {} for no arguments.
    static QString argumentsKey(const Params &args);
    //! The inverse of argumentsKey() (values come back as strings).
    static Params argumentsFromKey(const QString &key);
    //! How a parameter value compares: its string form ("5" for 5, "false" for false).
    static QString argumentString(const QVariant &value);

private:
    Following m_following = FollowsChanges;
};

} // namespace DataClient
