#include "qmltokensource.h"

#include "logging_p.h"

#include <DataClient/networkerror.h>

namespace DataClient::Qml {

QmlTokenSource::QmlTokenSource(QObject *parent) : TokenSource(parent) { }

// A refresh still asked for ends canceled with its promise.
QmlTokenSource::~QmlTokenSource() = default;

QFuture<QString> QmlTokenSource::token()
{
    QPromise<QString> promise;
    promise.start();
    promise.addResult(m_accessToken);
    promise.finish();
    return promise.future();
}

QFuture<QString> QmlTokenSource::refresh()
{
    if (!m_refresh) {
        m_refresh = std::make_unique<QPromise<QString>>();
        m_refresh->start();
        Q_EMIT refreshingChanged();
        // After returning: a handler that answers at once finds the refresh asked for.
        QMetaObject::invokeMethod(this, &QmlTokenSource::refreshRequested, Qt::QueuedConnection);
    }
    return m_refresh->future();
}

void QmlTokenSource::forget()
{
    if (m_refresh)
        refreshFailed(QStringLiteral("logged out"));
    setAccessToken({});
    setAccessTokenExpiresAt({});
}

void QmlTokenSource::setAccessToken(const QString &token)
{
    if (std::unique_ptr<QPromise<QString>> refresh = std::move(m_refresh)) {
        m_accessToken = token;
        refresh->addResult(token);
        refresh->finish();
        Q_EMIT accessTokenChanged();
        Q_EMIT refreshingChanged();
        return;
    }
    if (token == m_accessToken)
        return;
    m_accessToken = token;
    Q_EMIT accessTokenChanged();
    Q_EMIT tokenChanged();
}

void QmlTokenSource::setAccessTokenExpiresAt(const QDateTime &expiresAt)
{
    if (expiresAt == m_expiresAt)
        return;
    m_expiresAt = expiresAt;
    Q_EMIT expiresAtChanged();
}

void QmlTokenSource::refreshFailed(const QString &message)
{
    std::unique_ptr<QPromise<QString>> refresh = std::move(m_refresh);
    if (!refresh) {
        qCWarning(lcQml).noquote()
            << QStringLiteral("TokenSource.refreshFailed(): no refresh was asked for (call it from "
                              "onRefreshRequested, instead of setting accessToken)");
        return;
    }
    refresh->setException(NetworkError(NetworkError::Kind::Other, 0, message));
    refresh->finish();
    Q_EMIT refreshingChanged();
}

} // namespace DataClient::Qml
