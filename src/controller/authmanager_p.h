// Authentication (Controller::setTokenSource()): the token source's token goes with every attempt
// of a request to its origins; a 401 to one that carried it starts one refresh for all of them,
// and each is sent again once with the new token, or fails as Unauthorized.
#pragma once

#include "lifecycle_p.h"

#include <DataClient/tokensource.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QHash>
#include <QtCore/QMap>
#include <QtCore/QPointer>
#include <QtCore/QSet>

namespace DataClient::detail {

class AuthManager final : public Lifecycle
{
public:
    explicit AuthManager(ControllerPrivate &core);
    ~AuthManager() override;

    //! Keeps a request of the source's origins while its token is asked for or refreshed.
    bool holds(InFlightRequest &request) override;
    void decorate(InFlightRequest &request, Headers *headers) override;
    //! A 401 to a request that carried the token: it waits for the refresh, then is replayed.
    void attemptFailed(InFlightRequest &request, const NetworkError &error,
                       RetryPlan *plan) override;
    void requestEnded(const InFlightRequest &request) override;
    void reset() override;
    void loggedOut() override;
    void shutdown() override;

    //! Controller::setTokenSource().
    void setSource(TokenSource *source);
    TokenSource *source() const { return m_source; }

private:
    enum class Asking { Nothing, Token, Refresh };
    struct Waiting
    {
        quint64 deadline = 0; //!< the Scheduler entry that ends its wait, 0 for none
        bool replay = false; //!< answered 401: its next attempt is its one replay
    };

    bool appliesTo(const InFlightRequest &request) const;
    //! Whether the token expires within the source's lead time and may be refreshed ahead.
    bool expiresSoon() const;
    //! Asks the source (token() or refresh()); true when it gave a token at once.
    bool ask(Asking what);
    void take(const QString &token, Asking from);
    //! The source's future finished: the waiting requests are sent, or fail.
    void sourceAnswered(quint64 epoch);
    void wait(InFlightRequest &request, bool replay);
    void expire(quint64 id);
    //! Sends every waiting request (replays with the new token), oldest first.
    void sendAll();
    //! Fails every waiting request as Unauthorized; authenticationFailed() once.
    void failAll(const QString &why);
    //! Fails \a request (waiting for its next attempt) with \a error at the next event-loop turn.
    void failLater(InFlightRequest &request, const NetworkError &error);
    //! Forgets the token and anything asked (a logout, another source).
    void forget();
    void stopWaiting();

    QPointer<TokenSource> m_source;
    QList<QMetaObject::Connection> m_connections;
    QString m_token;
    bool m_known = false;
    //! Incremented with each token taken: what a request carried is compared with it.
    quint64 m_generation = 0;
    //! The token came from a refresh and expired within the lead time already: not refreshed
    //! ahead again (a 401 still refreshes it).
    bool m_refreshedSoon = false;
    Asking m_asking = Asking::Nothing;
    //! Incremented by each ask and forget(): the answer of an older ask is dropped.
    quint64 m_epoch = 0;
    QFutureWatcher<QString> *m_watcher = nullptr;
    //! Requests waiting for the source, by id (oldest first).
    QMap<quint64, Waiting> m_waiting;
    //! The token generation each request's attempt under way carried (absent: none).
    QHash<quint64, quint64> m_sentWith;
    QSet<quint64> m_replayed;
};

} // namespace DataClient::detail
