#include "fetchstates_p.h"

namespace DataClient::detail {

bool FetchStates::finishLoading(const QString &key)
{
    const auto it = m_states.find(key);
    if (it == m_states.end() || it->loading == 0)
        return false;
    const bool stopped = --it->loading == 0;
    dropIfIdle(key);
    return stopped;
}

void FetchStates::setError(const QString &key, const NetworkError &error, qint64 date,
                           qint64 expiresAt)
{
    FetchState &state = m_states[key];
    state.error = error;
    state.errorDate = date;
    state.errorExpiresAt = expiresAt;
    state.invalidated = false;
}

bool FetchStates::settle(const QString &key, qint64 date)
{
    const auto it = m_states.find(key);
    if (it == m_states.end())
        return false;
    bool changed = false;
    if (it->error && it->errorDate <= date) {
        it->error.reset();
        changed = true;
    }
    if (it->invalidated) {
        it->invalidated = false;
        changed = true;
    }
    dropIfIdle(key);
    return changed;
}

bool FetchStates::invalidate(const QString &key)
{
    FetchState &state = m_states[key];
    const bool changed = state.error || !state.invalidated;
    state.error.reset();
    state.invalidated = true;
    return changed;
}

bool FetchStates::expireError(const QString &key)
{
    const auto it = m_states.find(key);
    if (it == m_states.end() || !it->error || it->errorExpiresAt == 0)
        return false;
    it->errorExpiresAt = 0;
    return true;
}

QStringList FetchStates::clear()
{
    QStringList keys = m_states.keys();
    m_states.clear();
    return keys;
}

void FetchStates::dropIfIdle(const QString &key)
{
    const auto it = m_states.find(key);
    if (it != m_states.end() && it->isIdle())
        m_states.erase(it);
}

} // namespace DataClient::detail
