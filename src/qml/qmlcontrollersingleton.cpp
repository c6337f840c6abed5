#include "qmlcontrollersingleton.h"

#include "qmlcontrollerlookup_p.h"

#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/qmlcontroller.h>
#include <DataClient/restendpoint.h>

#include <QtQml/QJSEngine>
#include <QtQml/QQmlEngine>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

struct QmlControllerSingleton::CallArguments
{
    EndpointPtr endpoint;
    Params params;
};

QmlControllerSingleton::QmlControllerSingleton(QQmlEngine *engine, QObject *parent)
    : QObject(parent), m_engine(engine)
{
    followOnline();
    followPersistence();
    followAuthentication();
}

QmlControllerSingleton *QmlControllerSingleton::create(QQmlEngine *engine, QJSEngine *)
{
    return new QmlControllerSingleton(engine);
}

Controller *QmlControllerSingleton::controller() const
{
    return qmlController(m_engine);
}

QObject *QmlControllerSingleton::controllerObject() const
{
    return controller();
}

void QmlControllerSingleton::setControllerObject(QObject *object)
{
    auto *chosen = qobject_cast<Controller *>(object);
    if (object && !chosen) {
        qmlWarning(this) << "Controller.controller: expected a DataClient::Controller; got a "
                         << object->metaObject()->className();
        return;
    }
    if (chosen == controller())
        return;
    const bool wasOnline = isOnline();
    setQmlController(m_engine, chosen);
    followOnline();
    followPersistence();
    followAuthentication();
    Q_EMIT controllerChanged();
    if (isOnline() != wasOnline)
        Q_EMIT onlineChanged();
}

void QmlControllerSingleton::followOnline()
{
    disconnect(m_onlineConnection);
    disconnect(m_outboxConnection);
    Controller *current = controller();
    if (!current)
        return;
    m_onlineConnection = connect(current, &Controller::onlineChanged, this,
                                 &QmlControllerSingleton::onlineChanged);
    m_outboxConnection
        = connect(current, &Controller::outboxFailed, this,
                  [this](const QByteArray &method, const QUrl &url, const NetworkError &error) {
                      Q_EMIT outboxFailed(QString::fromLatin1(method), url.toString(),
                                          error.message(), error.status());
                  });
}

Outbox *QmlControllerSingleton::outbox() const
{
    const Controller *current = controller();
    return current ? current->outbox() : nullptr;
}

bool QmlControllerSingleton::isOnline() const
{
    const Controller *current = controller();
    return !current || current->isOnline();
}

void QmlControllerSingleton::setOnline(bool online)
{
    Controller *current = controller();
    if (!current)
        return;
    Connectivity *source = current->connectivity();
    if (source == Connectivity::system()) {
        // The system's source follows the platform: take over with a manual one.
        source = new Connectivity(current);
        source->setOnline(current->isOnline());
        current->setConnectivity(source);
    }
    source->setOnline(online);
}

QString QmlControllerSingleton::readArguments(const char *function, QObject *endpoint,
                                              const QVariant &params, CallArguments *out) const
{
    QString error;
    auto *rest = qobject_cast<RestEndpoint *>(endpoint);
    if (rest)
        out->endpoint = rest->weak_from_this().lock();
    QVariant value = params;
    if (value.metaType() == QMetaType::fromType<QJSValue>())
        value = value.value<QJSValue>().toVariant();
    if (!out->endpoint) {
        error = u"Controller.%1(): the first argument must be an endpoint of a Resource (e.g. "
                "todos.partialUpdate); got %2"_s.arg(
                    QString::fromLatin1(function),
                    endpoint ? QString::fromUtf8(endpoint->metaObject()->className()) : u"null"_s);
    } else if (value.isValid() && !value.isNull()
               && value.metaType().id() != QMetaType::QVariantMap) {
        error = u"Controller.%1(%2): params must be an object of URL parameters, e.g. { id: 5 }; "
                "got %3"_s.arg(QString::fromLatin1(function), rest->name(), value.toString());
    } else {
        out->params = value.toMap();
    }
    if (!error.isEmpty())
        qmlWarning(this) << error;
    return error;
}

FetchResult *QmlControllerSingleton::fetch(QObject *endpoint, const QVariant &params,
                                           const QJSValue &body)
{
    auto *result = new FetchResult(m_engine);
    CallArguments call;
    const QString error = readArguments("fetch", endpoint, params, &call);
    if (!error.isEmpty()) {
        result->reject(QVariantMap {
            {u"status"_s, 0}, {u"kind"_s, u"InvalidRequest"_s}, {u"message"_s, error}});
        return result;
    }
    const QJsonValue json = body.isUndefined() ? QJsonValue(QJsonValue::Undefined)
                                               : QJsonValue::fromVariant(body.toVariant());
    result->follow(controller()->fetch(call.endpoint, call.params, json));
    return result;
}

FetchResult *QmlControllerSingleton::fetchIfStale(QObject *endpoint, const QVariant &params)
{
    auto *result = new FetchResult(m_engine);
    CallArguments call;
    const QString error = readArguments("fetchIfStale", endpoint, params, &call);
    if (!error.isEmpty()) {
        result->reject(QVariantMap {
            {u"status"_s, 0}, {u"kind"_s, u"InvalidRequest"_s}, {u"message"_s, error}});
        return result;
    }
    result->follow(controller()->fetchIfStale(call.endpoint, call.params));
    return result;
}

void QmlControllerSingleton::invalidate(QObject *endpoint, const QVariant &params)
{
    CallArguments call;
    if (readArguments("invalidate", endpoint, params, &call).isEmpty())
        controller()->invalidate(call.endpoint, call.params);
}

bool QmlControllerSingleton::keyFilter(const char *function, const QJSValue &filter,
                                       std::function<bool(const QString &)> *predicate) const
{
    if (filter.isUndefined() || filter.isNull()) {
        *predicate = [](const QString &) { return true; };
    } else if (filter.isString()) {
        *predicate
            = [prefix = filter.toString()](const QString &key) { return key.startsWith(prefix); };
    } else if (filter.isCallable()) {
        *predicate = [filter](const QString &key) {
            const QJSValue result = filter.call({QJSValue(key)});
            return !result.isError() && result.toBool();
        };
    } else {
        qmlWarning(this) << "Controller." << function
                         << "(): expected a function(key) returning a boolean, a key prefix "
                            "string, or nothing (every key); got "
                         << filter.toString();
        return false;
    }
    return true;
}

void QmlControllerSingleton::invalidateAll(const QJSValue &filter)
{
    std::function<bool(const QString &)> predicate;
    if (keyFilter("invalidateAll", filter, &predicate))
        controller()->invalidateAll(predicate);
}

void QmlControllerSingleton::expireAll(const QJSValue &filter)
{
    std::function<bool(const QString &)> predicate;
    if (keyFilter("expireAll", filter, &predicate))
        controller()->expireAll(predicate);
}

void QmlControllerSingleton::resetEntireStore()
{
    controller()->resetEntireStore();
}

QString QmlControllerSingleton::key(QObject *endpoint, const QVariant &params) const
{
    CallArguments call;
    if (!readArguments("key", endpoint, params, &call).isEmpty())
        return {};
    return call.endpoint->key(call.params);
}

} // namespace DataClient::Qml
