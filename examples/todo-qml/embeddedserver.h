// The demo's embedded REST backend: FakeRestApi with SampleData users and todos on an in-process
// TestServer (127.0.0.1, ephemeral port), so the demo runs with no network, plus two routes of its
// own: page-by-default todo lists (for infinite scroll) and /status (for the live panel).
#pragma once

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QObject>
#include <QtCore/QRandomGenerator>
#include <QtCore/QString>

namespace DataClient::Testing {
class FakeRestApi;
class TestServer;
class WebSocketTestServer;
struct RecordedRequest;
struct ServerResponse;
} // namespace DataClient::Testing

/*!
  Routes (see docs/examples.md):

  | Request                        | Answer                                                     |
  |--------------------------------|------------------------------------------------------------|
  | GET /users, GET /users/:id     | SampleData users                                           |
  | GET /todos?userId=1&page=N     | page N (default 1, 20 per page), newest first, with `author` |
  | GET/POST/PUT/PATCH/DELETE /todos[/:id] | FakeRestApi (id assignment, merge, 204 on delete)  |
  | GET /status, GET /status/server | `{id, time, startedAt, requestCount, recent: [...]}`      |

  With a refuse rate, that fraction of POST/PUT/PATCH/DELETE /todos[/:id] is answered 422.

  Every write to /todos that succeeds is pushed to the WebSocket clients of pushUrl() in the
  default envelope (docs/realtime.md): `updated` (PUT, PATCH), `deleted` (DELETE), `added` to the
  `todos` collection with its `userId` (POST), so that every window sees a change at once.

  Everything lives on the GUI thread, like the QNetworkAccessManager talking to it.
*/
class EmbeddedServer : public QObject
{
    Q_OBJECT
public:
    static constexpr int pageSize = 20;

    explicit EmbeddedServer(QObject *parent = nullptr);
    ~EmbeddedServer() override;

    //! Listen on \a port if it is free (0, the default: an ephemeral port), e.g. the one of the
    //! last run, so that what the demo persisted under its URLs is found again.
    void setPreferredPort(quint16 port) { m_preferredPort = port; }
    //! Seeds the data and listens. False with \a error set if the port cannot be opened.
    bool start(int latencyMs, double failRate, QString *error);
    //! start(), then prints the URL (stdout) or "<program>: error: ..." (stderr): what the
    //! programs built on this server (dataclient-demo, dataclient-todo-widgets) say at start.
    bool startAndReport(int latencyMs, double failRate, const QString &program);
    //! "http://127.0.0.1:<port>" once started.
    QString url() const;
    //! "ws://127.0.0.1:<port>/live" once started: the changes to /todos, pushed.
    QString pushUrl() const;
    //! Changes --fail-rate while running (the demo's UI test uses it to fail, then recover).
    void setFailureRate(double failRate);
    //! --refuse-rate: that fraction (0-1) of writes to /todos is refused with 422, which the
    //! client does not retry, so the optimistic change rolls back (set before or after start()).
    void setRefuseRate(double refuseRate) { m_refuseRate = refuseRate; }
    DataClient::Testing::FakeRestApi *api() const { return m_api; }
    //! The HTTP server: what it received (the demo's UI test counts requests).
    DataClient::Testing::TestServer *server() const { return m_server; }

private:
    DataClient::Testing::ServerResponse
    todoPage(const DataClient::Testing::RecordedRequest &request);
    DataClient::Testing::ServerResponse status() const;
    void recordActivity(const QByteArray &method, const QString &path, int status);
    void maybeRefuse(const DataClient::Testing::RecordedRequest &request);
    void pushChange(const QByteArray &method, const QString &path, int status);

    DataClient::Testing::TestServer *m_server = nullptr;
    DataClient::Testing::FakeRestApi *m_api = nullptr;
    DataClient::Testing::WebSocketTestServer *m_push = nullptr;
    int m_latencyMs = 0;
    quint16 m_preferredPort = 0;
    double m_failRate = 0;
    double m_refuseRate = 0;
    QRandomGenerator m_refusals {11}; // seeded, as m_listFailures
    QRandomGenerator m_listFailures {7}; // seeded: a flaky run fails the same way every time
    QDateTime m_startedAt;
    qint64 m_requestCount = 0;
    QJsonArray m_recent; // newest first, at most recentLimit entries
};
