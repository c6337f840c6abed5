// What the screen's tests talk to: Testing::MockNetwork (the default: no socket), or the same
// fixtures served by a Testing::TestServer over 127.0.0.1 (DATACLIENT_EXAMPLE_BACKEND=server),
// to compare the two (docs/performance.md). Fixtures are matched the same way in both.
#pragma once

#include <DataClient/restendpoint.h>
#include <DataClient/testing/mocknetwork.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QSet>
#include <QtNetwork/QNetworkAccessManager>

#include <memory>

class ExampleBackend
{
public:
    ExampleBackend() : m_useServer(qgetenv("DATACLIENT_EXAMPLE_BACKEND") == "server")
    {
        if (m_useServer) {
            m_server = std::make_unique<DataClient::Testing::TestServer>();
            m_server->listen();
        }
    }

    bool usesServer() const { return m_useServer; }
    QString url() const
    {
        return m_useServer ? m_server->url() : QStringLiteral("http://api.test");
    }
    QNetworkAccessManager *network() { return m_useServer ? &m_real : &m_mock; }
    DataClient::Testing::MockNetwork &mock() { return m_mock; }

    void answer(const DataClient::Testing::Fixture &fixture)
    {
        if (!m_useServer) {
            m_mock.addFixture(fixture);
            return;
        }
        m_fixtures.append(fixture);
        const QString path = fixture.endpointUrl().path();
        const QByteArray method = fixture.effectiveMethod();
        if (m_routed.contains(method + ' ' + path.toUtf8()))
            return;
        m_routed.insert(method + ' ' + path.toUtf8());
        m_server->route(method, path, [this](const DataClient::Testing::RecordedRequest &got) {
            DataClient::Testing::MockRequest request {
                got.method, QUrl(m_server->url(got.path)), {}, got.body};
            request.url.setQuery(got.query);
            for (const DataClient::Testing::Fixture &fixture : std::as_const(m_fixtures)) {
                if (fixture.matches(request)) {
                    const DataClient::Testing::MockReply reply = fixture.reply();
                    return DataClient::Testing::ServerResponse::raw(reply.body, "application/json",
                                                                    reply.status);
                }
            }
            return DataClient::Testing::ServerResponse::json({}, 404);
        });
    }

    qsizetype requests(const QByteArray &method, const QString &path) const
    {
        return m_useServer ? m_server->requests(method, path).size()
                           : m_mock.requests(method, path).size();
    }

private:
    bool m_useServer;
    DataClient::Testing::MockNetwork m_mock;
    QNetworkAccessManager m_real;
    std::unique_ptr<DataClient::Testing::TestServer> m_server;
    QList<DataClient::Testing::Fixture> m_fixtures;
    QSet<QByteArray> m_routed;
};
