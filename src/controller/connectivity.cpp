#include "logging_p.h"

#include <DataClient/connectivity.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QPointer>
#include <QtCore/QThread>
#include <QtNetwork/QNetworkInformation>

namespace DataClient {

namespace {

bool isReachable(QNetworkInformation::Reachability reachability)
{
    // Local or Site reach a server on the LAN; Unknown must not stop an app that works.
    return reachability != QNetworkInformation::Reachability::Disconnected;
}

} // namespace

Connectivity::Connectivity(QObject *parent) : QObject(parent) { }

Connectivity::~Connectivity() = default;

void Connectivity::setOnline(bool online)
{
    DATACLIENT_ASSERT_THREAD(this);
    if (online == m_online)
        return;
    m_online = online;
    qCInfo(lcController) << "connectivity:" << (online ? "online" : "offline");
    Q_EMIT onlineChanged(online);
}

Connectivity *Connectivity::system()
{
    static QPointer<Connectivity> instance;
    if (instance)
        return instance;
    instance = new Connectivity(QCoreApplication::instance());
    if (QNetworkInformation::loadDefaultBackend() && QNetworkInformation::instance()) {
        QNetworkInformation *information = QNetworkInformation::instance();
        qCInfo(lcController).noquote()
            << "connectivity: following QNetworkInformation backend" << information->backendName();
        instance->m_online = isReachable(information->reachability());
        QObject::connect(information, &QNetworkInformation::reachabilityChanged, instance.data(),
                         [target = instance.data()](QNetworkInformation::Reachability now) {
                             target->setOnline(isReachable(now));
                         });
    } else {
        qCInfo(lcController) << "connectivity: no QNetworkInformation backend loads; always online";
    }
    return instance;
}

} // namespace DataClient
