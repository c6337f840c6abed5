// Connectivity: nothing that can wait is sent while offline (reads, and changes kept until the
// server answers them); when the network returns, the reads that waited are sent, in the order
// they were made, and the other managers act (the outbox first, then refetches).
#pragma once

#include "lifecycle_p.h"

#include <DataClient/connectivity.h>

#include <QtCore/QPointer>
#include <QtCore/QSet>

namespace DataClient::detail {

class ConnectivityManager final : public Lifecycle
{
public:
    explicit ConnectivityManager(ControllerPrivate &core);

    void start() override;
    bool holds(InFlightRequest &request) override;
    //! Online again: the reads that waited are sent (those whose callers all left end).
    void onlineChanged(bool online) override;
    void requestEnded(const InFlightRequest &request) override;
    void reset() override;

    //! Controller::setConnectivity().
    void setConnectivity(Connectivity *connectivity);
    //! Connectivity changed (or another source was set).
    void setOnline(bool online);

    QPointer<Connectivity> connectivity;

private:
    QMetaObject::Connection m_connection;
    QSet<quint64> m_held; // the requests it holds
};

} // namespace DataClient::detail
