// `Suspense` and `Live`: declarative queries (useSuspense / useLive) that are also list models.
#pragma once

#include <DataClient/collectionmodel.h>
#include <DataClient/livefeed.h>
#include <DataClient/global.h>

#include <QtCore/QPointer>
#include <QtQml/QQmlParserStatus>
#include <QtQml/qqmlregistration.h>

namespace DataClient::Qml {

/*!
    The QML side of CollectionModel: `endpoint` takes a Resource member (todos.getList),
    `params` a JS object (null: do nothing), and the first read waits for componentComplete().
    A bad endpoint or params object is reported as `status: Error` with a message naming the
    property. `controller` defaults to the `Controller` singleton's instance.
*/
class DATACLIENT_QML_EXPORT QueryBase : public DataClient::CollectionModel, public QQmlParserStatus
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_INTERFACES(QQmlParserStatus)
    //! A Resource member, e.g. todos.getList. null: idle.
    Q_PROPERTY(QObject *endpoint READ endpointObject WRITE setEndpointObject NOTIFY endpointChanged)
    //! URL parameters, e.g. ({ userId: 1 }); null or undefined: idle.
    Q_PROPERTY(QVariant params READ paramsValue WRITE setParamsValue NOTIFY paramsChanged)
    //! The Controller to read from (default: the Controller singleton's).
    Q_PROPERTY(QObject *controller READ controllerObject WRITE setControllerObject NOTIFY
                   controllerChanged)

public:
    explicit QueryBase(bool live, QObject *parent = nullptr);

    QObject *endpointObject() const { return m_endpointObject; }
    void setEndpointObject(QObject *endpoint);
    QVariant paramsValue() const { return m_params; }
    void setParamsValue(const QVariant &params);
    QObject *controllerObject() const;
    void setControllerObject(QObject *controller);

    void classBegin() override { }
    void componentComplete() override;

Q_SIGNALS:
    void endpointChanged();
    void paramsChanged();
    void controllerChanged();

private:
    void applyInputs();
    QString typeName() const;

    QPointer<QObject> m_endpointObject;
    QVariant m_params;
    bool m_complete = false;
    bool m_explicitController = false;
    QString m_endpointError;
    QString m_paramsError;
    bool m_paramsNull = true;
};

/*!
    useSuspense: `Suspense { endpoint: todos.getList; params: ({ userId: 1 }) }`. Reads the
    cache, fetches when nothing fresh is stored; usable as ListView.model when the result holds
    a list.
*/
class DATACLIENT_QML_EXPORT SuspenseQuery : public DataClient::Qml::QueryBase
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Suspense)
public:
    explicit SuspenseQuery(QObject *parent = nullptr) : QueryBase(false, parent) { }
};

/*!
    useLive: like Suspense, and while it exists and is enabled it subscribes to the endpoint's
    polling (pollFrequency ms). Destroying it (or disabling it) unsubscribes.
*/
class DATACLIENT_QML_EXPORT LiveQuery : public DataClient::Qml::QueryBase
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Live)
    /*!
        A push source (`WebSocketSource`, `EventSource`) that keeps this key current instead of
        polling: the key is watched by the source's feed while the query is enabled (the
        subscribe message sent, refetched once on a reconnect that cannot resume). null: polling.
    */
    Q_PROPERTY(QObject *source READ source WRITE setSource NOTIFY sourceChanged)
public:
    explicit LiveQuery(QObject *parent = nullptr);
    ~LiveQuery() override;

    QObject *source() const { return m_source; }
    void setSource(QObject *source);
    void componentComplete() override;

Q_SIGNALS:
    void sourceChanged();

private Q_SLOTS:
    //! Watches the current key on the source's feed (and unwatches the one watched before).
    void rewatch();

private:
    QPointer<QObject> m_source;
    QPointer<LiveFeed> m_feed;
    EndpointPtr m_watchedEndpoint;
    Params m_watchedParams;
    QMetaObject::Connection m_feedChanged;
};

} // namespace DataClient::Qml
