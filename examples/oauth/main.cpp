// A headless OAuth 2 login against an in-process authorization server (the Testing library's
// FakeAuthorizationServer): authorization code (with PKCE on Qt 6.8), the token on every API
// request, an expired token refreshed with the refresh token grant and the request replayed.
// Prints what it did; exits 0 when everything worked.
#include "oauthlogin.h"

#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/fakeauthorizationserver.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QTextStream>
#include <QtNetwork/QNetworkAccessManager>

#include <optional>

using namespace DataClient;

namespace {

//! Waits for \a future in the event loop; its value, or nothing (the error is printed).
std::optional<QVariant> wait(QFuture<QVariant> future)
{
    while (!future.isFinished())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    try {
        return future.result();
    } catch (const NetworkError &error) {
        QTextStream(stderr) << "failed: " << error.message() << '\n';
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    Testing::TestServer server;
    if (!server.listen())
        return 1;
    Testing::FakeAuthorizationServer authorization(&server);

    OAuthLogin login(authorization.authorizationUrl(), authorization.tokenUrl(),
                     authorization.clientId(), authorization.apiUrl());
    login.useHeadlessBrowser();
    QNetworkAccessManager network;
    Controller controller;
    controller.setNetworkAccessManager(&network);
    controller.setTokenSource(login.tokens());
    QObject::connect(&controller, &Controller::authenticationFailed, [](const NetworkError &e) {
        QTextStream(stderr) << "authentication failed: " << e.message() << '\n';
    });
    const EndpointPtr me
        = RestEndpoint::create({.path = QStringLiteral("/api/me"), .urlPrefix = server.url()});

    QTextStream out(stdout);
    // The first request has no token: the login runs, then the request goes with the token.
    const std::optional<QVariant> first = wait(controller.fetch(me));
    if (!first)
        return 1;
    // Tokens are never printed (nor logged, nor written): only how many were granted.
    out << "logged in as " << first->toMap().value(QStringLiteral("name")).toString()
        << " (grants: " << authorization.grants() << ")\n";
    authorization.expireAccessToken();
    controller.invalidate(me);
    const std::optional<QVariant> again = wait(controller.fetch(me));
    if (!again)
        return 1;
    out << "the expired token was refreshed (grants: " << authorization.grants() << ") and "
        << again->toMap().value(QStringLiteral("name")).toString() << " read again\n";
    controller.logout();
    out << "logged out: " << (login.flow()->token().isEmpty() ? "no token left" : "a token left!")
        << '\n';
    return login.flow()->token().isEmpty() && authorization.grants() == 2 ? 0 : 1;
}
