// The QML Controller singleton's persisted-store properties (docs/offline.md): forwarded to the
// Controller in use.
#include "qmlcontrollersingleton.h"

#include <DataClient/controller.h>

namespace DataClient::Qml {

void QmlControllerSingleton::followPersistence()
{
    for (const QMetaObject::Connection &connection : std::as_const(m_persistConnections))
        disconnect(connection);
    m_persistConnections.clear();
    Controller *current = controller();
    if (!current)
        return;
    m_persistConnections = {
        connect(current, &Controller::persistenceChanged, this,
                &QmlControllerSingleton::persistenceChanged),
        connect(current, &Controller::persistIntervalMsChanged, this,
                &QmlControllerSingleton::persistIntervalMsChanged),
        connect(current, &Controller::persistenceError, this,
                &QmlControllerSingleton::persistenceError),
    };
}

QString QmlControllerSingleton::persistence() const
{
    const Controller *current = controller();
    return current ? current->persistence() : QString();
}

void QmlControllerSingleton::setPersistence(const QString &persistence)
{
    if (Controller *current = controller())
        current->setPersistence(persistence);
}

int QmlControllerSingleton::persistIntervalMs() const
{
    const Controller *current = controller();
    return current ? current->persistIntervalMs() : 1000;
}

void QmlControllerSingleton::setPersistIntervalMs(int ms)
{
    if (Controller *current = controller())
        current->setPersistIntervalMs(ms);
}

void QmlControllerSingleton::clearPersisted()
{
    if (Controller *current = controller())
        current->clearPersisted();
}

} // namespace DataClient::Qml
