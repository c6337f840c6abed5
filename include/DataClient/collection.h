// Collection customization (docs/schemas.md): which arguments identify a collection and which
// stored
// collections a pushed entity joins.
#pragma once

#include <DataClient/global.h>
#include <DataClient/params.h>

#include <QtCore/QJsonObject>
#include <QtCore/QString>

namespace DataClient {

/*!
    The customization class of Schema::collection(). Subclass it and override
    nonFilterArgumentKeys() (or matches()) to change which stored collections receive a pushed
    entity, then pass `std::make_shared<MyCollection>()` to Schema::collection().

    A collection's identity is its arguments (the getList parameters), values stringified and
    keys sorted: argumentsKey({{"z", "1"}, {"a", 2}}) == R"({"a":"2","z":"1"})".
*/
class DATACLIENT_SCHEMA_EXPORT Collection
{
public:
    Collection() = default;
    virtual ~Collection();

    //! True when \a key does not decide membership (an ordering key): a pushed entity joins
    //! collections whatever their value for it. Default: keys starting with "order".
    virtual bool nonFilterArgumentKeys(const QString &key) const;

    //! The push filter: should an entity pushed with \a callArgs (and whose value is \a item)
    //! join the stored collection whose arguments are \a collectionArgs? Default: every
    //! collection argument is a non-filter key or equals (as strings) the same key of
    //! \a callArgs or of \a item.
    virtual bool matches(const Params &collectionArgs, const Params &callArgs,
                         const QJsonObject &item) const;

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
};

} // namespace DataClient
