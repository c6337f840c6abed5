#include "qmllivesources.h"

#include "qmlcontrollerlookup_p.h"
#include "qmlentity.h"

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>

#include <QtQml/QJSValue>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

namespace {

QVariant plain(const QVariant &value)
{
    return value.metaType() == QMetaType::fromType<QJSValue>() ? value.value<QJSValue>().toVariant()
                                                               : value;
}

} // namespace

LiveMapping LiveBinding::mapping(const LiveSource *owner) const
{
    LiveMapping mapping;
    for (const QVariant &item : m_entities) {
        auto *entity = qobject_cast<QmlEntity *>(plain(item).value<QObject *>());
        if (!entity) {
            qmlWarning(owner) << "entities: expected Entity objects (e.g. [todo]); got "
                              << item.typeName();
            continue;
        }
        mapping.addEntity(entity->key(), entity->schema());
    }
    for (auto it = m_lists.cbegin(); it != m_lists.cend(); ++it) {
        auto *endpoint = qobject_cast<RestEndpoint *>(plain(it.value()).value<QObject *>());
        const EndpointPtr shared = endpoint ? endpoint->weak_from_this().lock() : EndpointPtr();
        if (!shared) {
            qmlWarning(owner) << "lists." << it.key()
                              << ": expected a Resource's list endpoint (e.g. todos.getList)";
            continue;
        }
        mapping.addCollection(it.key(), shared->schema());
        mapping.addEndpoint(it.key(), shared);
    }
    return mapping;
}

void LiveBinding::bind(LiveSource *source)
{
    m_complete = true;
    Controller *controller = m_controller ? m_controller.data() : controllerFor(source);
    m_feed = std::make_unique<LiveFeed>(controller, source, mapping(source));
}

void LiveBinding::setEntities(LiveSource *owner, const QVariantList &entities)
{
    m_entities = entities;
    if (m_feed)
        m_feed->setMapping(mapping(owner));
    QMetaObject::invokeMethod(owner, "mappingChanged");
}

void LiveBinding::setLists(LiveSource *owner, const QVariantMap &lists)
{
    m_lists = lists;
    if (m_feed)
        m_feed->setMapping(mapping(owner));
    QMetaObject::invokeMethod(owner, "mappingChanged");
}

void LiveBinding::setControllerObject(LiveSource *owner, QObject *object)
{
    auto *controller = qobject_cast<Controller *>(object);
    if (object && !controller) {
        qmlWarning(owner) << "controller: expected a DataClient::Controller; got a "
                          << object->metaObject()->className();
        return;
    }
    m_controller = controller;
    if (m_complete) {
        m_feed.reset();
        bind(owner);
        QMetaObject::invokeMethod(owner, "feedChanged");
    }
    QMetaObject::invokeMethod(owner, "mappingChanged");
}

QObject *QmlWebSocketSource::controllerObject() const
{
    return m_feed ? m_feed->controller() : m_controller.data();
}

QmlWebSocketSource::~QmlWebSocketSource()
{
    m_feed.reset(); // before the connection it drives
}

QObject *QmlEventSource::controllerObject() const
{
    return m_feed ? m_feed->controller() : m_controller.data();
}

QmlEventSource::~QmlEventSource()
{
    m_feed.reset();
}

} // namespace DataClient::Qml
