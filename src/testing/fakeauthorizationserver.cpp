#include <DataClient/testing/fakeauthorizationserver.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QJsonObject>
#include <QtCore/QUrlQuery>
#include <QtCore/QUuid>

namespace DataClient::Testing {

namespace {

ServerResponse refused(const QString &error, const QString &description)
{
    return ServerResponse::json(QJsonObject {{QStringLiteral("error"), error},
                                             {QStringLiteral("error_description"), description}},
                                400);
}

} // namespace

FakeAuthorizationServer::FakeAuthorizationServer(TestServer *server, QObject *parent)
    : QObject(parent), m_server(server)
{
    server->route("GET", QStringLiteral("/authorize"),
                  [this](const RecordedRequest &request) { return authorize(request); });
    server->route("POST", QStringLiteral("/token"),
                  [this](const RecordedRequest &request) { return token(request); });
    server->route("GET", QStringLiteral("/api/me"), [this](const RecordedRequest &request) {
        if (m_accessToken.isEmpty()
            || request.header("authorization") != "Bearer " + m_accessToken.toUtf8())
            return ServerResponse::json(
                QJsonObject {{QStringLiteral("error"), QStringLiteral("invalid_token")}}, 401);
        return ServerResponse::json(QJsonObject {{QStringLiteral("id"), 1},
                                                 {QStringLiteral("name"), QStringLiteral("Ada")}});
    });
}

QUrl FakeAuthorizationServer::authorizationUrl() const
{
    return QUrl(m_server->url(QStringLiteral("/authorize")));
}

QUrl FakeAuthorizationServer::tokenUrl() const
{
    return QUrl(m_server->url(QStringLiteral("/token")));
}

QUrl FakeAuthorizationServer::apiUrl() const
{
    return QUrl(m_server->url());
}

ServerResponse FakeAuthorizationServer::authorize(const RecordedRequest &request)
{
    const QUrlQuery &query = request.query;
    const QUrl redirect(query.queryItemValue(QStringLiteral("redirect_uri"), QUrl::FullyDecoded));
    if (query.queryItemValue(QStringLiteral("response_type")) != u"code"
        || query.queryItemValue(QStringLiteral("client_id")) != clientId() || !redirect.isValid())
        return refused(QStringLiteral("invalid_request"),
                       QStringLiteral("expected response_type=code, client_id=%1 and a "
                                      "redirect_uri")
                           .arg(clientId()));
    m_code = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_redirectUri = redirect.toString();
    m_challenge = query.queryItemValue(QStringLiteral("code_challenge"));
    QUrl target = redirect;
    QUrlQuery back;
    back.addQueryItem(QStringLiteral("code"), m_code);
    back.addQueryItem(QStringLiteral("state"), query.queryItemValue(QStringLiteral("state")));
    target.setQuery(back);
    return ServerResponse::redirect(302, target.toEncoded());
}

ServerResponse FakeAuthorizationServer::token(const RecordedRequest &request)
{
    const QUrlQuery form(QString::fromUtf8(request.body));
    const auto field = [&form](const char *name) {
        return form.queryItemValue(QString::fromLatin1(name), QUrl::FullyDecoded);
    };
    const QString grantType = field("grant_type");
    if (grantType == u"authorization_code") {
        if (m_code.isEmpty() || field("code") != m_code)
            return refused(QStringLiteral("invalid_grant"), QStringLiteral("unknown code"));
        if (!m_challenge.isEmpty()) {
            const QByteArray verifier = field("code_verifier").toUtf8();
            const QString expected = QString::fromLatin1(
                QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
                    .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
            if (expected != m_challenge)
                return refused(QStringLiteral("invalid_grant"),
                               QStringLiteral("the code_verifier does not match the challenge"));
        }
        m_code.clear(); // one time
        return grant();
    }
    if (grantType == u"refresh_token") {
        if (m_refreshToken.isEmpty() || field("refresh_token") != m_refreshToken)
            return refused(QStringLiteral("invalid_grant"),
                           QStringLiteral("the refresh token was revoked"));
        return grant();
    }
    return refused(QStringLiteral("unsupported_grant_type"),
                   QStringLiteral("grant_type '%1'").arg(grantType));
}

ServerResponse FakeAuthorizationServer::grant()
{
    ++m_grants;
    m_accessToken = QStringLiteral("access-%1").arg(m_grants);
    m_refreshToken = QStringLiteral("refresh-%1").arg(m_grants);
    return ServerResponse::json(
        QJsonObject {{QStringLiteral("access_token"), m_accessToken},
                     {QStringLiteral("refresh_token"), m_refreshToken},
                     {QStringLiteral("token_type"), QStringLiteral("Bearer")},
                     {QStringLiteral("expires_in"), expiresIn}});
}

} // namespace DataClient::Testing
