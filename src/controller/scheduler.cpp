#include "scheduler_p.h"

#include <QtCore/QTimer>

#include <algorithm>
#include <limits>

namespace DataClient::detail {

Scheduler::Scheduler(Clock clock, QObject *parent)
    : QObject(parent), m_clock(std::move(clock)), m_timer(new QTimer(this))
{
    Q_ASSERT(m_clock);
    m_timer->setSingleShot(true);
    // Poll and backoff delays are short and users see them: no coarse slack.
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, [this] { runDue(); });
}

Scheduler::~Scheduler()
{
    for (auto &[key, entry] : m_entries)
        disconnect(entry.contextGone);
}

void Scheduler::setClock(Clock clock)
{
    Q_ASSERT(clock);
    m_clock = std::move(clock);
    rearm();
}

void Scheduler::setTimerDriven(bool timerDriven)
{
    m_timerDriven = timerDriven;
    rearm();
}

quint64 Scheduler::scheduleAt(qint64 due, QObject *context, Task task)
{
    const quint64 id = ++m_lastId;
    Entry entry;
    entry.context = context;
    entry.hasContext = context != nullptr;
    entry.task = std::move(task);
    if (context) {
        // Dropped with its context, so a destroyed query never leaves a request behind.
        entry.contextGone = connect(context, &QObject::destroyed, this, [this, id] { cancel(id); });
    }
    m_entries.emplace(Key {due, id}, std::move(entry));
    m_dueById.insert(id, due);
    rearm();
    return id;
}

quint64 Scheduler::scheduleIn(qint64 delayMs, QObject *context, Task task)
{
    return scheduleAt(now() + std::max<qint64>(0, delayMs), context, std::move(task));
}

bool Scheduler::cancel(quint64 id)
{
    const auto due = m_dueById.constFind(id);
    if (due == m_dueById.cend())
        return false;
    const auto it = m_entries.find(Key {*due, id});
    Q_ASSERT(it != m_entries.end());
    drop(it);
    rearm();
    return true;
}

void Scheduler::drop(std::map<Key, Entry>::iterator it)
{
    disconnect(it->second.contextGone);
    m_dueById.remove(it->first.second);
    m_entries.erase(it);
}

qint64 Scheduler::nextDue() const
{
    return m_entries.empty() ? -1 : m_entries.begin()->first.first;
}

int Scheduler::runDue()
{
    if (m_running)
        return 0; // a task that moved a virtual clock: the outer call goes on
    m_running = true;
    const quint64 lastBefore = m_lastId;
    const qint64 current = now();
    int ran = 0;
    // Earliest first, one at a time: a task may cancel or add entries.
    for (auto it = m_entries.begin(); it != m_entries.end() && it->first.first <= current;) {
        if (it->first.second > lastBefore) {
            ++it; // scheduled by a task of this run: next time
            continue;
        }
        Entry entry = std::move(it->second);
        drop(it);
        if (!entry.hasContext || entry.context) {
            entry.task();
            ++ran;
        }
        it = m_entries.begin(); // the table may have changed
    }
    m_running = false;
    rearm();
    return ran;
}

void Scheduler::rearm()
{
    if (m_running)
        return; // runDue() rearms when it is done
    const qint64 due = nextDue();
    if (!m_timerDriven || due < 0) {
        m_timer->stop();
        return;
    }
    const qint64 wait = std::clamp<qint64>(due - now(), 0, std::numeric_limits<int>::max());
    if (!m_timer->isActive() || m_timer->remainingTime() != int(wait))
        m_timer->start(int(wait));
}

} // namespace DataClient::detail
