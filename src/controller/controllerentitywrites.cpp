// Controller writes of entities without an endpoint: set() and remove(), for push sources,
// managers and apps (docs/controller.md, "Writing entities without an endpoint").
#include "controller_p.h"
#include "entitywrites_p.h"
#include "expirypolicy_p.h"
#include "logging_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QThread>

namespace DataClient {

using detail::Lifecycle;

namespace {

//! The Entity schema of what set() and remove() accept: an Entity, or an Array or Collection of
//! one; a None schema for anything else.
Schema entityOf(const Schema &schema)
{
    if (schema.kind() == Schema::Kind::Entity)
        return schema.entitySchema().isNull() ? Schema() : schema;
    if (schema.kind() == Schema::Kind::Array || schema.kind() == Schema::Kind::Collection) {
        const Schema item = schema.itemSchema();
        if (item.kind() == Schema::Kind::Entity && !item.entitySchema().isNull())
            return item;
    }
    return {};
}

QString kindName(const Schema &schema)
{
    switch (schema.kind()) {
    case Schema::Kind::None:
        return QStringLiteral("a null schema");
    case Schema::Kind::Entity:
        return QStringLiteral("an Entity schema without an entity type");
    case Schema::Kind::Array:
        return QStringLiteral("an Array schema of %1").arg(kindName(schema.itemSchema()));
    case Schema::Kind::Object:
        return QStringLiteral("an Object schema");
    case Schema::Kind::Collection:
        return QStringLiteral("a Collection schema");
    case Schema::Kind::Invalidate:
        return QStringLiteral("an Invalidate schema");
    case Schema::Kind::Union:
        return QStringLiteral("a Union schema (set() each member's entity instead)");
    case Schema::Kind::Values:
        return QStringLiteral("a Values schema");
    case Schema::Kind::All:
    case Schema::Kind::Query:
        return QStringLiteral("a read-only %1 schema").arg(schema.key());
    }
    return {};
}

//! Checks the shape of a set() value: an object, or an array of objects (pks are the store's).
std::optional<SchemaError> checkShape(const QString &entityKey, const QJsonValue &value)
{
    static const QString expected = QStringLiteral("an object, or an array of objects");
    if (value.isObject())
        return std::nullopt;
    if (!value.isArray())
        return SchemaError(entityKey, QString(), expected, SchemaError::describe(value));
    const QJsonArray items = value.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (!items.at(i).isObject()) {
            return SchemaError(entityKey, QStringLiteral("[%1]").arg(i),
                               QStringLiteral("an object"), SchemaError::describe(items.at(i)));
        }
    }
    return std::nullopt;
}

std::optional<SchemaError> checkDate(const QString &entityKey, qint64 date)
{
    if (date >= 0)
        return std::nullopt;
    return SchemaError(entityKey, QString(),
                       QStringLiteral("a date of 0 (now) or more, in ms since the epoch on the "
                                      "Controller's clock"),
                       QString::number(date));
}

//! The refusal of \a caller: warned once, returned with nothing written.
StoreWrite refuse(const char *caller, const SchemaError &error)
{
    qCWarning(lcController).noquote()
        << QStringLiteral("Controller::%1(%2): %3")
               .arg(QLatin1StringView(caller), error.entityKey(), error.message());
    return {{}, error};
}

} // namespace

namespace detail {

StoreWrite writeEntities(ControllerPrivate &d, const Schema &schema, const QJsonValue &value,
                         qint64 date)
{
    const Schema entity = entityOf(schema);
    if (entity.isNull()) {
        return {{},
                SchemaError(schema.key(), QString(),
                            QStringLiteral("an Entity schema, or an Array or Collection of "
                                           "one (e.g. Schema::entity(todo))"),
                            kindName(schema))};
    }
    const QString key = entity.key();
    if (auto error = checkDate(key, date))
        return {{}, *error};
    if (auto error = checkShape(key, value))
        return {{}, *error};
    // Entities only: a Collection schema would replace the stored list of no arguments.
    const Schema written = value.isObject()
        ? entity
        : (schema.kind() == Schema::Kind::Array ? schema : Schema::array(entity));
    d.each(Lifecycle::Read, [&](Lifecycle &manager) { manager.writingSchema(written); });
    const qint64 when = date > 0 ? date : d.nextRequestDate();
    const qint64 fetchedAt = d.now();
    const Meta meta {when, fetchedAt, fetchedAt + detail::ExpiryPolicy::dataExpiryLength(0)};
    StoreWrite write = d.store->setResponse(QString(), written, {}, value, meta);
    if (write.error)
        return write;
    // Like an answer: newer than the guesses of changes sent before it about these entities.
    write.changes.unite(d.guesses.remove(0, when, write.changes.entities));
    return write;
}

StoreWrite removeEntity(ControllerPrivate &d, const Schema &schema, const QString &pk, qint64 date)
{
    if (schema.kind() != Schema::Kind::Entity || schema.entitySchema().isNull()) {
        return {{},
                SchemaError(schema.key(), QString(),
                            QStringLiteral("an Entity schema (e.g. Schema::entity(todo))"),
                            kindName(schema))};
    }
    const EntityRef ref {schema.key(), pk};
    if (auto error = checkDate(ref.key, date))
        return {{}, *error};
    if (pk.isEmpty()) {
        return {{},
                SchemaError(ref.key, QString(),
                            QStringLiteral("the primary key of a stored %1").arg(ref.key),
                            QStringLiteral("an empty key"))};
    }
    const Meta stored = d.store->entityMeta(ref);
    const qint64 when = date > 0 ? date : d.nextRequestDate();
    if (stored.date > when) {
        // The race rule: data newer than the removal (an answer, a set()) stays.
        qCDebug(lcController).noquote()
            << "removing" << ref.key << pk << ": dated before the stored entity; kept";
        return {};
    }
    d.each(Lifecycle::Read, [&](Lifecycle &manager) { manager.writingSchema(schema); });
    // What a delete endpoint's answer does: the entity is deleted, every list and view drops it.
    const Schema invalidate = Schema::invalidate(schema);
    StoreWrite write
        = d.store->setResponse(QString(), invalidate, {}, QJsonValue(pk), {when, d.now(), 0});
    if (write.error)
        return write;
    write.changes.unite(d.guesses.remove(0, when, EntityRefSet {ref}));
    return write;
}

StoreWrite addToCollection(ControllerPrivate &d, const Schema &collection, const Params &args,
                           const QJsonValue &value, bool prepend, qint64 date)
{
    if (collection.kind() != Schema::Kind::Collection) {
        return {{},
                SchemaError(collection.key(), QString(),
                            QStringLiteral("a Collection schema (e.g. Schema::collection(...))"),
                            kindName(collection))};
    }
    const Schema written = prepend ? collection.unshift() : collection.push();
    d.each(Lifecycle::Read, [&](Lifecycle &manager) { manager.writingSchema(written); });
    const qint64 when = date > 0 ? date : d.nextRequestDate();
    const qint64 fetchedAt = d.now();
    const Meta meta {when, fetchedAt, fetchedAt + detail::ExpiryPolicy::dataExpiryLength(0)};
    StoreWrite write = d.store->setResponse(QString(), written, args, value, meta);
    if (!write.error)
        write.changes.unite(d.guesses.remove(0, when, write.changes.entities));
    return write;
}

} // namespace detail

StoreWrite Controller::set(const Schema &schema, const QJsonValue &value, qint64 date)
{
    DATACLIENT_ASSERT_THREAD(this);
    StoreWrite write = detail::writeEntities(*d, schema, value, date);
    if (write.error)
        return refuse("set", *write.error);
    d->emitChanged(write.changes,
                   detail::ChangeOrigin::Write); // last: a slot may destroy the Controller
    return write;
}

StoreWrite Controller::remove(const EntitySchema &entity, const QString &pk, qint64 date)
{
    return remove(entity.isNull() ? Schema() : Schema::entity(entity), pk, date);
}

StoreWrite Controller::remove(const Schema &schema, const QString &pk, qint64 date)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (schema.kind() == Schema::Kind::Entity && !schema.entitySchema().isNull() && !pk.isEmpty()
        && date >= 0) {
        const EntityRef ref {schema.key(), pk};
        // Known: stored, or removed before (a tombstone keeps its date).
        if (d->store->entityMeta(ref).date == 0 && !d->store->entity(ref)) {
            return refuse(
                "remove",
                SchemaError(ref.key, QString(),
                            QStringLiteral("the primary key of a stored %1").arg(ref.key),
                            QStringLiteral("\"%1\", which the store does not hold").arg(pk)));
        }
    }
    StoreWrite write = detail::removeEntity(*d, schema, pk, date);
    if (write.error)
        return refuse("remove", *write.error);
    d->emitChanged(write.changes,
                   detail::ChangeOrigin::Write); // last: a slot may destroy the Controller
    return write;
}

} // namespace DataClient
