#include "qmlendpoint.h"

#include "jsoptions_p.h"

#include <DataClient/networkerror.h>
#include <DataClient/response.h>

#include <QtCore/QJsonDocument>
#include <QtQml/QJSEngine>
#include <QtQml/QJSValueIterator>
#include <QtQml/QQmlEngine>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

namespace {

QmlEndpoint *asQml(const std::weak_ptr<RestEndpoint> &endpoint)
{
    return qobject_cast<QmlEndpoint *>(endpoint.lock().get());
}

[[noreturn]] void throwHookError(const RestEndpoint &endpoint, const char *hook,
                                 const QString &what)
{
    throw NetworkError(NetworkError::Kind::Other, 0,
                       u"%1 (%2 %3): the %4 function threw: %5"_s.arg(
                           endpoint.name(), endpoint.methodName(), endpoint.path(),
                           QString::fromLatin1(hook), what));
}

} // namespace

QmlEndpoint::QmlEndpoint(const EndpointOptions &options, std::shared_ptr<const JsHooks> hooks)
    : RestEndpoint(options), m_hooks(std::move(hooks))
{ }

QmlEndpoint::~QmlEndpoint() = default;

EndpointFactory QmlEndpoint::factory(std::shared_ptr<const JsHooks> hooks)
{
    return [hooks](const EndpointOptions &options) -> EndpointPtr {
        auto endpoint = std::make_shared<QmlEndpoint>(options, hooks);
        QQmlEngine::setObjectOwnership(endpoint.get(), QQmlEngine::CppOwnership);
        return endpoint;
    };
}

EndpointPtr QmlEndpoint::clone(const EndpointOptions &options) const
{
    return factory(m_hooks)(options);
}

QmlEndpoint *QmlEndpoint::push() const
{
    return asQml(m_push);
}

QmlEndpoint *QmlEndpoint::unshift() const
{
    return asQml(m_unshift);
}

QmlEndpoint *QmlEndpoint::getPage() const
{
    return asQml(m_getPage);
}

QmlEndpoint *QmlEndpoint::move() const
{
    return asQml(m_move);
}

QmlEndpoint *QmlEndpoint::remove() const
{
    return asQml(m_remove);
}

QmlEndpoint *QmlEndpoint::assign() const
{
    return asQml(m_assign);
}

void QmlEndpoint::setListMembers(const ResourceListMember &list)
{
    m_push = list.push.endpoint();
    m_unshift = list.unshift.endpoint();
    m_getPage = list.getPage.endpoint();
    m_move = list.move.endpoint();
    m_remove = list.remove.endpoint();
    m_assign = list.assign.endpoint();
}

QmlEndpoint *QmlEndpoint::extend(const QJSValue &overrides)
{
    QString error;
    const auto parsed = overridesFromJs(qjsEngine(this) ? qjsEngine(this) : m_hooks->engine.data(),
                                        overrides, u"%1.extend()"_s.arg(name()), &error);
    if (!parsed) {
        qmlWarning(this) << error;
        return nullptr;
    }
    EndpointPtr extended = RestEndpoint::extend(*parsed);
    m_extended.append(extended); // QML holds a plain pointer: keep the endpoint alive
    return qobject_cast<QmlEndpoint *>(extended.get());
}

RequestInit QmlEndpoint::getRequestInit(const QJsonValue &body) const
{
    if (!m_hooks || !m_hooks->getRequestInit.isCallable() || !m_hooks->engine)
        return RestEndpoint::getRequestInit(body);
    QJSEngine *engine = m_hooks->engine;
    const RequestInit defaults = RestEndpoint::getRequestInit(body);
    QJSValue init = engine->newObject();
    init.setProperty(u"method"_s, QString::fromLatin1(defaults.method));
    QJSValue headers = engine->newObject();
    for (const auto &[name, value] : defaults.headers)
        headers.setProperty(QString::fromUtf8(name), QString::fromUtf8(value));
    init.setProperty(u"headers"_s, headers);
    init.setProperty(u"body"_s, engine->toScriptValue(body));
    init.setProperty(u"credentials"_s, DataClient::credentialsName(defaults.credentials));
    init.setProperty(u"timeout"_s, defaults.timeout);

    QJSValue result = m_hooks->getRequestInit.call({engine->toScriptValue(body), init});
    if (result.isError())
        throwHookError(*this, "getRequestInit", result.toString());
    if (result.isUndefined())
        result = init; // changed in place
    if (!result.isObject())
        throwHookError(*this, "getRequestInit",
                       u"it must return the init object; got %1"_s.arg(result.toString()));

    // The body may have changed: encode it as the default does, then apply the other fields.
    RequestInit out = RestEndpoint::getRequestInit(jsToJson(result.property(u"body"_s)));
    if (result.hasProperty(u"method"_s))
        out.method = result.property(u"method"_s).toString().toUpper().toLatin1();
    out.headers.clear();
    QJSValueIterator it(result.property(u"headers"_s));
    while (it.hasNext()) {
        it.next();
        if (!it.value().isUndefined() && !it.value().isNull())
            out.setHeader(it.name().toUtf8(), it.value().toString().toUtf8());
    }
    if (!out.body)
        out.removeHeader("Content-Type");
    else if (!out.hasHeader("Content-Type"))
        out.setHeader("Content-Type"_ba, "application/json"_ba);
    if (const auto credentials = credentialsFromName(result.property(u"credentials"_s).toString()))
        out.credentials = *credentials;
    if (result.property(u"timeout"_s).isNumber())
        out.timeout = result.property(u"timeout"_s).toInt();
    return out;
}

bool QmlEndpoint::answersOffThread() const
{
    // JS functions run on the GUI thread only; getRequestInit runs before sending, so it does
    // not matter here.
    const bool jsParse = m_hooks && m_hooks->parseResponse.isCallable();
    return !jsParse && !options().process;
}

QJsonValue QmlEndpoint::parseResponse(const Response &response) const
{
    if (!m_hooks || !m_hooks->parseResponse.isCallable() || !m_hooks->engine)
        return RestEndpoint::parseResponse(response);
    QJSEngine *engine = m_hooks->engine;
    QJSValue js = engine->newObject();
    js.setProperty(u"status"_s, response.status);
    js.setProperty(u"statusText"_s, response.statusText);
    js.setProperty(u"url"_s, response.url.toString());
    QJSValue headers = engine->newObject();
    for (const auto &[name, value] : response.headers)
        headers.setProperty(QString::fromUtf8(name).toLower(),
                            QString::fromUtf8(response.header(name)));
    js.setProperty(u"headers"_s, headers);
    js.setProperty(u"body"_s, QString::fromUtf8(response.body));
    try {
        js.setProperty(u"value"_s, engine->toScriptValue(RestEndpoint::parseResponse(response)));
    } catch (const NetworkError &) {
        // `value` stays undefined: the function reads `body` itself
    }
    const QJSValue result = m_hooks->parseResponse.call({js});
    if (result.isError())
        throwHookError(*this, "parseResponse", result.toString());
    return jsToJson(result);
}

} // namespace DataClient::Qml
