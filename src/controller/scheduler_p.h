// The Controller's one scheduler for time: polling, retry backoff, refetch on activation, the
// outbox's write retries, persistence and garbage collection passes, and live sources' reconnects
// all wait through it, never through loose QTimers, so a test can drive every wait
// with a virtual clock (Testing::VirtualClock) and never sleep.
#pragma once

#include <DataClient/private/testexport_p.h>
#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <functional>
#include <map>
#include <utility>

QT_BEGIN_NAMESPACE
class QTimer;
QT_END_NAMESPACE

namespace DataClient::detail {

/*!
    A timer queue keyed by due time on a clock (ms since the epoch). Each entry runs once; an
    entry has an id to cancel it and a context QObject: when the context is destroyed its entries
    are dropped. Entries due at the same time run in the order they were scheduled.

    Driven by ONE QTimer armed for the earliest entry while the clock is the system clock
    (setTimerDriven(true)); with another clock nothing runs by itself: the clock's owner calls
    runDue() after moving time (Testing::VirtualClock does).
*/
class DATACLIENT_TEST_EXPORT Scheduler : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;
    using Task = std::function<void()>;

    explicit Scheduler(Clock clock, QObject *parent = nullptr);
    ~Scheduler() override;

    void setClock(Clock clock);
    //! Whether the QTimer runs due entries (system clock) or the clock's owner does (runDue()).
    void setTimerDriven(bool timerDriven);
    bool isTimerDriven() const { return m_timerDriven; }
    qint64 now() const { return m_clock(); }

    //! Runs \a task at \a due (or on the next runDue() when \a due has passed) unless \a context
    //! (may be null: none) was destroyed before. Returns the entry's id (never 0).
    quint64 scheduleAt(qint64 due, QObject *context, Task task);
    //! scheduleAt(now() + \a delayMs); a negative delay counts as 0.
    quint64 scheduleIn(qint64 delayMs, QObject *context, Task task);
    //! Drops the entry; false when it already ran or was canceled (0 is never an entry).
    bool cancel(quint64 id);
    bool isScheduled(quint64 id) const { return m_dueById.contains(id); }
    //! When entry \a id is due, or -1.
    qint64 dueOf(quint64 id) const { return m_dueById.value(id, -1); }

    //! The earliest due time, or -1 when nothing waits.
    qint64 nextDue() const;
    qsizetype size() const { return qsizetype(m_entries.size()); }
    /*!
        Runs every entry due at now(), earliest first. Entries scheduled while it runs wait for
        the next call (or timer), even when already due: a task that reschedules itself at once
        cannot spin. Returns how many ran.
    */
    int runDue();

private:
    struct Entry
    {
        QPointer<QObject> context;
        bool hasContext = false;
        QMetaObject::Connection contextGone;
        Task task;
    };
    using Key = std::pair<qint64, quint64>; // (due, id): due order, then scheduling order

    void rearm();
    void drop(std::map<Key, Entry>::iterator it);

    Clock m_clock;
    bool m_timerDriven = true;
    QTimer *m_timer = nullptr;
    std::map<Key, Entry> m_entries;
    QHash<quint64, qint64> m_dueById;
    quint64 m_lastId = 0;
    bool m_running = false;
};

} // namespace DataClient::detail
