// TokenSource: where a Controller gets the access token it sends, and a new one when the server
// refuses it (docs/authentication.md).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QDateTime>
#include <QtCore/QFuture>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QUrl>

namespace DataClient {

/*!
    The access token of the user, for the requests a Controller sends to the origins() it is for.
    Give it to Controller::setTokenSource(). Subclass it in C++ (token() and refresh() may
    answer later: a keychain, a login dialog, an OAuth 2 token endpoint), or use the QML type
    TokenSource (QmlTokenSource), whose token is a property.

    What the Controller does with it:
    - every attempt of a request whose URL has one of origins() carries
      `<headerName>: <scheme> <token>` ("Authorization: Bearer …" by default); a request to any
      other origin never does, nor does a redirect to another origin;
    - the first request asks token(); requests wait for its answer (one call for all of them),
      and until tokenChanged() the answer is kept;
    - a request that carried the token and is answered 401 starts one refresh(), whatever the
      number of such answers; those requests and every new one wait for it, then each is sent
      again once with the new token. If the refresh fails, or the new token is refused too, they
      fail with NetworkError::Kind::Unauthorized and the Controller emits
      authenticationFailed();
    - with leadTimeMs() > 0, a token whose expiresAt() is nearer than that is refreshed before
      the request is sent.

    A token is never written anywhere by the Controller (store file, outbox file, logs).
    Functions are called on the Controller's thread; the futures may finish on any thread.
*/
class DATACLIENT_CONTROLLER_EXPORT TokenSource : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QList<QUrl> origins READ origins WRITE setOrigins NOTIFY originsChanged)
    Q_PROPERTY(QByteArray headerName READ headerName WRITE setHeaderName NOTIFY headerNameChanged)
    Q_PROPERTY(QByteArray scheme READ scheme WRITE setScheme NOTIFY schemeChanged)
    Q_PROPERTY(qint64 leadTimeMs READ leadTimeMs WRITE setLeadTimeMs NOTIFY leadTimeMsChanged)
    Q_PROPERTY(QDateTime expiresAt READ expiresAt NOTIFY expiresAtChanged)

public:
    explicit TokenSource(QObject *parent = nullptr);
    ~TokenSource() override;

    /*!
        The current token. An empty token means none: requests go without the header (and a
        401 to one of them fails as Unauthorized, nothing is refreshed). A future that fails
        (or is canceled) fails the requests waiting for it as Unauthorized.
    */
    virtual QFuture<QString> token() = 0;
    /*!
        A new token: the current one was refused or expires within leadTimeMs(). The
        Controller calls it once however many requests wait. A failed or canceled future, or an
        empty token, fails them as Unauthorized.
    */
    virtual QFuture<QString> refresh() = 0;
    //! When the current token expires; invalid (the default) when unknown: then only an answer
    //! 401 refreshes it.
    virtual QDateTime expiresAt() const;
    //! Controller::logout() was called: forget the user's tokens (the default does nothing).
    virtual void forget();

    /*!
        The origins (scheme, host and port; a path is ignored) whose requests carry the token.
        None by default: a token source sends nothing until it is told where to.
    */
    QList<QUrl> origins() const;
    void setOrigins(const QList<QUrl> &origins);
    //! Whether a request to \a url carries the token (its origin is one of origins()).
    bool appliesTo(const QUrl &url) const;
    //! The header the token goes in; "Authorization" by default.
    QByteArray headerName() const;
    void setHeaderName(const QByteArray &name);
    //! What precedes the token in the header, "Bearer" by default; empty: the token alone.
    QByteArray scheme() const;
    void setScheme(const QByteArray &scheme);
    //! The header's value for \a token.
    QByteArray headerValue(const QString &token) const;
    //! A token expiring within this many ms is refreshed before a request is sent; 0 (the
    //! default): only a 401 refreshes it.
    qint64 leadTimeMs() const;
    void setLeadTimeMs(qint64 ms);

Q_SIGNALS:
    //! The token is another (a login): the next request asks token() again.
    void tokenChanged();
    void expiresAtChanged();
    //! The user logged out (another window, the server): the Controller forgets everything as
    //! Controller::logout() does.
    void loggedOut();
    void originsChanged();
    void headerNameChanged();
    void schemeChanged();
    void leadTimeMsChanged();

private:
    QList<QUrl> m_origins;
    QByteArray m_headerName = QByteArrayLiteral("Authorization");
    QByteArray m_scheme = QByteArrayLiteral("Bearer");
    qint64 m_leadTimeMs = 0;
};

} // namespace DataClient
