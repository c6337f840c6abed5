#include "inflighttable_p.h"

namespace DataClient::detail {

InFlightRequest &InFlightTable::add(std::shared_ptr<InFlightRequest> request)
{
    Q_ASSERT(request && request->id != 0);
    const quint64 id = request->id;
    if (request->read)
        m_readsByRequestKey.insert(request->requestKey, id);
    auto &slot = m_requests[id];
    slot = std::move(request);
    return *slot;
}

InFlightRequest *InFlightTable::find(quint64 id) const
{
    return m_requests.value(id).get();
}

InFlightRequest *InFlightTable::findRead(const QString &requestKey) const
{
    const auto it = m_readsByRequestKey.constFind(requestKey);
    return it == m_readsByRequestKey.cend() ? nullptr : find(*it);
}

std::shared_ptr<InFlightRequest> InFlightTable::take(quint64 id)
{
    const auto it = m_requests.find(id);
    if (it == m_requests.end())
        return nullptr;
    std::shared_ptr<InFlightRequest> shared = std::move(*it);
    m_requests.erase(it);
    if (shared->read) {
        const auto read = m_readsByRequestKey.constFind(shared->requestKey);
        if (read != m_readsByRequestKey.cend() && *read == id)
            m_readsByRequestKey.erase(read);
    }
    return shared;
}

QList<InFlightRequest *> InFlightTable::all() const
{
    QList<InFlightRequest *> requests;
    requests.reserve(m_requests.size());
    for (const auto &request : m_requests)
        requests.append(request.get());
    return requests;
}

} // namespace DataClient::detail
