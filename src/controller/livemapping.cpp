// The conventional message envelope read into store writes; apps replace it with a mapper.
#include <DataClient/livemapping.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace DataClient {

LiveAction LiveAction::update(const Schema &entity, const QJsonValue &data)
{
    LiveAction action;
    action.kind = Kind::Update;
    action.schema = entity;
    action.data = data;
    return action;
}

LiveAction LiveAction::remove(const Schema &entity, const QString &pk)
{
    LiveAction action;
    action.kind = Kind::Remove;
    action.schema = entity;
    action.pk = pk;
    return action;
}

LiveAction LiveAction::add(const Schema &collection, const Params &args, const QJsonValue &item,
                           bool prepend)
{
    LiveAction action;
    action.kind = Kind::Add;
    action.schema = collection;
    action.args = args;
    action.data = item;
    action.prepend = prepend;
    return action;
}

LiveAction LiveAction::refetch(const EndpointPtr &endpoint, const Params &params)
{
    LiveAction action;
    action.kind = Kind::Refetch;
    action.endpoint = endpoint;
    action.params = params;
    return action;
}

void LiveMapping::addEntity(const QString &name, const Schema &entity)
{
    m_entities.insert(name, entity);
}

void LiveMapping::addCollection(const QString &name, const Schema &collection)
{
    m_collections.insert(name, collection);
}

void LiveMapping::addEndpoint(const QString &name, const EndpointPtr &endpoint)
{
    m_endpoints.insert(name, endpoint);
}

QList<LiveAction> LiveMapping::map(const LiveMessage &message, LiveMessageError *error) const
{
    return m_mapper ? m_mapper(message, error) : mapEnvelope(message, error);
}

QByteArray LiveMapping::subscribeMessage(const EndpointPtr &endpoint, const Params &params,
                                         bool subscribe) const
{
    return m_subscribe ? m_subscribe(endpoint, params, subscribe) : QByteArray();
}

namespace {

QList<LiveAction> malformed(LiveMessageError *error, const QString &kind, const QString &message)
{
    if (error)
        *error = {kind, message};
    return {};
}

//! Names the known keys of \a table, for an error that says what was expected.
template<typename Table> QString known(const Table &table)
{
    QStringList names = table.keys();
    names.sort();
    return names.isEmpty() ? QStringLiteral("none is registered")
                           : QStringLiteral("known: ") + names.join(QStringLiteral(", "));
}

} // namespace

QList<LiveAction> LiveMapping::mapEnvelope(const LiveMessage &message,
                                           LiveMessageError *error) const
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(message.data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return malformed(
            error, QStringLiteral("not JSON"),
            QStringLiteral("%1 at offset %2").arg(parseError.errorString()).arg(parseError.offset));
    }
    if (!document.isObject()) {
        return malformed(error, QStringLiteral("not an envelope"),
                         QStringLiteral("expected an object with a \"type\"; got an array"));
    }
    const QJsonObject envelope = document.object();
    QString type = envelope.value(u"type").toString();
    if (type == u"created")
        type = QStringLiteral("updated");
    if (type == u"updated" || type == u"deleted") {
        const QString name = envelope.value(u"entity").toString();
        const Schema entity = m_entities.value(name);
        if (entity.isNull()) {
            return malformed(error, QStringLiteral("unknown entity"),
                             QStringLiteral("\"entity\": \"%1\" (%2; LiveMapping::addEntity())")
                                 .arg(name, known(m_entities)));
        }
        if (type == u"deleted") {
            const QJsonValue pk = envelope.value(u"pk");
            if (!pk.isString() && !pk.isDouble()) {
                return malformed(error, QStringLiteral("missing pk"),
                                 QStringLiteral("a \"deleted\" %1 without a \"pk\" (a string or "
                                                "number)")
                                     .arg(name));
            }
            return {LiveAction::remove(
                entity, pk.isString() ? pk.toString() : QString::number(pk.toDouble(), 'g', 17))};
        }
        const QJsonValue data = envelope.value(u"data");
        if (!data.isObject() && !data.isArray()) {
            return malformed(error, QStringLiteral("missing data"),
                             QStringLiteral("an \"updated\" %1 whose \"data\" is not an object "
                                            "or an array")
                                 .arg(name));
        }
        return {LiveAction::update(entity, data)};
    }
    if (type == u"added") {
        const QString name = envelope.value(u"collection").toString();
        const Schema collection = m_collections.value(name);
        if (collection.isNull()) {
            return malformed(error, QStringLiteral("unknown collection"),
                             QStringLiteral("\"collection\": \"%1\" (%2; "
                                            "LiveMapping::addCollection())")
                                 .arg(name, known(m_collections)));
        }
        const QJsonValue data = envelope.value(u"data");
        if (!data.isObject() && !data.isArray()) {
            return malformed(error, QStringLiteral("missing data"),
                             QStringLiteral("an \"added\" to %1 whose \"data\" is not an object "
                                            "or an array")
                                 .arg(name));
        }
        return {LiveAction::add(collection, envelope.value(u"args").toObject().toVariantMap(), data,
                                envelope.value(u"position").toString() == u"start")};
    }
    if (type == u"refetch") {
        const QString name = envelope.value(u"endpoint").toString();
        const EndpointPtr endpoint = m_endpoints.value(name);
        if (!endpoint) {
            return malformed(error, QStringLiteral("unknown endpoint"),
                             QStringLiteral("\"endpoint\": \"%1\" (%2; LiveMapping::addEndpoint())")
                                 .arg(name, known(m_endpoints)));
        }
        return {LiveAction::refetch(endpoint, envelope.value(u"params").toObject().toVariantMap())};
    }
    return malformed(error, QStringLiteral("not an envelope"),
                     QStringLiteral("\"type\": \"%1\"; expected \"updated\", \"created\", "
                                    "\"deleted\", \"added\" or \"refetch\"")
                         .arg(type));
}

} // namespace DataClient
