// The QML Controller singleton's authentication (docs/authentication.md): forwarded to the
// Controller in use.
#include "qmlcontrollersingleton.h"

#include <DataClient/controller.h>

namespace DataClient::Qml {

void QmlControllerSingleton::followAuthentication()
{
    for (const QMetaObject::Connection &connection : std::as_const(m_authConnections))
        disconnect(connection);
    m_authConnections.clear();
    Controller *current = controller();
    if (!current)
        return;
    m_authConnections = {
        connect(current, &Controller::tokenSourceChanged, this,
                &QmlControllerSingleton::tokenSourceChanged),
        connect(current, &Controller::authenticationFailed, this,
                [this](const NetworkError &error) {
                    Q_EMIT authenticationFailed(error.message(), error.status());
                }),
    };
}

TokenSource *QmlControllerSingleton::tokenSource() const
{
    const Controller *current = controller();
    return current ? current->tokenSource() : nullptr;
}

void QmlControllerSingleton::setTokenSource(TokenSource *source)
{
    if (Controller *current = controller())
        current->setTokenSource(source);
}

void QmlControllerSingleton::logout()
{
    if (Controller *current = controller())
        current->logout();
}

} // namespace DataClient::Qml
