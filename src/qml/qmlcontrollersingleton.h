// `Controller` QML singleton: fetch / invalidate / expire / reset on the Controller QML uses.
#pragma once

#include <DataClient/global.h>
#include <DataClient/outbox.h>
#include <DataClient/schema.h>
#include <DataClient/tokensource.h>

#include "fetchresult.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtQml/QJSValue>
#include <QtQml/qqmlregistration.h>

#include <functional>

QT_BEGIN_NAMESPACE
class QQmlEngine;
class QJSEngine;
QT_END_NAMESPACE

namespace DataClient {
class Controller;
}

namespace DataClient::Qml {

/*!
    The Controller of the engine (DataClient::setQmlController(), default
    DataClient::Controller::instance()), for QML:

    \code
    onToggled: Controller.fetch(todos.partialUpdate, { id: entity.id }, { completed: checked })
    Button { onClicked: Controller.invalidate(todos.getList, { userId: 1 }) }
    \endcode
    Endpoints are Resource members; params are JS objects. A bad argument gives a warning naming
    it (and, for fetch, a FetchResult with status Error); nothing is sent or changed.
*/
class DATACLIENT_QML_EXPORT QmlControllerSingleton : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Controller)
    QML_SINGLETON
    //! The DataClient::Controller in use. Setting it also changes what Suspense / Live created
    //! afterwards read from.
    Q_PROPERTY(QObject *controller READ controllerObject WRITE setControllerObject NOTIFY
                   controllerChanged)
    //! Whether the Controller's Connectivity is online (nothing is read while offline).
    //! Writing it drives a manual source: the first write replaces the system's source with a
    //! manual one (an "Online" switch of an app or a demo).
    Q_PROPERTY(bool online READ isOnline WRITE setOnline NOTIFY onlineChanged)
    //! The Controller's pending changes (docs/offline-outbox.md): `outbox.count`, and a list
    //! model with the roles method, url and since.
    Q_PROPERTY(DataClient::Outbox *outbox READ outbox NOTIFY controllerChanged)
    //! The Controller's persisted store (docs/offline.md): "" off, "default", or a file path.
    Q_PROPERTY(QString persistence READ persistence WRITE setPersistence NOTIFY persistenceChanged)
    //! The least time between two writes of the persisted store (ms, default 1000).
    Q_PROPERTY(int persistIntervalMs READ persistIntervalMs WRITE setPersistIntervalMs NOTIFY
                   persistIntervalMsChanged)
    //! Where the access token comes from (docs/authentication.md): a TokenSource, or null.
    Q_PROPERTY(DataClient::TokenSource *tokenSource READ tokenSource WRITE setTokenSource NOTIFY
                   tokenSourceChanged)

public:
    explicit QmlControllerSingleton(QQmlEngine *engine, QObject *parent = nullptr);
    static QmlControllerSingleton *create(QQmlEngine *engine, QJSEngine *scriptEngine);

    QObject *controllerObject() const;
    void setControllerObject(QObject *controller);
    bool isOnline() const;
    void setOnline(bool online);
    DataClient::Outbox *outbox() const;
    QString persistence() const;
    void setPersistence(const QString &persistence);
    int persistIntervalMs() const;
    void setPersistIntervalMs(int ms);
    //! Deletes the persisted file now (logout); resetEntireStore() does it too.
    Q_INVOKABLE void clearPersisted();
    DataClient::TokenSource *tokenSource() const;
    void setTokenSource(DataClient::TokenSource *source);
    //! Forgets everything of the user (Controller::logout()).
    Q_INVOKABLE void logout();

    //! Runs the endpoint (reads are de-duplicated, mutations optimistic when the endpoint is).
    Q_INVOKABLE DataClient::Qml::FetchResult *fetch(QObject *endpoint,
                                                    const QVariant &params = QVariant(),
                                                    const QJSValue &body = QJSValue());
    //! fetch() unless fresh data is stored.
    Q_INVOKABLE DataClient::Qml::FetchResult *fetchIfStale(QObject *endpoint,
                                                           const QVariant &params = QVariant());
    //! Forgets the stored result of endpoint + params: queries showing it fetch again.
    Q_INVOKABLE void invalidate(QObject *endpoint, const QVariant &params = QVariant());
    //! invalidate() for every stored key \a filter accepts: a function(key) -> bool, a string
    //! (keys starting with it, e.g. "GET http://host/todos"), or nothing (every key).
    Q_INVOKABLE void invalidateAll(const QJSValue &filter = QJSValue());
    //! Marks matching keys stale: they stay visible and refetch.
    Q_INVOKABLE void expireAll(const QJSValue &filter = QJSValue());
    Q_INVOKABLE void resetEntireStore();
    //! The cache key of endpoint + params ("GET http://host/todos?userId=1"), or "" if unusable.
    Q_INVOKABLE QString key(QObject *endpoint, const QVariant &params = QVariant()) const;

    // Writing entities without an endpoint (qmlcontrollerwrites.cpp) --------------------------
    /*!
        Upserts \a value (an object or an array of objects) through \a schema: an Entity
        (`todo`), a list of one (`[todo]`), or an endpoint whose schema is one of those
        (`todos.get`, `todos.getList`). \a date: when the data was true (ms since the epoch, e.g.
        Date.now(), or a Date); omitted or 0: now. Controller::set() does the rest. Returns "" when
        written (or nothing changed), else the error, also warned; nothing is written then.
    */
    Q_INVOKABLE QString set(const QJSValue &schema, const QJSValue &value,
                            const QJSValue &date = QJSValue());
    //! Deletes entity \a pk (a string or a number) of \a schema (an Entity, or an endpoint whose
    //! schema's rows are one) as Controller::remove() does. Returns "" or the error, like set().
    Q_INVOKABLE QString remove(const QJSValue &schema, const QJSValue &pk,
                               const QJSValue &date = QJSValue());

Q_SIGNALS:
    void controllerChanged();
    void onlineChanged();
    //! The server refused a change of the outbox (Controller::outboxFailed()): it was dropped
    //! and rolled back. \a message says why, \a status is the HTTP status (0: none).
    void outboxFailed(const QString &method, const QString &url, const QString &message,
                      int status);
    void persistenceChanged();
    void persistIntervalMsChanged();
    //! The persisted store could not be used or written; the app keeps working in memory.
    void persistenceError(const QString &message);
    void tokenSourceChanged();
    //! Requests were refused (401) and no new token helps (Controller::authenticationFailed()):
    //! show the login again. \a status is 401, or 0 when the token source failed.
    void authenticationFailed(const QString &message, int status);

private:
    struct CallArguments;
    Controller *controller() const;
    //! Validates the arguments; on failure warns and returns the message (else empty).
    QString readArguments(const char *function, QObject *endpoint, const QVariant &params,
                          CallArguments *out) const;
    struct WriteArguments;
    //! The schema and date arguments of set() and remove(); on failure warns and sets the error.
    WriteArguments readWriteArguments(const char *function, const QJSValue &schemaValue,
                                      const QJSValue &dateValue) const;
    bool keyFilter(const char *function, const QJSValue &filter,
                   std::function<bool(const QString &)> *predicate) const;

    //! Forwards the current Controller's onlineChanged().
    void followOnline();
    //! Forwards the current Controller's persistence signals (qmlcontrollerpersist.cpp).
    void followPersistence();
    //! Forwards the current Controller's authentication signals (qmlcontrollerauth.cpp).
    void followAuthentication();

    QQmlEngine *m_engine;
    QMetaObject::Connection m_onlineConnection;
    QMetaObject::Connection m_outboxConnection;
    QList<QMetaObject::Connection> m_persistConnections;
    QList<QMetaObject::Connection> m_authConnections;
};

} // namespace DataClient::Qml
