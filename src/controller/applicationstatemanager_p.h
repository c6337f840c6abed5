// The application's state (Qt::ApplicationState): followed from QGuiApplication when there is one,
// told by Controller::setApplicationState() otherwise. The other managers act on its changes
// (polling pauses while suspended or hidden; becoming active after a while refetches).
#pragma once

#include "lifecycle_p.h"

namespace DataClient::detail {

class ApplicationStateManager final : public Lifecycle
{
public:
    explicit ApplicationStateManager(ControllerPrivate &core);

    //! Connects QGuiApplication::applicationStateChanged, when there is one.
    void start() override;
    void setState(Qt::ApplicationState state);

    Qt::ApplicationState state = Qt::ApplicationActive;

private:
    //! When the application stopped being active (clock time), -1 while active.
    qint64 m_inactiveSince = -1;
};

} // namespace DataClient::detail
