// The option `csrf`: Django's, Rails' and Laravel's double-submit token, read at send time.
#include "csrf_p.h"

#include "httpexchange_p.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkCookie>
#include <QtNetwork/QNetworkCookieJar>

namespace DataClient::detail {

bool csrfApplies(const Csrf &csrf, const QByteArray &method, const QUrl &target, const QUrl &origin)
{
    if (csrf.isNull())
        return false;
    static const QByteArray safe[] = {"GET", "HEAD", "OPTIONS", "TRACE"};
    if (std::find(std::begin(safe), std::end(safe), method) != std::end(safe))
        return false;
    // The token is a secret of the endpoint's own site: never sent anywhere else.
    return origin.host().isEmpty() || sameOrigin(target, origin);
}

bool addCsrfHeader(const Csrf &csrf, QNetworkAccessManager *network, const QUrl &target,
                   RequestInit &init)
{
    QNetworkCookieJar *jar = network ? network->cookieJar() : nullptr;
    if (!jar)
        return false;
    const QList<QNetworkCookie> cookies = jar->cookiesForUrl(target);
    for (const QNetworkCookie &cookie : cookies) {
        if (cookie.name() != csrf.cookie)
            continue;
        // Laravel writes its token URL-encoded; browsers' frameworks decode it before sending.
        if (!init.hasHeader(csrf.header))
            init.setHeader(csrf.header, QByteArray::fromPercentEncoding(cookie.value()));
        return true;
    }
    return false;
}

QString missingCsrfCookieNote(const Csrf &csrf)
{
    return QStringLiteral(" (sent without the CSRF header %1: the cookie jar of the network "
                          "access manager holds no cookie '%2' for this URL; read a page that "
                          "sets it first, e.g. the login page or a token endpoint)")
        .arg(QString::fromLatin1(csrf.header), QString::fromLatin1(csrf.cookie));
}

} // namespace DataClient::detail
