// Per cache key facts the Store does not hold: requests in flight, the last error, and whether
// the key was invalidated or expired by hand (docs/controller.md).
#pragma once

#include <DataClient/private/testexport_p.h>
#include <DataClient/networkerror.h>

#include <QtCore/QHash>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace DataClient::detail {

struct DATACLIENT_TEST_EXPORT FetchState
{
    //! Requests for this key in flight (reads share one; each mutation counts).
    int loading = 0;
    std::optional<NetworkError> error;
    //! Start time of the request that failed (a response to an older request does not clear it).
    qint64 errorDate = 0;
    qint64 errorExpiresAt = 0;
    //! invalidate(): no data until the next response, even if the entity table could answer.
    bool invalidated = false;

    bool isIdle() const { return loading == 0 && !error && !invalidated; }
};

//! The FetchState of every key that has one; idle keys are dropped so the table stays small.
class DATACLIENT_TEST_EXPORT FetchStates
{
public:
    const FetchState *find(const QString &key) const
    {
        const auto it = m_states.constFind(key);
        return it == m_states.cend() ? nullptr : &*it;
    }
    int loading(const QString &key) const
    {
        const FetchState *state = find(key);
        return state ? state->loading : 0;
    }
    bool isInvalidated(const QString &key) const
    {
        const FetchState *state = find(key);
        return state && state->invalidated;
    }

    //! Returns true when the key went from idle to loading.
    bool startLoading(const QString &key) { return ++m_states[key].loading == 1; }
    //! Returns true when the key stopped loading.
    bool finishLoading(const QString &key);
    //! Stores \a error (failed request started at \a date); returns true (the state changed).
    void setError(const QString &key, const NetworkError &error, qint64 date, qint64 expiresAt);
    /*!
        A response from a request started at \a date arrived: clears the key's error unless it
        came from a request that started later, and the invalidated flag. Returns true when
        something changed.
    */
    bool settle(const QString &key, qint64 date);
    //! invalidate(): drops the error and marks the key. Returns true when something changed.
    bool invalidate(const QString &key);
    //! expireAll(): a stored error becomes stale now. Returns true when the key had one.
    bool expireError(const QString &key);
    //! Keys with an error or loading (every key a predicate of invalidateAll/expireAll may
    //! need besides the store's result keys).
    QStringList keys() const { return m_states.keys(); }
    //! resetEntireStore(): every key forgets its state; returns the keys that had one.
    QStringList clear();

private:
    void dropIfIdle(const QString &key);
    QHash<QString, FetchState> m_states;
};

} // namespace DataClient::detail
