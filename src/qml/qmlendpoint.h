// The endpoints a QML Resource builds: RestEndpoints whose getRequestInit / parseResponse hooks
// may be JS functions, that link getList to its push / unshift / getPage members, and that QML
// can extend().
#pragma once

#include <DataClient/global.h>
#include <DataClient/resourcemember.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QPointer>
#include <QtQml/QJSValue>
#include <QtQml/qqmlregistration.h>

#include <memory>

QT_BEGIN_NAMESPACE
class QJSEngine;
QT_END_NAMESPACE

namespace DataClient::Qml {

//! JS hook functions shared by every member of one Resource (and the endpoints extended from them).
struct JsHooks
{
    QPointer<QJSEngine> engine;
    //! function(body, init) -> init: init is {method, headers, body, credentials, timeout}.
    QJSValue getRequestInit;
    //! function(response) -> value: response is {status, statusText, url, headers, body, value}.
    QJSValue parseResponse;
};

/*!
    A RestEndpoint built by a QML Resource. In QML: `todos.getList.push`, `todos.getList.getPage`,
    `todos.get.extend({ path: "/items/:id" })`, and the CONSTANT properties of RestEndpoint
    (method, path, name ...). Hooks run on the GUI thread; a hook that throws fails the request
    with a NetworkError naming the hook.
*/
class DATACLIENT_QML_EXPORT QmlEndpoint : public DataClient::RestEndpoint
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Endpoint)
    QML_UNCREATABLE("Endpoints come from a Resource, e.g. todos.getList")
    //! getList only: its push / unshift / getPage members (null otherwise).
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *push READ push CONSTANT)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *unshift READ unshift CONSTANT)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *getPage READ getPage CONSTANT)
    //! getList only: its move / remove / assign members (docs/collections.md).
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *move READ move CONSTANT)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *remove READ remove CONSTANT)
    Q_PROPERTY(DataClient::Qml::QmlEndpoint *assign READ assign CONSTANT)

public:
    QmlEndpoint(const EndpointOptions &options, std::shared_ptr<const JsHooks> hooks);
    ~QmlEndpoint() override;

    //! The member factory of a Resource whose hooks are \a hooks.
    static EndpointFactory factory(std::shared_ptr<const JsHooks> hooks);

    QmlEndpoint *push() const;
    QmlEndpoint *unshift() const;
    QmlEndpoint *getPage() const;
    QmlEndpoint *move() const;
    QmlEndpoint *remove() const;
    QmlEndpoint *assign() const;
    EndpointPtr pageEndpoint() const { return m_getPage.lock(); }
    //! Called by the Resource once its members exist (getList only).
    void setListMembers(const ResourceListMember &list);

    using RestEndpoint::extend;
    //! A copy with the options of \a overrides (a JS object, see Resource.extend()). Kept alive
    //! as long as this endpoint. null (and a warning) for a bad option.
    Q_INVOKABLE DataClient::Qml::QmlEndpoint *extend(const QJSValue &overrides);

    RequestInit getRequestInit(const QJsonValue &body) const override;
    QJsonValue parseResponse(const Response &response) const override;
    //! True without a JS parseResponse hook and without a `process` option: the Controller may
    //! then parse and normalize large answers on a worker (the Entity schema is checked too).
    bool answersOffThread() const override;

protected:
    EndpointPtr clone(const EndpointOptions &options) const override;

private:
    std::shared_ptr<const JsHooks> m_hooks;
    std::weak_ptr<RestEndpoint> m_push;
    std::weak_ptr<RestEndpoint> m_unshift;
    std::weak_ptr<RestEndpoint> m_move;
    std::weak_ptr<RestEndpoint> m_remove;
    std::weak_ptr<RestEndpoint> m_assign;
    std::weak_ptr<RestEndpoint> m_getPage;
    QList<EndpointPtr> m_extended;
};

} // namespace DataClient::Qml
