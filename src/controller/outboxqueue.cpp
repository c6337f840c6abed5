#include "outboxqueue_p.h"

namespace DataClient::detail {

qsizetype OutboxQueue::remove(quint64 id)
{
    const qsizetype row = indexOf(id);
    if (row >= 0)
        m_items.removeAt(row);
    return row;
}

qsizetype OutboxQueue::indexOf(quint64 id) const
{
    for (qsizetype row = 0; row < m_items.size(); ++row) {
        if (m_items.at(row).first == id)
            return row;
    }
    return -1;
}

const OutboxItem *OutboxQueue::find(quint64 id) const
{
    const qsizetype row = indexOf(id);
    return row < 0 ? nullptr : &m_items.at(row).second;
}

void OutboxQueue::setPlaceholder(quint64 id, const QString &key)
{
    const qsizetype row = indexOf(id);
    if (row >= 0)
        m_items[row].second.placeholder = key;
}

QList<OutboxItem> OutboxQueue::items() const
{
    QList<OutboxItem> result;
    result.reserve(m_items.size());
    for (const auto &[id, item] : m_items)
        result.append(item);
    return result;
}

} // namespace DataClient::detail
