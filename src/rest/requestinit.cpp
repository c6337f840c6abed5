// RequestInit and Response helpers: case-insensitive header access, credentials names.
#include <DataClient/requestinit.h>
#include <DataClient/response.h>

namespace DataClient {

namespace {

QByteArray headerValue(const Headers &headers, QByteArrayView name)
{
    QByteArray value;
    for (const auto &[key, v] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) != 0)
            continue;
        if (!value.isEmpty())
            value += ", ";
        value += v;
    }
    return value;
}

bool containsHeader(const Headers &headers, QByteArrayView name)
{
    return std::any_of(headers.cbegin(), headers.cend(), [name](const auto &header) {
        return header.first.compare(name, Qt::CaseInsensitive) == 0;
    });
}

} // namespace

QString credentialsName(Credentials credentials)
{
    switch (credentials) {
    case Credentials::Omit:
        return QStringLiteral("omit");
    case Credentials::SameOrigin:
        return QStringLiteral("same-origin");
    case Credentials::Include:
        return QStringLiteral("include");
    }
    return {};
}

std::optional<Credentials> credentialsFromName(const QString &name)
{
    for (Credentials c : {Credentials::Omit, Credentials::SameOrigin, Credentials::Include}) {
        if (credentialsName(c) == name)
            return c;
    }
    return std::nullopt;
}

QByteArray RequestInit::header(QByteArrayView name) const
{
    return headerValue(headers, name);
}

bool RequestInit::hasHeader(QByteArrayView name) const
{
    return containsHeader(headers, name);
}

void RequestInit::setHeader(const QByteArray &name, const QByteArray &value)
{
    removeHeader(name);
    headers.append({name, value});
}

void RequestInit::removeHeader(QByteArrayView name)
{
    headers.removeIf([name](const auto &header) {
        return header.first.compare(name, Qt::CaseInsensitive) == 0;
    });
}

QByteArray Response::header(QByteArrayView name) const
{
    return headerValue(headers, name);
}

bool Response::hasHeader(QByteArrayView name) const
{
    return containsHeader(headers, name);
}

QByteArray Response::contentType() const
{
    QByteArray type = header("content-type");
    const qsizetype semicolon = type.indexOf(';');
    if (semicolon >= 0)
        type.truncate(semicolon);
    return type.trimmed().toLower();
}

QByteArray Response::charset() const
{
    const QList<QByteArray> parameters = header("content-type").split(';');
    for (qsizetype i = 1; i < parameters.size(); ++i) {
        const QByteArray parameter = parameters.at(i).trimmed();
        const qsizetype equals = parameter.indexOf('=');
        if (equals < 0 || parameter.left(equals).trimmed().toLower() != "charset")
            continue;
        QByteArray value = parameter.mid(equals + 1).trimmed();
        if (value.size() >= 2 && value.startsWith('"') && value.endsWith('"'))
            value = value.mid(1, value.size() - 2);
        return value.toLower();
    }
    return {};
}

} // namespace DataClient
