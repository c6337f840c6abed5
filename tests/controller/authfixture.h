// Base of the authentication tests: the virtual-time fixture plus a TestTokenSource for the test
// server's origin, and /private/:id that answers only the token the server accepts (401 to any
// other, or to none), recording the Authorization header of every request it got.
#pragma once

#include "testtokensource.h"
#include "virtualtimefixture.h"

#include <QSignalSpy>

class AuthTest : public VirtualTimeTest
{
    Q_OBJECT

protected:
    std::unique_ptr<TestTokenSource> source;
    //! The token /private answers; any other is refused with 401.
    QString accepted = QStringLiteral("t1");
    //! The status /private answers to a token it refuses.
    int refusal = 401;
    std::unique_ptr<QSignalSpy> failures;

    void setUp() override
    {
        using namespace DataClient::Testing;
        accepted = QStringLiteral("t1");
        refusal = 401;
        const auto guarded = [this](const RecordedRequest &r) {
            if (r.header("authorization") != "Bearer " + accepted.toUtf8())
                return ServerResponse::json(QJsonObject {{QStringLiteral("error"), 1}}, refusal);
            QJsonObject answer {{QStringLiteral("id"), r.pathParams.value(QStringLiteral("id"))}};
            if (r.method != "GET")
                answer.insert(QStringLiteral("id"), 100);
            return ServerResponse::json(answer);
        };
        server->route("*", QStringLiteral("/private"), guarded);
        server->route("*", QStringLiteral("/private/:id"), guarded);
        source = std::make_unique<TestTokenSource>();
        source->setOrigins({QUrl(server->url())});
        controller->setTokenSource(source.get());
        failures = std::make_unique<QSignalSpy>(controller.get(),
                                                &DataClient::Controller::authenticationFailed);
    }

    //! GET /private/<id> (or another method on /private).
    DataClient::EndpointPtr privateEndpoint(const QByteArray &method = "GET",
                                            DataClient::EndpointOptions options = {}) const
    {
        options.method = method;
        options.path = QStringLiteral("/private/:id?");
        options.urlPrefix = server->url();
        options.retry = DataClient::RetryPolicy {0, 100, 1000};
        return DataClient::RestEndpoint::create(options);
    }
    //! The Authorization headers the server got for \a path, in order ("-" for none).
    QStringList tokensSentTo(const QString &path, const QByteArray &method = "GET") const
    {
        QStringList tokens;
        for (const DataClient::Testing::RecordedRequest &r : server->requests(method, path))
            tokens.append(r.hasHeader("authorization")
                              ? QString::fromUtf8(r.header("authorization"))
                              : QStringLiteral("-"));
        return tokens;
    }
};
