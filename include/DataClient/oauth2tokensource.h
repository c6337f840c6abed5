// OAuth2TokenSource: a QOAuth2AuthorizationCodeFlow (Qt Network Authorization) as a Controller's
// token source. In the library DataClient::OAuth, which only the apps that use it link.
#pragma once

#include <DataClient/tokensource.h>

#include <QtCore/QPointer>
#include <QtCore/QPromise>

#include <memory>

#if defined(DATACLIENT_BUILDING_OAUTH)
#    define DATACLIENT_OAUTH_EXPORT Q_DECL_EXPORT
#else
#    define DATACLIENT_OAUTH_EXPORT Q_DECL_IMPORT
#endif

QT_BEGIN_NAMESPACE
class QNetworkReply;
class QOAuth2AuthorizationCodeFlow;
QT_END_NAMESPACE

namespace DataClient {

/*!
    The flow's access token for the Controller (Controller::setTokenSource()); set origins() to
    the API's origin. The flow stays the app's: its URLs, client id, scope and reply handler.

    - token(): the flow's token; without one, it starts the login (QAbstractOAuth::grant(): the
      flow asks for the browser with authorizeWithBrowser()) and requests wait until it is
      granted, or fails, or until their timeout;
    - refresh(): the refresh token grant (refreshAccessToken()); without a refresh token it fails
      at once (the app logs in again, on Controller::authenticationFailed());
    - expiresAt(): the flow's expirationAt(), so leadTimeMs() can refresh before it;
    - forget() (Controller::logout()): the flow's token and refresh token are cleared.

    PKCE is the flow's: Qt 6.8 sends an S256 challenge by default; Qt 6.4 has no PKCE. Qt 6.4's
    flow reports no failure of a token request it sent (it only warns): the failed answer is
    seen here, on the flow's QNetworkAccessManager, and fails the refresh. The tokens live in the
    flow (memory) only: nothing here writes them anywhere.
*/
class DATACLIENT_OAUTH_EXPORT OAuth2TokenSource : public TokenSource
{
    Q_OBJECT

public:
    explicit OAuth2TokenSource(QOAuth2AuthorizationCodeFlow *flow, QObject *parent = nullptr);
    ~OAuth2TokenSource() override;

    QOAuth2AuthorizationCodeFlow *flow() const;

    QFuture<QString> token() override;
    QFuture<QString> refresh() override;
    QDateTime expiresAt() const override;
    void forget() override;

private:
    void granted();
    void failed(const QString &why);
    void watchTokenRequests();
    void tokenReplyFinished(QNetworkReply *reply);
    QFuture<QString> pending();

    QPointer<QOAuth2AuthorizationCodeFlow> m_flow;
    std::unique_ptr<QPromise<QString>> m_pending;
};

} // namespace DataClient
