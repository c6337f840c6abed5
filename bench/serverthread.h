// A TestServer answering from a thread of its own, so that only the client's work stalls the
// GUI thread a scenario measures (q.response.*, n.refetch*).
#pragma once

#include <DataClient/testing/testserver.h>

#include <QtCore/QObject>
#include <QtCore/QThread>

namespace Bench {

class ServerThread
{
public:
    //! Serves GET /todos with \a handler, which runs on the server's thread.
    explicit ServerThread(DataClient::Testing::TestServer::Handler handler)
    {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            &m_context,
            [this, handler = std::move(handler)] {
                // created on the server thread
                m_server = new DataClient::Testing::TestServer;
                m_server->route("GET", QStringLiteral("/todos"), handler);
                m_server->listen();
            },
            Qt::BlockingQueuedConnection);
    }
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

private:
    QThread m_thread;
    QObject m_context; // lives on m_thread: what the server's setup runs on
    DataClient::Testing::TestServer *m_server = nullptr;
};

} // namespace Bench
