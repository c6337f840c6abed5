#include <DataClient/testing/websockettestserver.h>

#include "logging_p.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>
#include <QtNetwork/QHostAddress>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

namespace DataClient::Testing {

struct WebSocketTestServer::Private
{
    QWebSocketServer server {QStringLiteral("DataClient test"), QWebSocketServer::NonSecureMode};
    QList<QPointer<QWebSocket>> sockets;
    QList<QNetworkRequest> requests;
    QStringList received;
    quint16 port = 0;

    QList<QWebSocket *> open() const
    {
        QList<QWebSocket *> out;
        for (const QPointer<QWebSocket> &socket : sockets) {
            if (socket && socket->state() == QAbstractSocket::ConnectedState)
                out.append(socket);
        }
        return out;
    }
};

WebSocketTestServer::WebSocketTestServer(QObject *parent)
    : QObject(parent), d(std::make_unique<Private>())
{
    connect(&d->server, &QWebSocketServer::newConnection, this, [this] {
        while (QWebSocket *socket = d->server.nextPendingConnection()) {
            socket->setParent(this);
            d->requests.append(socket->request());
            d->sockets.append(socket);
            connect(socket, &QWebSocket::textMessageReceived, this, [this](const QString &text) {
                d->received.append(text);
                Q_EMIT messageReceived(text);
            });
            connect(socket, &QWebSocket::disconnected, socket, &QObject::deleteLater);
            Q_EMIT connected();
        }
    });
}

WebSocketTestServer::~WebSocketTestServer() = default;

bool WebSocketTestServer::listen(quint16 port)
{
    if (!d->server.listen(QHostAddress::LocalHost, port)) {
        qCWarning(lcTesting) << "WebSocketTestServer cannot listen on 127.0.0.1:"
                             << d->server.errorString();
        return false;
    }
    d->port = d->server.serverPort();
    return true;
}

void WebSocketTestServer::stopListening()
{
    d->server.close();
}

quint16 WebSocketTestServer::port() const
{
    return d->port;
}

QUrl WebSocketTestServer::url(const QString &path) const
{
    return QUrl(QStringLiteral("ws://127.0.0.1:%1%2").arg(d->port).arg(path));
}

int WebSocketTestServer::connectionCount() const
{
    return int(d->requests.size());
}

int WebSocketTestServer::openConnections() const
{
    return int(d->open().size());
}

QByteArray WebSocketTestServer::handshakeHeader(int index, QByteArrayView name) const
{
    if (d->requests.isEmpty())
        return {};
    const QNetworkRequest &request
        = index < 0 ? d->requests.last() : d->requests.value(index, QNetworkRequest());
    return request.rawHeader(name.toByteArray());
}

QStringList WebSocketTestServer::received() const
{
    return d->received;
}

void WebSocketTestServer::clearReceived()
{
    d->received.clear();
}

int WebSocketTestServer::send(const QString &text)
{
    const QList<QWebSocket *> targets = d->open();
    for (QWebSocket *socket : targets) {
        socket->sendTextMessage(text);
        socket->flush();
    }
    return int(targets.size());
}

int WebSocketTestServer::sendJson(const QJsonValue &value)
{
    const QJsonDocument document
        = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    return send(QString::fromUtf8(document.toJson(QJsonDocument::Compact)));
}

void WebSocketTestServer::close(int code, const QString &reason)
{
    for (QWebSocket *socket : d->open())
        socket->close(QWebSocketProtocol::CloseCode(code), reason);
}

void WebSocketTestServer::drop()
{
    for (QWebSocket *socket : d->open())
        socket->abort();
}

} // namespace DataClient::Testing
