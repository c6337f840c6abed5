// An OAuth 2 authorization server on a TestServer, for tests and examples that drive a login
// without a browser: /authorize answers with a redirect carrying a code, /token exchanges it (or a
// refresh token) for an access token, and a protected route accepts only the current one.
#pragma once

#include <DataClient/global.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QUrl>

namespace DataClient::Testing {

/*!
    Routes on \a server:
    - GET /authorize?response_type=code&client_id&redirect_uri&state[&code_challenge]: 302 to
      redirect_uri with a one-time code and the state (what a browser login ends with);
    - POST /token, grant_type=authorization_code (code, redirect_uri, [code_verifier] checked
      against the challenge) or refresh_token: {access_token, refresh_token, token_type,
      expires_in}; a wrong code, verifier or refresh token gets 400 {error: invalid_grant};
    - GET /api/me: {name} with "Authorization: Bearer <the current access token>", else 401.
    Access tokens are "access-<n>", refresh tokens "refresh-<n>" (n counts the grants).
*/
class DATACLIENT_TESTING_EXPORT FakeAuthorizationServer : public QObject
{
    Q_OBJECT

public:
    explicit FakeAuthorizationServer(TestServer *server, QObject *parent = nullptr);

    QUrl authorizationUrl() const;
    QUrl tokenUrl() const;
    QUrl apiUrl() const;
    QString clientId() const { return QStringLiteral("dataclient-example"); }

    //! The access token /api/me accepts.
    QString accessToken() const { return m_accessToken; }
    //! Makes the current access token expire: /api/me answers it 401 (the refresh token stays).
    void expireAccessToken() { m_accessToken = QStringLiteral("expired"); }
    //! Revokes the refresh token: a refresh_token grant gets 400.
    void revokeRefreshToken() { m_refreshToken.clear(); }
    //! The seconds expires_in says (default 3600).
    int expiresIn = 3600;
    //! The code_challenge of the last authorization request ("" when PKCE was not used).
    QString lastCodeChallenge() const { return m_challenge; }
    int grants() const { return m_grants; }

private:
    ServerResponse authorize(const RecordedRequest &request);
    ServerResponse token(const RecordedRequest &request);
    ServerResponse grant();

    TestServer *m_server;
    QString m_code;
    QString m_redirectUri;
    QString m_challenge;
    QString m_accessToken;
    QString m_refreshToken;
    int m_grants = 0;
};

} // namespace DataClient::Testing
