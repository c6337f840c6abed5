#include "suspenseandlive.h"

#include "qmlendpoint.h"
#include "qmlcontrollerlookup_p.h"
#include "queryscope.h"

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>

#include <QtQml/QJSValue>
#include <QtQml/qqmlinfo.h>

using namespace Qt::StringLiterals;

namespace DataClient::Qml {

QueryBase::QueryBase(bool live, QObject *parent) : CollectionModel(parent)
{
    setLive(live);
    setHeld(true); // nothing happens before componentComplete()
}

QString QueryBase::typeName() const
{
    return isLive() ? u"Live"_s : u"Suspense"_s;
}

void QueryBase::setEndpointObject(QObject *endpoint)
{
    if (m_endpointObject == endpoint && endpoint)
        return;
    m_endpointObject = endpoint;
    m_endpointError.clear();
    EndpointPtr shared;
    EndpointPtr page;
    if (auto *rest = qobject_cast<RestEndpoint *>(endpoint)) {
        shared = rest->weak_from_this().lock();
        if (!shared)
            m_endpointError = u"%1.endpoint: this RestEndpoint is not shared (make endpoints with "
                              "RestEndpoint::create or a Resource)"_s.arg(typeName());
        if (auto *qmlEndpoint = qobject_cast<QmlEndpoint *>(rest))
            page = qmlEndpoint->pageEndpoint();
    } else if (endpoint) {
        m_endpointError
            = u"%1.endpoint: expected an endpoint of a Resource (e.g. todos.getList); "
              "got a %2"_s.arg(typeName(), QString::fromUtf8(endpoint->metaObject()->className()));
    }
    if (!m_endpointError.isEmpty())
        qmlWarning(this) << m_endpointError;
    setPageEndpoint(page);
    setEndpoint(m_endpointError.isEmpty() ? shared : EndpointPtr());
    applyInputs();
    Q_EMIT endpointChanged();
}

void QueryBase::setParamsValue(const QVariant &params)
{
    QVariant value = params;
    if (value.metaType() == QMetaType::fromType<QJSValue>())
        value = value.value<QJSValue>().toVariant();
    if (value.metaType().id() == QMetaType::QVariantMap && m_params == value)
        return;
    m_params = value;
    m_paramsError.clear();
    m_paramsNull = false;
    if (!value.isValid() || value.isNull()) {
        m_paramsNull = true;
    } else if (value.metaType().id() != QMetaType::QVariantMap) {
        m_paramsError = u"%1.params: expected an object of URL parameters, e.g. "
                        "({ userId: 1 }), or null; got %2"_s.arg(
                            typeName(),
                            value.metaType().id() == QMetaType::QVariantList
                                ? u"an array"_s
                                : u"a %1 (%2)"_s.arg(QString::fromLatin1(value.typeName()),
                                                     value.toString()));
        qmlWarning(this) << m_paramsError;
    } else {
        setParams(value.toMap());
    }
    applyInputs();
    Q_EMIT paramsChanged();
}

QObject *QueryBase::controllerObject() const
{
    return controller();
}

void QueryBase::setControllerObject(QObject *object)
{
    auto *controller = qobject_cast<Controller *>(object);
    if (object && !controller) {
        qmlWarning(this) << typeName() << ".controller: expected a DataClient::Controller; got a "
                         << object->metaObject()->className();
        return;
    }
    m_explicitController = controller != nullptr;
    if (!controller && m_complete)
        controller = controllerFor(this);
    setController(controller);
    Q_EMIT controllerChanged();
}

void QueryBase::componentComplete()
{
    m_complete = true;
    if (QueryScope *scope = QueryScope::findFor(this))
        scope->add(this); // a SuspenseBoundary around us shows our loading / error state
    if (!m_explicitController)
        setController(controllerFor(this));
    applyInputs();
}

void QueryBase::applyInputs()
{
    // Errors first: a configuration error shows as status Error even while params are null.
    const QString error = !m_endpointError.isEmpty() ? m_endpointError : m_paramsError;
    setConfigurationError(error);
    setHeld(!m_complete || (m_paramsNull && error.isEmpty()));
}

} // namespace DataClient::Qml
