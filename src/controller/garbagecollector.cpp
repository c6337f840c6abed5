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
    return std::max(written, m_touched.value(key, written));
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
    m_touched.clear();
    m_released.clear();
    entitiesChanged = false;
    warnedOverBudget = false;
}

} // namespace DataClient::detail
