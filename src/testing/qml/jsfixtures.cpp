#include "jsfixtures_p.h"

#include <DataClient/controller.h>
#include <DataClient/qmlcontroller.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QJsonValue>
#include <QtQml/QQmlEngine>

using namespace Qt::StringLiterals;

namespace DataClient::Testing::Qml {

namespace {

const QStringList knownKeys {u"endpoint"_s, u"method"_s,   u"url"_s,         u"params"_s,
                             u"body"_s,     u"response"_s, u"error"_s,       u"status"_s,
                             u"headers"_s,  u"delayMs"_s,  u"networkError"_s};

} // namespace

QList<Fixture> fixturesFromJs(const QJSValue &fixtures, QString *error)
{
    QList<Fixture> read;
    if (fixtures.isUndefined() || fixtures.isNull())
        return read;
    if (!fixtures.isArray()) {
        *error = u"fixtures must be an array of objects"_s;
        return read;
    }
    const int count = fixtures.property(u"length"_s).toInt();
    for (int i = 0; i < count; ++i) {
        const QJSValue value = fixtures.property(quint32(i));
        auto refuse = [&](const QString &why) {
            *error = u"fixture %1: %2"_s.arg(i).arg(why);
            return read;
        };
        if (!value.isObject() || value.isArray())
            return refuse(u"expected an object like { endpoint: todos.get, response: {...} }"_s);
        const QVariantMap map = value.toVariant().toMap();
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            if (!knownKeys.contains(it.key())) {
                return refuse(u"unknown key '%1'; expected one of %2"_s.arg(
                    it.key(), knownKeys.join(u", "_s)));
            }
        }
        Fixture fixture;
        if (map.contains(u"endpoint"_s)) {
            auto *endpoint
                = qobject_cast<RestEndpoint *>(value.property(u"endpoint"_s).toQObject());
            if (!endpoint)
                return refuse(u"'endpoint' is not an Endpoint (e.g. todos.get)"_s);
            fixture.endpoint = endpoint->shared_from_this();
        }
        if (map.contains(u"method"_s))
            fixture.method = map.value(u"method"_s).toString().toUpper().toLatin1();
        fixture.url = map.value(u"url"_s).toString();
        fixture.params = map.value(u"params"_s).toMap();
        if (map.contains(u"body"_s))
            fixture.body = QJsonValue::fromVariant(map.value(u"body"_s));
        fixture.response = QJsonValue::fromVariant(map.value(u"response"_s));
        fixture.error = map.value(u"error"_s).toBool();
        fixture.status = map.value(u"status"_s).toInt();
        fixture.delayMs = map.value(u"delayMs"_s).toInt();
        const QVariantMap headers = map.value(u"headers"_s).toMap();
        for (auto it = headers.cbegin(); it != headers.cend(); ++it)
            fixture.headers.append({it.key().toLatin1(), it.value().toString().toUtf8()});
        const QVariant networkError = map.value(u"networkError"_s);
        if (networkError.typeId() == QMetaType::Bool) {
            if (networkError.toBool())
                fixture.networkError = QNetworkReply::ConnectionRefusedError;
        } else if (networkError.isValid()) {
            fixture.networkError = QNetworkReply::NetworkError(networkError.toInt());
        }
        read.append(fixture);
    }
    return read;
}

Controller *controllerOf(const QObject *qmlObject, QObject *chosen)
{
    if (auto *controller = qobject_cast<Controller *>(chosen))
        return controller;
    return qmlController(qmlEngine(qmlObject));
}

} // namespace DataClient::Testing::Qml
