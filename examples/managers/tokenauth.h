// A Manager that sends "Authorization: Bearer <token>" from a token store, holding requests until
// there is a token (docs/managers.md).
#pragma once

#include <DataClient/manager.h>

#include <QtCore/QPointer>

//! [token-store]
//! Where the application keeps its access token (a login screen sets it).
class TokenStore : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString token READ token WRITE setToken NOTIFY tokenChanged)

public:
    using QObject::QObject;
    QString token() const { return m_token; }
    void setToken(const QString &token)
    {
        if (token == m_token)
            return;
        m_token = token;
        Q_EMIT tokenChanged();
    }

Q_SIGNALS:
    void tokenChanged();

private:
    QString m_token;
};
//! [token-store]

class BearerAuth : public DataClient::Manager
{
    Q_OBJECT

public:
    explicit BearerAuth(TokenStore *tokens, QObject *parent = nullptr);

protected:
    Decision beforeSend(const DataClient::ManagedRequest &request) override;
    void decorate(const DataClient::ManagedRequest &request, DataClient::Headers *headers) override;

private:
    void sendHeld();
    QPointer<TokenStore> m_tokens;
};
