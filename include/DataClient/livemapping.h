// LiveMapping: how a pushed message becomes store writes (docs/realtime.md, "Messages").
#pragma once

#include <DataClient/global.h>
#include <DataClient/livesource.h>
#include <DataClient/params.h>
#include <DataClient/schema.h>

#include <QtCore/QHash>
#include <QtCore/QJsonValue>
#include <QtCore/QList>

#include <functional>

namespace DataClient {

class RestEndpoint;
using EndpointPtr = std::shared_ptr<RestEndpoint>;

//! One store write a message asks for.
struct DATACLIENT_CONTROLLER_EXPORT LiveAction
{
    enum class Kind {
        Update, //!< upsert the entities in data (an object or an array), nested ones normalized
        Remove, //!< delete the entity with pk everywhere (as a delete endpoint's answer does)
        Add, //!< push (or unshift) data to every stored list of a collection that args match
        Refetch, //!< refetch endpoint with params (joins a request in flight)
    };
    Kind kind = Kind::Update;
    Schema schema; //!< the Entity (Update, Remove) or the Collection (Add)
    QJsonValue data;
    QString pk;
    Params args; //!< Add: the arguments the added item is filed under
    bool prepend = false; //!< Add: unshift instead of push
    EndpointPtr endpoint; //!< Refetch
    Params params; //!< Refetch

    static LiveAction update(const Schema &entity, const QJsonValue &data);
    static LiveAction remove(const Schema &entity, const QString &pk);
    static LiveAction add(const Schema &collection, const Params &args, const QJsonValue &item,
                          bool prepend = false);
    static LiveAction refetch(const EndpointPtr &endpoint, const Params &params = {});
};

//! What was wrong with a message: its kind (counted, and logged once per kind) and the detail.
struct DATACLIENT_CONTROLLER_EXPORT LiveMessageError
{
    QString kind;
    QString message;
};

/*!
    Turns messages into actions. Without a mapper it reads the conventional envelope (one JSON
    object per message):

    | type        | other members                                  | action                     |
    |-------------|------------------------------------------------|----------------------------|
    | `"updated"` | `entity` (a name given to addEntity()), `data` (object or array) | Update    |
    | `"deleted"` | `entity`, `pk` (a string or number)            | Remove                     |
    | `"added"`   | `collection` (addCollection()), `data`, optional `args` (object), `position` (`"start"`/`"end"`) | Add |
    | `"refetch"` | `endpoint` (addEndpoint()), optional `params`  | Refetch                    |

    `"created"` is read as `"updated"`. Anything else is malformed (not JSON, not an object, an
    unknown type, entity, collection or endpoint, a missing pk or data): nothing is written.
*/
class DATACLIENT_CONTROLLER_EXPORT LiveMapping
{
public:
    using Mapper = std::function<QList<LiveAction>(const LiveMessage &, LiveMessageError *)>;
    //! The message to send when a view starts (\a subscribe) or stops showing a key the feed
    //! watches; empty: none.
    using SubscribeMessage
        = std::function<QByteArray(const EndpointPtr &, const Params &, bool subscribe)>;

    void addEntity(const QString &name, const Schema &entity);
    void addCollection(const QString &name, const Schema &collection);
    void addEndpoint(const QString &name, const EndpointPtr &endpoint);
    Schema entity(const QString &name) const { return m_entities.value(name); }

    //! Replaces the envelope reading (the application's own message shapes).
    void setMapper(Mapper mapper) { m_mapper = std::move(mapper); }
    void setSubscribeMessage(SubscribeMessage hook) { m_subscribe = std::move(hook); }
    //! The endpoints whose shown keys a reconnect that cannot resume refetches (once each).
    void setCovers(const QList<EndpointPtr> &endpoints) { m_covers = endpoints; }
    QList<EndpointPtr> covers() const { return m_covers; }

    //! The actions of \a message (the mapper's, or the envelope's); on a malformed one, none
    //! and \a error filled.
    QList<LiveAction> map(const LiveMessage &message, LiveMessageError *error) const;
    QList<LiveAction> mapEnvelope(const LiveMessage &message, LiveMessageError *error) const;
    QByteArray subscribeMessage(const EndpointPtr &endpoint, const Params &params,
                                bool subscribe) const;

private:
    QHash<QString, Schema> m_entities;
    QHash<QString, Schema> m_collections;
    QHash<QString, EndpointPtr> m_endpoints;
    QList<EndpointPtr> m_covers;
    Mapper m_mapper;
    SubscribeMessage m_subscribe;
};

} // namespace DataClient
