#include "tokenauth.h"

//! [bearer-auth]
BearerAuth::BearerAuth(TokenStore *tokens, QObject *parent)
    : DataClient::Manager(parent), m_tokens(tokens)
{
    connect(tokens, &TokenStore::tokenChanged, this, &BearerAuth::sendHeld);
}

BearerAuth::Decision BearerAuth::beforeSend(const DataClient::ManagedRequest &)
{
    // Without a token every request would be refused: keep it until the login gives one (or
    // until the endpoint's timeout fails it).
    return m_tokens && !m_tokens->token().isEmpty() ? Decision::Send : Decision::Hold;
}

void BearerAuth::decorate(const DataClient::ManagedRequest &, DataClient::Headers *headers)
{
    if (m_tokens && !m_tokens->token().isEmpty())
        headers->append({"Authorization", "Bearer " + m_tokens->token().toUtf8()});
}

void BearerAuth::sendHeld()
{
    if (!m_tokens || m_tokens->token().isEmpty())
        return;
    const QList<quint64> held = heldRequests(); // oldest first
    for (const quint64 id : held)
        release(id);
}
//! [bearer-auth]
