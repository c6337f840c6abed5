#include "oauthlogin.h"

#include <QtNetwork/QNetworkReply>

//! [oauth-login]
OAuthLogin::OAuthLogin(const QUrl &authorizationUrl, const QUrl &tokenUrl, const QString &clientId,
                       const QUrl &apiOrigin, QObject *parent)
    : QObject(parent)
{
    m_flow.setAuthorizationUrl(authorizationUrl);
    m_flow.setAccessTokenUrl(tokenUrl);
    m_flow.setClientIdentifier(clientId);
    m_flow.setScope(QStringLiteral("profile"));
    // The redirect comes back to a local port (0: any free one).
    m_handler = new QOAuthHttpServerReplyHandler(0, this);
    m_flow.setReplyHandler(m_handler);
    // Only the apps that use it link DataClient::OAuth (Qt Network Authorization).
    m_tokens = std::make_unique<DataClient::OAuth2TokenSource>(&m_flow);
    m_tokens->setOrigins({apiOrigin});
    m_tokens->setLeadTimeMs(60000); // refreshed a minute before it expires
}
//! [oauth-login]

void OAuthLogin::useHeadlessBrowser()
{
    connect(&m_flow, &QAbstractOAuth::authorizeWithBrowser, this, [this](const QUrl &url) {
        opened.append(url);
        // The server answers 302 to the reply handler's callback with the code: following it
        // is what the browser does when the user has logged in.
        QNetworkReply *reply = m_browser.get(QNetworkRequest(url));
        connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    });
}
