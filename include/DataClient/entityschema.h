// EntitySchema: the schema of one record type: key, primary key, field
// deserializers, nested schemas, process and merge hooks.
#pragma once

#include <DataClient/deserializer.h>
#include <DataClient/global.h>
#include <DataClient/params.h>
#include <DataClient/rowlist.h>

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaObject>
#include <QtCore/QSharedDataPointer>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QVariant>

#include <functional>

namespace DataClient {

class Schema;
class EntitySchemaPrivate;

namespace detail {
DATACLIENT_SCHEMA_EXPORT bool readGadget(const QMetaObject *metaObject, void *gadget,
                                         const QVariant &value, QString *error);
DATACLIENT_SCHEMA_EXPORT QVariantMap writeGadget(const QMetaObject *metaObject, const void *gadget);
//! The pk() of a gadget of the type fromGadget() was given.
using GadgetPk = QString (*)(const void *gadget);
//! The properties of gadget \a type whose change alone changes its pk() (docs/schemas.md).
DATACLIENT_SCHEMA_EXPORT QStringList gadgetPkFields(const QMetaObject *metaObject, QMetaType type,
                                                    GadgetPk pk);
} // namespace detail

/*!
    The schema of one entity type. A cheap-to-copy immutable value: the with*() functions return
    a modified copy. Two ways to get one:

    \code
    // dynamic (also what QML uses)
    const auto user = EntitySchema(u"User"_s);                         // pk field "id"
    const auto todo = EntitySchema(u"Todo"_s)
                          .withField(u"createdAt"_s, Deserialize::dateTime())
                          .withNested(u"author"_s, Schema::entity(user));
    // from a Q_GADGET with `static constexpr auto key = "Todo";` and `QString pk() const`
    const auto typed = EntitySchema::fromGadget<Todo>();
    \endcode

    Schemas that refer to each other (User.todos <-> Todo.author) use the lazy withNested()
    overload, which takes a function returning the schema, so the cycle is resolved on use.
*/
class DATACLIENT_SCHEMA_EXPORT EntitySchema
{
public:
    //! Primary key of a serialized record; an empty string means "none" (an error when writing).
    //! Give the fields it reads (the pkFields argument) so that a record without them is refused
    //! rather than stored under whatever the function makes of their absence.
    using PkFunction = std::function<QString(const QJsonObject &value)>;
    //! Transforms each serialized record before it is normalized (the process hook, per entity):
    //! \a parent is the enclosing value (null at the top), \a args the call's parameters.
    using ProcessFunction = std::function<QJsonObject(
        const QJsonObject &value, const QJsonValue &parent, const Params &args)>;
    //! Combines a stored record with an incoming one of the same pk. Default: shallow merge
    //! (incoming fields replace stored ones whole; fields it lacks are kept).
    using MergeFunction
        = std::function<QJsonObject(const QJsonObject &existing, const QJsonObject &incoming)>;
    using SchemaFunction = std::function<Schema()>;
    //! Checks a serialized record before anything is written: returns the name of the field
    //! that is missing or wrong (the answer is then refused with a SchemaError naming it and
    //! nothing is written), or an empty string to accept it.
    using ValidateFunction = std::function<QString(const QJsonObject &value)>;

    //! A null schema (isNull()).
    EntitySchema();
    //! An entity named \a key whose primary key is the field \a pkField (strings and integral
    //! numbers accepted; numbers are written in decimal).
    explicit EntitySchema(const QString &key, const QString &pkField = QStringLiteral("id"));
    //! An entity whose primary key \a pk computes from the fields \a pkFields (when given, a
    //! record that lacks one of them, or has it null, has no pk).
    EntitySchema(const QString &key, PkFunction pk, const QStringList &pkFields = {});
    EntitySchema(const EntitySchema &other);
    EntitySchema(EntitySchema &&other) noexcept;
    EntitySchema &operator=(const EntitySchema &other);
    EntitySchema &operator=(EntitySchema &&other) noexcept;
    ~EntitySchema();

    EntitySchema withPrimaryKey(const QString &pkField) const;
    EntitySchema withPrimaryKey(PkFunction pk, const QStringList &pkFields = {}) const;
    EntitySchema withField(const QString &field, const Deserializer &deserializer) const;
    EntitySchema withNested(const QString &field, const Schema &schema) const;
    //! Lazy nested schema, for entity types that refer to each other.
    EntitySchema withNested(const QString &field, SchemaFunction schema) const;
    EntitySchema withProcess(ProcessFunction process) const;
    EntitySchema withMerge(MergeFunction merge) const;
    /*!
        Orders the writes of one record by what the server says, not by when they arrive: the
        field (a number, or a string such as an ISO 8601 updated-at) grows with every change of
        the record on the server. An incoming record whose version is below the stored one's
        only fills the fields the stored record lacks, whether it is the answer of a fetch that
        started before a push, or a push that arrives late; one with an equal or higher version
        replaces the stored fields. When either record has no version (or they cannot be
        compared: a number and a string), the date rule applies: the write dated later (a
        request's start, a push's arrival) wins.
    */
    EntitySchema withVersionField(const QString &field) const;
    //! The same decision made by \a shouldUpdate(existing, incoming): true when the incoming
    //! record is at least as new as the stored one. Takes precedence over withVersionField().
    using ShouldUpdateFunction
        = std::function<bool(const QJsonObject &existing, const QJsonObject &incoming)>;
    EntitySchema withShouldUpdate(ShouldUpdateFunction shouldUpdate) const;
    QString versionField() const;
    //! Values of fields the record lacks, added when reading (a gadget's defaults).
    EntitySchema withDefaults(const QVariantMap &defaults) const;
    //! false: records of this key stay out of the persisted store (docs/offline.md: tokens,
    //! private messages); lists and results that hold them show them missing after a restart.
    EntitySchema withPersist(bool persist) const;
    //! Fields (named in the app's case) whose contents keep their keys as the server wrote them
    //! when the endpoint's `keyCase` converts keys: a map keyed by ids, a JSON blob. The field's
    //! own name is converted like any other.
    EntitySchema withKeysKept(const QStringList &fields) const;
    QStringList keysKept() const;
    //! Refuses answers whose records lack what the app needs (see ValidateFunction).
    EntitySchema withValidate(ValidateFunction validate) const;
    //! Unique fields (a username, a slug) the store can find a record by without its pk:
    //! Store::query() with one of them in its arguments. The index follows changes of the field.
    EntitySchema withIndexes(const QStringList &fields) const;

    bool isNull() const;
    QString key() const;
    //! The pk field name, or empty when the pk is a function.
    QString pkField() const;
    //! The fields the pk is computed from: the pk field; with a pk function those given with
    //! it (for a gadget, its pkFields or the properties its pk() reads); empty when unknown.
    QStringList pkFields() const;
    //! The pkFields() that \a value lacks or has null, or (for a gadget) has in a form that does
    //! not convert to the property's type: its pk cannot be computed from \a value.
    QStringList missingPkFields(const QJsonObject &value) const;
    //! The record's pk, or an empty string when it has none (also when missingPkFields()).
    QString pk(const QJsonObject &value) const;
    Deserializer deserializer(const QString &field) const;
    QStringList deserializedFields() const;
    Schema nested(const QString &field) const;
    QStringList nestedFields() const;
    bool hasProcess() const;
    QJsonObject process(const QJsonObject &value, const QJsonValue &parent,
                        const Params &args) const;
    bool hasMerge() const;
    QJsonObject merge(const QJsonObject &existing, const QJsonObject &incoming) const;
    QVariantMap defaults() const;
    //! Whether records of this key are persisted (default true; withPersist()).
    bool persists() const;
    bool hasValidate() const;
    //! The field \a value is refused for (withValidate()), or empty when accepted.
    QString validate(const QJsonObject &value) const;
    QStringList indexes() const;
    //! The Q_GADGET this schema was made from (fromGadget()), else nullptr.
    const QMetaObject *gadget() const;

    //! Same definition (copies of one schema compare equal).
    friend bool operator==(const EntitySchema &a, const EntitySchema &b) { return a.d == b.d; }
    friend bool operator!=(const EntitySchema &a, const EntitySchema &b) { return a.d != b.d; }

    /*!
        The schema of Q_GADGET \c T: its Q_PROPERTYs are the fields; QDateTime properties get
        Deserialize::dateTime() and DataClient::Decimal ones Deserialize::decimal(); default
        values come from a default-constructed T. \c T needs `static constexpr auto key = "Name";`
        and either `static constexpr auto primaryKey = "field";` or `QString pk() const`.
        A record without the fields pk() reads has no pk (it is refused, never stored under the
        pk of T's defaults): those fields are `static constexpr const char *pkFields[] = {...};`
        when T declares it, else the properties whose change alone changes pk() (each property of
        a default-constructed T changed once, when the schema is made). Nested entities are
        added with withNested().
    */
    template<typename T> static EntitySchema fromGadget()
    {
        PkFunction pk;
        QString pkField;
        QStringList pkFields;
        if constexpr (requires { T::primaryKey; }) {
            pkField = QString::fromUtf8(T::primaryKey);
        } else {
            pk = [](const QJsonObject &value) {
                T gadget {}; // fields that do not convert keep their defaults: only pk() matters
                detail::readGadget(&T::staticMetaObject, &gadget, value.toVariantMap(), nullptr);
                return gadget.pk();
            };
            if constexpr (requires { T::pkFields; }) {
                for (const char *field : T::pkFields)
                    pkFields.append(QString::fromUtf8(field));
            } else {
                pkFields = detail::gadgetPkFields(
                    &T::staticMetaObject, QMetaType::fromType<T>(),
                    [](const void *gadget) { return static_cast<const T *>(gadget)->pk(); });
            }
        }
        const T defaults {};
        return fromMetaObject(QString::fromUtf8(T::key), &T::staticMetaObject, pkField,
                              std::move(pk), detail::writeGadget(&T::staticMetaObject, &defaults),
                              pkFields);
    }

    //! \a pkFields: the fields \a pk reads (see pkFields()); ignored with a \a pkField.
    static EntitySchema fromMetaObject(const QString &key, const QMetaObject *metaObject,
                                       const QString &pkField, PkFunction pk,
                                       const QVariantMap &defaults,
                                       const QStringList &pkFields = {});

private:
    friend class EntitySchemaPrivate;
    explicit EntitySchema(QExplicitlySharedDataPointer<EntitySchemaPrivate> data);
    QExplicitlySharedDataPointer<EntitySchemaPrivate> d;
};

/*!
    Builds gadget \c T from a denormalized value (a QVariantMap, or a record read from the
    store). Fields convert to the property types; missing fields keep T's defaults.
*/
template<typename T> T fromVariant(const QVariant &value, QString *error = nullptr)
{
    T gadget {};
    detail::readGadget(&T::staticMetaObject, &gadget, value, error);
    return gadget;
}

//! fromVariant() for each item of a list result.
template<typename T> QList<T> fromVariantList(const QVariant &value, QString *error = nullptr)
{
    QList<T> items;
    bool isList = false;
    RowList list = rowsOf(value, &isList); // a Collection's rows or a QVariantList: not copied
    if (!isList)
        list = RowList(value.toList()); // anything else that converts to a list
    items.reserve(list.size());
    for (const QVariant &item : list)
        items.append(fromVariant<T>(item, error));
    return items;
}

} // namespace DataClient
