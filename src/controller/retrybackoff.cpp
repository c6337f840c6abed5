#include "retrybackoff_p.h"

#include <QtCore/QDateTime>

#include <algorithm>
#include <cmath>

namespace DataClient::detail {

bool RetryBackoff::isRetriable(const NetworkError &error)
{
    switch (error.kind()) {
    case NetworkError::Kind::Timeout:
        return true;
    case NetworkError::Kind::Http: {
        const int status = error.status();
        return status >= 500 || status == 408 || status == 429;
    }
    case NetworkError::Kind::Network:
        switch (error.networkError()) {
        case QNetworkReply::ConnectionRefusedError:
        case QNetworkReply::RemoteHostClosedError:
        case QNetworkReply::TimeoutError:
        case QNetworkReply::TemporaryNetworkFailureError:
        case QNetworkReply::NetworkSessionFailedError:
        case QNetworkReply::ProxyConnectionRefusedError:
        case QNetworkReply::ProxyConnectionClosedError:
        case QNetworkReply::NoError: // a body cut short: the connection was reset mid-answer
            return true;
        default:
            return false; // host not found, TLS, protocol: the same next time
        }
    default:
        return false;
    }
}

std::optional<qint64> RetryBackoff::retryAfterMs(const QByteArray &value, qint64 now)
{
    const QByteArray text = value.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    bool isNumber = false;
    const qlonglong seconds = text.toLongLong(&isNumber);
    if (isNumber) {
        // A year of seconds still fits; the caller caps it by maxDelayMs.
        if (seconds < 0 || seconds > 366LL * 24 * 3600)
            return seconds < 0 ? std::nullopt : std::optional<qint64>(366LL * 24 * 3600 * 1000);
        return seconds * 1000;
    }
    // An HTTP-date ends in "GMT", which Qt's RFC 2822 parser wants as an offset.
    QString dateText = QString::fromLatin1(text);
    if (dateText.endsWith(u" GMT"))
        dateText = dateText.chopped(3) + QStringLiteral("+0000");
    const QDateTime date = QDateTime::fromString(dateText, Qt::RFC2822Date);
    if (!date.isValid())
        return std::nullopt;
    const qint64 wait = date.toMSecsSinceEpoch() - now;
    return wait > 0 ? std::optional<qint64>(wait) : std::nullopt;
}

qint64 RetryBackoff::delayBefore(int nextAttempt, const RetryPolicy &policy,
                                 const NetworkError &error, double unit, qint64 now)
{
    const qint64 cap = policy.maxDelayMs;
    if (error.kind() == NetworkError::Kind::Http
        && (error.status() == 429 || error.status() == 503)) {
        if (const std::optional<qint64> wait = retryAfterMs(error.retryAfter(), now))
            return std::min(*wait, cap);
    }
    // 2^(n-2) grows past any cap after ~31 steps: stop doubling there.
    const int doublings = std::clamp(nextAttempt - 2, 0, 31);
    const qint64 step = std::min<qint64>(cap, qint64(policy.baseDelayMs) << doublings);
    return std::clamp<qint64>(qint64(std::floor(std::clamp(unit, 0.0, 1.0) * double(step))), 0,
                              cap);
}

} // namespace DataClient::detail
