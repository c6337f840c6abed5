// QML's push sources: `WebSocketSource { url }` and `EventSource { url }`, each with the
// LiveFeed that writes its messages into the Controller's store, usable as
// `Live { source: socket }` (docs/realtime.md, "QML").
#pragma once

#include <DataClient/eventsource.h>
#include <DataClient/livefeed.h>
#include <DataClient/websocketsource.h>

#include <QtCore/QPointer>
#include <QtQml/QQmlParserStatus>
#include <QtQml/qqmlregistration.h>

#include <memory>

namespace DataClient::Qml {

/*!
    What both QML sources share: the names messages use (`entities`: Entity objects, named by
    their key; `lists`: name -> a Resource's getList, for "added" and "refetch"), the Controller
    (the Controller singleton's by default) and the feed, made at componentComplete().
*/
class LiveBinding
{
public:
    virtual ~LiveBinding() = default;
    LiveFeed *feed() const { return m_feed.get(); }

protected:
    //! Makes the feed of \a source (its owner) once the QML properties are set.
    void bind(LiveSource *source);
    void setEntities(LiveSource *owner, const QVariantList &entities);
    void setLists(LiveSource *owner, const QVariantMap &lists);
    void setControllerObject(LiveSource *owner, QObject *controller);
    LiveMapping mapping(const LiveSource *owner) const;

    QVariantList m_entities;
    QVariantMap m_lists;
    QPointer<Controller> m_controller;
    std::unique_ptr<LiveFeed> m_feed;
    bool m_complete = false;
};

#define DATACLIENT_QML_LIVE_SOURCE_PROPERTIES                                                      \
    Q_PROPERTY(QVariantList entities READ entities WRITE setEntities NOTIFY mappingChanged)        \
    Q_PROPERTY(QVariantMap lists READ lists WRITE setLists NOTIFY mappingChanged)                  \
    Q_PROPERTY(                                                                                    \
        QObject *controller READ controllerObject WRITE setControllerObject NOTIFY mappingChanged) \
    Q_PROPERTY(DataClient::LiveFeed *feed READ feed NOTIFY feedChanged)                            \
public:                                                                                            \
    QVariantList entities() const                                                                  \
    {                                                                                              \
        return m_entities;                                                                         \
    }                                                                                              \
    void setEntities(const QVariantList &entities)                                                 \
    {                                                                                              \
        LiveBinding::setEntities(this, entities);                                                  \
    }                                                                                              \
    QVariantMap lists() const                                                                      \
    {                                                                                              \
        return m_lists;                                                                            \
    }                                                                                              \
    void setLists(const QVariantMap &lists)                                                        \
    {                                                                                              \
        LiveBinding::setLists(this, lists);                                                        \
    }                                                                                              \
    QObject *controllerObject() const;                                                             \
    void setControllerObject(QObject *controller)                                                  \
    {                                                                                              \
        LiveBinding::setControllerObject(this, controller);                                        \
    }                                                                                              \
    void classBegin() override { }                                                                 \
    void componentComplete() override                                                              \
    {                                                                                              \
        bind(this);                                                                                \
        Q_EMIT feedChanged();                                                                      \
    }                                                                                              \
Q_SIGNALS:                                                                                         \
    void mappingChanged();                                                                         \
    void feedChanged();                                                                            \
                                                                                                   \
private:

//! `WebSocketSource { url: "wss://..."; entities: [todo] }`
class DATACLIENT_QML_EXPORT QmlWebSocketSource : public DataClient::WebSocketSource,
                                                 public QQmlParserStatus,
                                                 public LiveBinding
{
    Q_OBJECT
    QML_NAMED_ELEMENT(WebSocketSource)
    Q_INTERFACES(QQmlParserStatus)
    DATACLIENT_QML_LIVE_SOURCE_PROPERTIES

public:
    explicit QmlWebSocketSource(QObject *parent = nullptr) : WebSocketSource(parent) { }
    ~QmlWebSocketSource() override;
};

//! `EventSource { url: "https://.../events"; entities: [todo] }`
class DATACLIENT_QML_EXPORT QmlEventSource : public DataClient::EventSource,
                                             public QQmlParserStatus,
                                             public LiveBinding
{
    Q_OBJECT
    QML_NAMED_ELEMENT(EventSource)
    Q_INTERFACES(QQmlParserStatus)
    DATACLIENT_QML_LIVE_SOURCE_PROPERTIES

public:
    explicit QmlEventSource(QObject *parent = nullptr) : EventSource(parent) { }
    ~QmlEventSource() override;
};

#undef DATACLIENT_QML_LIVE_SOURCE_PROPERTIES

} // namespace DataClient::Qml
