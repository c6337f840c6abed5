#include <DataClient/private/sameorigin_p.h>

namespace DataClient::detail {

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    auto port = [](const QUrl &url) {
        const QString scheme = url.scheme().toLower();
        return url.port(scheme == u"https" ? 443 : scheme == u"http" ? 80 : -1);
    };
    return !a.host().isEmpty() && a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0
        && a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && port(a) == port(b);
}

} // namespace DataClient::detail
