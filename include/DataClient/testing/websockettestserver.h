// An in-process WebSocket server on 127.0.0.1 for tests of push code (docs/testing.md): real
// sockets, an ephemeral port, what each connection sent and the headers it opened with, and
// frames, closes and failures sent when the test says so.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QJsonValue>
#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

#include <memory>

namespace DataClient::Testing {

class DATACLIENT_TESTING_EXPORT WebSocketTestServer : public QObject
{
    Q_OBJECT
public:
    explicit WebSocketTestServer(QObject *parent = nullptr);
    ~WebSocketTestServer() override;

    //! Listens on 127.0.0.1 on \a port (0: an ephemeral one); false (and a warning) on failure.
    bool listen(quint16 port = 0);
    //! Stops accepting connections (those open stay): a server that went away.
    void stopListening();
    quint16 port() const;
    //! "ws://127.0.0.1:<port>" + \a path.
    QUrl url(const QString &path = QStringLiteral("/live")) const;

    //! Connections accepted so far, and those open now.
    int connectionCount() const;
    int openConnections() const;
    //! Header \a name (any case) of the opening request of connection \a index (accepted
    //! order; -1: the last); empty when absent.
    QByteArray handshakeHeader(int index, QByteArrayView name) const;
    //! The text frames received from every connection, in order.
    QStringList received() const;
    void clearReceived();

    //! Sends \a text to every open connection; returns how many.
    int send(const QString &text);
    //! Sends \a value as compact JSON.
    int sendJson(const QJsonValue &value);
    //! Closes every open connection with \a code (1000 normal, 1001 going away, 1008 policy
    //! violation, ...) and \a reason.
    void close(int code = 1000, const QString &reason = {});
    //! Drops every open connection without a close frame (a network failure).
    void drop();

Q_SIGNALS:
    void connected();
    void messageReceived(const QString &text);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace DataClient::Testing
