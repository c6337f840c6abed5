// Refetch after the system slept: a laptop closed overnight or a phone put away wakes with views
// showing data that expired meanwhile, and neither the network nor the application state has to
// change to say so. The monotonic clock does not count a suspend and the wall clock does: once a
// minute the two are compared, and when the wall clock moved on by much more, the stale keys
// something shows (those of endpoints with refetchOnActivate) are refetched, as after an
// activation. Only with the system clock: a test's clock moves only when its owner says so.
#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "shownkeysmanager_p.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>

namespace DataClient::detail {

namespace {

class ResumeRefetch final : public Lifecycle
{
public:
    //! How often the clocks are compared, and by how much more the wall clock must have moved.
    static constexpr int CheckEveryMs = 60 * 1000;
    static constexpr qint64 SleepAtLeastMs = 30 * 1000;

    explicit ResumeRefetch(ControllerPrivate &core) : Lifecycle(core, Shutdown) { }

    void start() override
    {
        m_timer = new QTimer(core.q);
        m_timer->setInterval(CheckEveryMs);
        QObject::connect(m_timer, &QTimer::timeout, core.q, [this] { check(); });
        m_timer->start();
        restart();
    }

    void shutdown() override
    {
        delete m_timer;
        m_timer = nullptr;
    }

    //! The system slept for \a ms (or the check found so): what is shown and stale is refetched.
    void resumed(qint64 ms)
    {
        qCInfo(lcController) << "the system slept for about" << ms / 1000
                             << "s: refetching the stale keys that are shown";
        restart();
        if (core.online)
            core.managers->shown->refetchShown(true);
    }

private:
    void restart()
    {
        m_monotonic.start();
        m_wallClock = QDateTime::currentMSecsSinceEpoch();
    }

    void check()
    {
        if (core.clock)
            return restart(); // a clock of the application's: it says when time passes
        const qint64 slept
            = QDateTime::currentMSecsSinceEpoch() - m_wallClock - m_monotonic.elapsed();
        if (slept >= SleepAtLeastMs)
            resumed(slept);
        else
            restart();
    }

    QTimer *m_timer = nullptr;
    QElapsedTimer m_monotonic;
    qint64 m_wallClock = 0;
};

} // namespace

std::unique_ptr<Lifecycle> makeResumeRefetch(ControllerPrivate &core)
{
    return std::make_unique<ResumeRefetch>(core);
}

//! For tests: the check found that the system slept for \a ms.
DATACLIENT_CONTROLLER_EXPORT void simulateSystemResume(Controller *controller, qint64 ms)
{
    for (const std::unique_ptr<Lifecycle> &manager :
         ControllerPrivate::get(controller)->managers->all) {
        if (auto *resume = dynamic_cast<ResumeRefetch *>(manager.get()))
            resume->resumed(ms);
    }
}

} // namespace DataClient::detail
