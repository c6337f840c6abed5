#include <DataClient/networkerror.h>
#include <DataClient/oauth2tokensource.h>

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetworkAuth/QOAuth2AuthorizationCodeFlow>

namespace DataClient {

namespace {

QFuture<QString> ready(const QString &token)
{
    QPromise<QString> promise;
    promise.start();
    promise.addResult(token);
    promise.finish();
    return promise.future();
}

QFuture<QString> failure(const QString &why)
{
    return QtFuture::makeExceptionalFuture<QString>(
        NetworkError(NetworkError::Kind::Other, 0, QStringLiteral("OAuth 2: %1").arg(why)));
}

} // namespace

OAuth2TokenSource::OAuth2TokenSource(QOAuth2AuthorizationCodeFlow *flow, QObject *parent)
    : TokenSource(parent), m_flow(flow)
{
    Q_ASSERT(flow);
    connect(flow, &QAbstractOAuth::granted, this, &OAuth2TokenSource::granted);
    connect(flow, &QAbstractOAuth2::expirationAtChanged, this, &TokenSource::expiresAtChanged);
    connect(flow, &QAbstractOAuth2::error, this,
            [this](const QString &error, const QString &description, const QUrl &) {
                failed(description.isEmpty() ? error : error + QStringLiteral(": ") + description);
            });
}

void OAuth2TokenSource::watchTokenRequests()
{
    // Qt 6.4's flow only warns when its token request fails: its answer is seen here, on the
    // flow's network access manager (made now if the flow has none yet).
    if (!m_flow->networkAccessManager())
        m_flow->setNetworkAccessManager(new QNetworkAccessManager(m_flow));
    connect(m_flow->networkAccessManager(), &QNetworkAccessManager::finished, this,
            &OAuth2TokenSource::tokenReplyFinished, Qt::UniqueConnection);
}

OAuth2TokenSource::~OAuth2TokenSource() = default; // a promise still pending ends canceled

QOAuth2AuthorizationCodeFlow *OAuth2TokenSource::flow() const
{
    return m_flow;
}

QFuture<QString> OAuth2TokenSource::pending()
{
    if (!m_pending) {
        m_pending = std::make_unique<QPromise<QString>>();
        m_pending->start();
    }
    return m_pending->future();
}

QFuture<QString> OAuth2TokenSource::token()
{
    if (!m_flow)
        return failure(QStringLiteral("the flow was destroyed"));
    if (!m_flow->token().isEmpty())
        return ready(m_flow->token());
    // Not logged in: the login starts, and the requests wait for it.
    const QFuture<QString> future = pending();
    watchTokenRequests();
    if (m_flow->status() != QAbstractOAuth::Status::TemporaryCredentialsReceived)
        m_flow->grant();
    return future;
}

QFuture<QString> OAuth2TokenSource::refresh()
{
    if (!m_flow)
        return failure(QStringLiteral("the flow was destroyed"));
    if (m_flow->refreshToken().isEmpty())
        return failure(QStringLiteral("no refresh token: log in again"));
    if (m_pending)
        return pending();
    if (m_flow->status() == QAbstractOAuth::Status::RefreshingToken)
        return failure(QStringLiteral("an earlier refresh failed and the flow still waits for "
                                      "it: log in again"));
    const QFuture<QString> future = pending();
    watchTokenRequests();
    m_flow->refreshAccessToken();
    return future;
}

QDateTime OAuth2TokenSource::expiresAt() const
{
    return m_flow ? m_flow->expirationAt() : QDateTime();
}

void OAuth2TokenSource::forget()
{
    failed(QStringLiteral("logged out"));
    if (m_flow) {
        m_flow->setToken({});
        m_flow->setRefreshToken({});
    }
}

void OAuth2TokenSource::granted()
{
    if (std::unique_ptr<QPromise<QString>> promise = std::move(m_pending)) {
        promise->addResult(m_flow->token());
        promise->finish();
    }
}

void OAuth2TokenSource::failed(const QString &why)
{
    if (std::unique_ptr<QPromise<QString>> promise = std::move(m_pending)) {
        promise->setException(
            NetworkError(NetworkError::Kind::Other, 0, QStringLiteral("OAuth 2: %1").arg(why)));
        promise->finish();
    }
}

void OAuth2TokenSource::tokenReplyFinished(QNetworkReply *reply)
{
    if (!m_pending || !m_flow || reply->error() == QNetworkReply::NoError
        || reply->url().adjusted(QUrl::RemoveQuery) != m_flow->accessTokenUrl())
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    failed(QStringLiteral("the token endpoint %1 answered %2 (%3)")
               .arg(m_flow->accessTokenUrl().toString())
               .arg(status)
               .arg(reply->errorString()));
}

} // namespace DataClient
