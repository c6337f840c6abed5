// The OAuth 2 login of the example (docs/authentication.md): a QOAuth2AuthorizationCodeFlow with
// a local reply handler for the redirect, made the Controller's token source by
// DataClient::OAuth2TokenSource, and a "browser" that follows the authorization URL without a
// window (what a test, or this headless example, uses instead of QDesktopServices::openUrl()).
#pragma once

#include <DataClient/oauth2tokensource.h>

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetworkAuth/QOAuth2AuthorizationCodeFlow>
#include <QtNetworkAuth/QOAuthHttpServerReplyHandler>

#include <memory>

namespace DataClient {
class Controller;
}

class OAuthLogin : public QObject
{
    Q_OBJECT

public:
    //! \a apiOrigin: where the token goes; the other URLs are the authorization server's.
    OAuthLogin(const QUrl &authorizationUrl, const QUrl &tokenUrl, const QString &clientId,
               const QUrl &apiOrigin, QObject *parent = nullptr);

    QOAuth2AuthorizationCodeFlow *flow() { return &m_flow; }
    DataClient::OAuth2TokenSource *tokens() { return m_tokens.get(); }
    //! Opens the authorization URL in the headless browser (the server's 302 to the reply
    //! handler ends the login), instead of a real browser.
    void useHeadlessBrowser();
    //! The authorization URLs the flow asked the browser to open.
    QList<QUrl> opened;

private:
    QOAuth2AuthorizationCodeFlow m_flow;
    QOAuthHttpServerReplyHandler *m_handler = nullptr;
    std::unique_ptr<DataClient::OAuth2TokenSource> m_tokens;
    QNetworkAccessManager m_browser;
};
