#include "logging_p.h"

#include <DataClient/controller.h>
#include <DataClient/testing/virtualclock.h>

#include <algorithm>

namespace DataClient::Testing {

VirtualClock::VirtualClock(qint64 startMs, QObject *parent) : QObject(parent), m_now(startMs) { }

VirtualClock::VirtualClock(Controller *controller) : VirtualClock()
{
    install(controller);
}

VirtualClock::~VirtualClock()
{
    for (const QPointer<Controller> &controller : std::as_const(m_controllers)) {
        if (controller)
            controller->setClock({});
    }
}

void VirtualClock::install(Controller *controller)
{
    if (!controller || m_controllers.contains(controller))
        return;
    m_controllers.append(controller);
    controller->setClock([this] { return m_now; });
}

void VirtualClock::uninstall(Controller *controller)
{
    if (controller && m_controllers.removeAll(controller) > 0)
        controller->setClock({});
}

qint64 VirtualClock::nextDue() const
{
    qint64 earliest = -1;
    for (const QPointer<Controller> &controller : m_controllers) {
        if (!controller)
            continue;
        const qint64 due = controller->nextTimerDue();
        if (due >= 0 && (earliest < 0 || due < earliest))
            earliest = due;
    }
    return earliest;
}

int VirtualClock::runDue()
{
    int ran = 0;
    // A task may schedule more for this very moment (a retry without delay): run it too, but
    // never loop forever on a task that reschedules itself at once.
    for (int round = 0; round < 1000; ++round) {
        int thisRound = 0;
        const QList<QPointer<Controller>> controllers = m_controllers;
        for (const QPointer<Controller> &controller : controllers) {
            if (controller)
                thisRound += controller->runDueTimers();
        }
        ran += thisRound;
        if (thisRound == 0)
            break;
    }
    return ran;
}

int VirtualClock::advance(qint64 ms)
{
    if (ms < 0) {
        // Going back would run nothing and break every "due at" the Controller computed.
        qCWarning(lcTesting,
                  "VirtualClock::advance(%lld) refused: time only moves forward; "
                  "expected a duration >= 0 ms (the clock stays at %lld)",
                  qlonglong(ms), qlonglong(m_now));
        return -1;
    }
    const qint64 target = m_now + ms;
    int ran = runDue(); // what was already due
    for (qint64 due = nextDue(); due >= 0 && due <= target; due = nextDue()) {
        m_now = std::max(m_now, due);
        ran += runDue();
    }
    m_now = target;
    ran += runDue();
    Q_EMIT advanced(m_now);
    return ran;
}

qint64 VirtualClock::advanceToNext()
{
    const qint64 due = nextDue();
    if (due < 0)
        return -1;
    const qint64 wait = std::max<qint64>(0, due - m_now);
    advance(wait);
    return wait;
}

} // namespace DataClient::Testing
