#include "applicationstatemanager_p.h"

#include "controller_p.h"
#include "managers_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QMetaMethod>

namespace DataClient::detail {

ApplicationStateManager::ApplicationStateManager(ControllerPrivate &core) : Lifecycle(core, 0) { }

void ApplicationStateManager::start()
{
    // The library core is Qt Core only: QGuiApplication's signal is found by name, when the
    // application is one. Other applications call setApplicationState() themselves.
    QCoreApplication *app = QCoreApplication::instance();
    if (!app)
        return;
    const QMetaObject *meta = app->metaObject();
    const int signal = meta->indexOfSignal(
        QMetaObject::normalizedSignature("applicationStateChanged(Qt::ApplicationState)")
            .constData());
    const int slot = Controller::staticMetaObject.indexOfSlot(
        QMetaObject::normalizedSignature("setApplicationState(Qt::ApplicationState)").constData());
    if (signal >= 0 && slot >= 0) {
        QObject::connect(app, meta->method(signal), core.q,
                         Controller::staticMetaObject.method(slot));
    }
}

void ApplicationStateManager::setState(Qt::ApplicationState next)
{
    if (next == state)
        return;
    state = next;
    qint64 inactiveFor = 0;
    if (next != Qt::ApplicationActive) {
        if (m_inactiveSince < 0)
            m_inactiveSince = core.now();
    } else {
        inactiveFor = m_inactiveSince < 0 ? 0 : core.now() - m_inactiveSince;
        m_inactiveSince = -1;
    }
    const QPointer<Controller> alive(core.q);
    const QList<Lifecycle *> managers = core.steps[detail::stepIndex(ApplicationStateChanged)];
    for (Lifecycle *manager : managers) {
        if (!alive || state != next)
            return;
        manager->applicationStateChanged(next, inactiveFor);
    }
}

} // namespace DataClient::detail

namespace DataClient {

Qt::ApplicationState Controller::applicationState() const
{
    return d->managers->applicationState->state;
}

void Controller::setApplicationState(Qt::ApplicationState state)
{
    DATACLIENT_ASSERT_THREAD(this);
    d->managers->applicationState->setState(state);
}

} // namespace DataClient
