// A TestServer on a thread of its own, so that only the client's work stalls the GUI thread the
// stall scenarios measure (scenarios_qml.cpp, scenarios_reconnect.cpp, scenarios_validators.cpp).
#pragma once

#include <DataClient/testing/testserver.h>

#include <QtCore/QObject>
#include <QtCore/QThread>

#include <functional>

namespace Bench {

class ServerThread
{
public:
    //! Sets up the server's routes on its thread.
    using Routes = std::function<void(DataClient::Testing::TestServer &server)>;

    explicit ServerThread(const Routes &routes)
    {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            &m_context,
            [this, routes] {
                m_server = new DataClient::Testing::TestServer; // created on the server thread
                routes(*m_server);
                m_server->listen();
            },
            Qt::BlockingQueuedConnection);
    }
    //! Serves GET /todos with \a handler, which runs on the server's thread.
    explicit ServerThread(DataClient::Testing::TestServer::Handler handler)
        : ServerThread([handler = std::move(handler)](DataClient::Testing::TestServer &server) {
              server.route("GET", QStringLiteral("/todos"), handler);
          })
    { }
    //! Serves \a body as JSON at GET /todos.
    explicit ServerThread(const QByteArray &body)
        : ServerThread([body](const DataClient::Testing::RecordedRequest &) {
              return DataClient::Testing::ServerResponse::raw(body, "application/json");
          })
    { }
    ~ServerThread()
    {
        QThread *home = QThread::currentThread();
        QMetaObject::invokeMethod(
            &m_context,
            [this, home] {
                delete m_server;
                m_context.moveToThread(home); // pushed back, so it is destroyed where it lives
            },
            Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    Q_DISABLE_COPY_MOVE(ServerThread)

    QString url() const { return m_server->baseUrl().toString(); }
    //! Requests received so far (asked on the server's thread).
    qsizetype requestCount() const
    {
        qsizetype count = 0;
        QMetaObject::invokeMethod(
            const_cast<QObject *>(&m_context), [&] { count = m_server->requestCount(); },
            Qt::BlockingQueuedConnection);
        return count;
    }
    void clearRequests()
    {
        QMetaObject::invokeMethod(
            &m_context, [this] { m_server->clearRequests(); }, Qt::BlockingQueuedConnection);
    }

private:
    QThread m_thread;
    QObject m_context; // lives on m_thread: what the server's setup runs on
    DataClient::Testing::TestServer *m_server = nullptr;
};

} // namespace Bench
