#include <DataClient/private/sameorigin_p.h>
#include <DataClient/tokensource.h>

#include <algorithm>

namespace DataClient {

TokenSource::TokenSource(QObject *parent) : QObject(parent) { }

TokenSource::~TokenSource() = default;

QDateTime TokenSource::expiresAt() const
{
    return {};
}

void TokenSource::forget() { }

QList<QUrl> TokenSource::origins() const
{
    return m_origins;
}

void TokenSource::setOrigins(const QList<QUrl> &origins)
{
    if (origins == m_origins)
        return;
    m_origins = origins;
    Q_EMIT originsChanged();
}

bool TokenSource::appliesTo(const QUrl &url) const
{
    return std::any_of(m_origins.cbegin(), m_origins.cend(),
                       [&url](const QUrl &origin) { return detail::sameOrigin(url, origin); });
}

QByteArray TokenSource::headerName() const
{
    return m_headerName;
}

void TokenSource::setHeaderName(const QByteArray &name)
{
    if (name.trimmed().isEmpty()) {
        qWarning("TokenSource::setHeaderName(): an empty header name; the token stays in '%s'",
                 m_headerName.constData());
        return;
    }
    if (name == m_headerName)
        return;
    m_headerName = name;
    Q_EMIT headerNameChanged();
}

QByteArray TokenSource::scheme() const
{
    return m_scheme;
}

void TokenSource::setScheme(const QByteArray &scheme)
{
    if (scheme == m_scheme)
        return;
    m_scheme = scheme;
    Q_EMIT schemeChanged();
}

QByteArray TokenSource::headerValue(const QString &token) const
{
    return m_scheme.isEmpty() ? token.toUtf8() : m_scheme + ' ' + token.toUtf8();
}

qint64 TokenSource::leadTimeMs() const
{
    return m_leadTimeMs;
}

void TokenSource::setLeadTimeMs(qint64 ms)
{
    if (ms == m_leadTimeMs)
        return;
    m_leadTimeMs = ms;
    Q_EMIT leadTimeMsChanged();
}

} // namespace DataClient
