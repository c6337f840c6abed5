#include "shownkeys_p.h"

namespace DataClient::detail {

void ShownKeys::add(const QString &key, const EndpointPtr &endpoint, const Params &params)
{
    Shown &shown = m_keys[key];
    if (shown.viewers++ == 0) {
        shown.endpoint = endpoint;
        shown.params = params;
    }
}

bool ShownKeys::remove(const QString &key)
{
    const auto it = m_keys.find(key);
    if (it == m_keys.end())
        return false;
    if (--it->viewers == 0)
        m_keys.erase(it);
    return true;
}

QList<std::pair<EndpointPtr, Params>> ShownKeys::all() const
{
    QList<std::pair<EndpointPtr, Params>> result;
    result.reserve(m_keys.size());
    for (const Shown &shown : m_keys)
        result.append({shown.endpoint, shown.params});
    return result;
}

} // namespace DataClient::detail
