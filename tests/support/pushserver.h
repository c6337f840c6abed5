// An in-process WebSocket server on 127.0.0.1 for push tests: it records each connection's
// opening request and the text frames it receives, and sends frames or closes with a code when
// the test says so.
#pragma once

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QNetworkRequest>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

class PushServer : public QObject
{
public:
    explicit PushServer(QObject *parent = nullptr)
        : QObject(parent), server(QStringLiteral("push test"), QWebSocketServer::NonSecureMode)
    {
        QObject::connect(&server, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket *socket = server.nextPendingConnection()) {
                socket->setParent(this);
                ++connectionCount;
                requests.append(socket->request());
                sockets.append(socket);
                QObject::connect(socket, &QWebSocket::textMessageReceived, this,
                                 [this](const QString &text) { received.append(text); });
                QObject::connect(socket, &QWebSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    bool listen() { return server.listen(QHostAddress::LocalHost, 0); }
    QUrl url() const
    {
        return QUrl(QStringLiteral("ws://127.0.0.1:%1/live").arg(server.serverPort()));
    }
    //! The open connections (the ones the client closed are gone).
    QList<QWebSocket *> open() const
    {
        QList<QWebSocket *> out;
        for (const QPointer<QWebSocket> &socket : sockets) {
            if (socket && socket->state() == QAbstractSocket::ConnectedState)
                out.append(socket);
        }
        return out;
    }
    //! Sends \a text to every open connection; returns how many.
    int sendAll(const QString &text)
    {
        const QList<QWebSocket *> targets = open();
        for (QWebSocket *socket : targets) {
            socket->sendTextMessage(text);
            socket->flush();
        }
        return int(targets.size());
    }
    void closeAll(QWebSocketProtocol::CloseCode code, const QString &reason = {})
    {
        for (QWebSocket *socket : open())
            socket->close(code, reason);
    }
    //! Drops every connection without a close frame (a network failure).
    void abortAll()
    {
        for (QWebSocket *socket : open())
            socket->abort();
    }

    QWebSocketServer server;
    QList<QPointer<QWebSocket>> sockets;
    QList<QNetworkRequest> requests;
    QStringList received;
    int connectionCount = 0;
};
