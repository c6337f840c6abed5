// A WebSocket server on a thread of its own for the push scenarios (scenarios_push.cpp): only
// the client's work is on the GUI thread; frames are sent as fast as the loopback takes them.
#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QThread>
#include <QtNetwork/QHostAddress>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include <atomic>
#include <functional>

namespace Bench {

class PushServerThread
{
public:
    //! \a clock: the steady clock both threads read (latency).
    explicit PushServerThread(const QElapsedTimer *clock) : m_clock(clock)
    {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        run([this] {
            m_server
                = new QWebSocketServer(QStringLiteral("bench"), QWebSocketServer::NonSecureMode);
            QObject::connect(m_server, &QWebSocketServer::newConnection, m_server, [this] {
                while (QWebSocket *socket = m_server->nextPendingConnection())
                    m_clients.append(socket);
            });
            m_server->listen(QHostAddress::LocalHost, 0);
            m_port = m_server->serverPort();
        });
    }
    ~PushServerThread()
    {
        QThread *home = QThread::currentThread();
        run([this, home] {
            qDeleteAll(m_clients);
            delete m_server;
            m_context.moveToThread(home);
        });
        m_thread.quit();
        m_thread.wait();
    }
    Q_DISABLE_COPY_MOVE(PushServerThread)

    QUrl url() const { return QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(m_port)); }
    int clients()
    {
        int count = 0;
        run([&] { count = int(m_clients.size()); });
        return count;
    }
    //! Forgets the connections (a scenario's client went).
    void dropClients()
    {
        run([this] {
            qDeleteAll(m_clients);
            m_clients.clear();
        });
    }
    //! Sends frames make(0) ... make(count - 1) to every client, without waiting; the send time
    //! of the last (on the shared clock) is lastSentNs().
    void send(int count, std::function<QString(int)> make)
    {
        QMetaObject::invokeMethod(&m_context, [this, count, make = std::move(make)] {
            for (int i = 0; i < count; ++i) {
                const QString frame = make(i);
                m_lastSentNs.store(m_clock->nsecsElapsed(), std::memory_order_release);
                for (QWebSocket *socket : std::as_const(m_clients))
                    socket->sendTextMessage(frame);
            }
            for (QWebSocket *socket : std::as_const(m_clients))
                socket->flush();
        });
    }
    qint64 lastSentNs() const { return m_lastSentNs.load(std::memory_order_acquire); }

private:
    void run(const std::function<void()> &task)
    {
        QMetaObject::invokeMethod(&m_context, task, Qt::BlockingQueuedConnection);
    }

    const QElapsedTimer *m_clock;
    QThread m_thread;
    QObject m_context;
    QWebSocketServer *m_server = nullptr;
    QList<QWebSocket *> m_clients;
    quint16 m_port = 0;
    std::atomic<qint64> m_lastSentNs {0};
};

} // namespace Bench
