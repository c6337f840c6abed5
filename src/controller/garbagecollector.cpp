#include "garbagecollector_p.h"

#include <algorithm>

namespace DataClient::detail {

QString GarbageCollector::checkGracePeriod(qint64 value)
{
    if (value < 0) {
        return QStringLiteral("%1 is not a grace period: expected 0 or more milliseconds "
                              "(gcEnabled = false turns garbage collection off)")
            .arg(value);
    }
    return {};
}

QString GarbageCollector::checkBudget(qint64 value)
{
    if (value < 0)
        return QStringLiteral("%1 is not a memory budget: expected bytes > 0, or 0 for none")
            .arg(value);
    return {};
}

void GarbageCollector::touch(const QString &key, qint64 now)
{
    qint64 &at = m_touched[key];
    at = std::max(at, now);
}

qint64 GarbageCollector::lastUse(const QString &key, qint64 written) const
{
    const qint64 effective = effectiveWrite(written);
    return effective == NoTime ? NoTime : std::max(effective, m_touched.value(key, effective));
}

void GarbageCollector::hydrated(qint64 now, qint64 oldest, qint64 newest)
{
    // Dates from another run may lie ahead of this run's clock: what was read is up to both.
    m_hydratedUpTo = std::max(now, newest);
    m_hydratedFrom = std::min(oldest, now);
    m_revalidatableAt = NoTime;
}

void GarbageCollector::revalidatable(qint64 now)
{
    if (m_hydratedUpTo != NoTime && m_revalidatableAt == NoTime)
        m_revalidatableAt = now;
}

qint64 GarbageCollector::effectiveWrite(qint64 written) const
{
    if (m_hydratedUpTo == NoTime || written > m_hydratedUpTo)
        return written; // written in this run
    return m_revalidatableAt == NoTime ? NoTime : std::max(written, m_revalidatableAt);
}

qint64 GarbageCollector::writtenBefore(qint64 cutoff) const
{
    // The store drops unreachable entities by their own dates: keep below everything read from
    // disk until its grace period, counted from revalidatable(), has passed.
    const bool keepRead
        = m_hydratedUpTo != NoTime && (m_revalidatableAt == NoTime || cutoff < m_revalidatableAt);
    return keepRead ? std::min(cutoff, m_hydratedFrom - 1) : cutoff;
}

void GarbageCollector::release(const QString &key, const EndpointPtr &endpoint,
                               const Params &params, qint64 now)
{
    m_released.insert(key, {endpoint, params, now});
    touch(key, now);
}

QList<GarbageCollector::Released> GarbageCollector::releasedAfter(qint64 cutoff)
{
    m_released.removeIf(
        [cutoff](QHash<QString, Released>::iterator it) { return it.value().at <= cutoff; });
    return m_released.values();
}

void GarbageCollector::clear()
{
    m_hydratedUpTo = m_hydratedFrom = m_revalidatableAt = NoTime;
    m_touched.clear();
    m_released.clear();
    entitiesChanged = false;
    warnedOverBudget = false;
}

} // namespace DataClient::detail
