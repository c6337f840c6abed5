// `TokenSource` QML type: a token source whose token is a property the QML code sets (a login
// form, a platform's account API) and whose refresh is a signal it answers.
#pragma once

#include <DataClient/tokensource.h>

#include <QtCore/QPromise>
#include <QtQml/qqmlregistration.h>

#include <memory>

namespace DataClient::Qml {

/*!
    \code
    TokenSource {
        id: tokens
        origins: ["https://api.example.com"]
        accessToken: login.token
        onRefreshRequested: auth.renew()   // sets accessToken, or calls refreshFailed(why)
    }
    Component.onCompleted: Controller.tokenSource = tokens
    \endcode
    Setting accessToken while a refresh is asked answers it; otherwise it is a new token (a
    login), and the next request takes it. Controller.logout() clears it.
*/
class DATACLIENT_QML_EXPORT QmlTokenSource : public DataClient::TokenSource
{
    Q_OBJECT
    QML_NAMED_ELEMENT(TokenSource)
    //! The token sent; "" for none (requests go without it).
    Q_PROPERTY(QString accessToken READ accessToken WRITE setAccessToken NOTIFY accessTokenChanged)
    //! When accessToken expires (a Date); unset: unknown.
    Q_PROPERTY(QDateTime accessTokenExpiresAt READ expiresAt WRITE setAccessTokenExpiresAt NOTIFY
                   expiresAtChanged)
    //! A refresh was asked for and not answered yet.
    Q_PROPERTY(bool refreshing READ isRefreshing NOTIFY refreshingChanged)

public:
    explicit QmlTokenSource(QObject *parent = nullptr);
    ~QmlTokenSource() override;

    QFuture<QString> token() override;
    QFuture<QString> refresh() override;
    QDateTime expiresAt() const override { return m_expiresAt; }
    void forget() override;

    QString accessToken() const { return m_accessToken; }
    void setAccessToken(const QString &token);
    void setAccessTokenExpiresAt(const QDateTime &expiresAt);
    bool isRefreshing() const { return m_refresh != nullptr; }

    //! Answers the refresh asked for with a failure: the requests waiting fail as Unauthorized.
    Q_INVOKABLE void refreshFailed(const QString &message);

Q_SIGNALS:
    void accessTokenChanged();
    void refreshingChanged();
    //! The Controller needs a new token: set accessToken, or call refreshFailed().
    void refreshRequested();

private:
    QString m_accessToken;
    QDateTime m_expiresAt;
    std::unique_ptr<QPromise<QString>> m_refresh;
};

} // namespace DataClient::Qml
