// Connectivity: whether requests can reach the network, as an object the Controller consults
// (an object, not a global: each Controller may have its own).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QObject>

namespace DataClient {

/*!
    Online or offline, with a signal on change. The Controller asks it before sending a read:
    while offline no read is sent (queries keep their data and show `paused`), polling stops and
    retries wait; on reconnect every stale or invalid key something shows is refetched once.

    A Connectivity made with the constructor is a manual source: the application (an "Online"
    switch) or a test drives it with setOnline(). system() follows the platform's network
    reachability through QNetworkInformation when a backend loads, and is always online when
    none does (it logs once, at info level, which it chose).

    Threads: GUI thread only, like the Controller.
*/
class DATACLIENT_CONTROLLER_EXPORT Connectivity : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool online READ isOnline WRITE setOnline NOTIFY onlineChanged)

public:
    //! A manual source, online until setOnline(false).
    explicit Connectivity(QObject *parent = nullptr);
    ~Connectivity() override;

    /*!
        The application's system source (created on first use, a child of the application
        object): QNetworkInformation's reachability (Disconnected = offline; Unknown, Local, Site
        and Online = online) when its default backend loads, otherwise always online.
    */
    static Connectivity *system();

    bool isOnline() const { return m_online; }
    //! Sets the state; emits onlineChanged() when it changes. (The system source overwrites it on
    //! the next reachability change.)
    void setOnline(bool online);

Q_SIGNALS:
    void onlineChanged(bool online);

private:
    bool m_online = true;
};

} // namespace DataClient
