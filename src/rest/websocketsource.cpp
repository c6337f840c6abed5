// A WebSocket as a LiveSource: frames are messages; the close code decides whether it comes back.
#include <DataClient/websocketsource.h>

#include <QtCore/QPointer>
#include <QtWebSockets/QWebSocket>

namespace DataClient {

struct WebSocketSource::Private
{
    QPointer<QWebSocket> socket;
    bool tooLarge = false;
};

WebSocketSource::WebSocketSource(QObject *parent)
    : LiveSource(parent), d(std::make_unique<Private>())
{ }

WebSocketSource::WebSocketSource(const QUrl &url, QObject *parent) : WebSocketSource(parent)
{
    setUrl(url);
}

WebSocketSource::~WebSocketSource()
{
    disconnectNow();
}

bool WebSocketSource::send(const QByteArray &text)
{
    if (!d->socket || state() != State::Open)
        return false;
    d->socket->sendTextMessage(QString::fromUtf8(text));
    return true;
}

void WebSocketSource::connectTo(const QNetworkRequest &request)
{
    disconnectNow();
    auto *socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    d->socket = socket;
    d->tooLarge = false;
    if (maxMessageBytes() > 0) {
        socket->setMaxAllowedIncomingMessageSize(quint64(maxMessageBytes()));
        socket->setMaxAllowedIncomingFrameSize(quint64(maxMessageBytes()));
    }
    connect(socket, &QWebSocket::connected, this, [this] { markOpen(); });
    connect(socket, &QWebSocket::textMessageReceived, this, [this](const QString &text) {
        deliver({text.toUtf8(), QString(), QString()});
    });
    connect(socket, &QWebSocket::binaryMessageReceived, this, [this](const QByteArray &bytes) {
        deliver({bytes, QString(), QString()});
    });
    // A partial frame or a pong is life too (the heartbeat).
    connect(socket, &QWebSocket::textFrameReceived, this, [this] { markAlive(); });
    connect(socket, &QWebSocket::binaryFrameReceived, this, [this] { markAlive(); });
    connect(socket, &QWebSocket::pong, this, [this] { markAlive(); });
    connect(socket, &QWebSocket::disconnected, this, &WebSocketSource::closedByPeer);
    socket->open(request);
}

void WebSocketSource::disconnectNow()
{
    if (QWebSocket *socket = d->socket.data()) {
        d->socket = nullptr;
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
}

void WebSocketSource::closedByPeer()
{
    QWebSocket *socket = d->socket.data();
    if (!socket)
        return;
    const QWebSocketProtocol::CloseCode code = socket->closeCode();
    const QString where = url().toDisplayString();
    const QString reason
        = socket->closeReason().isEmpty() ? socket->errorString() : socket->closeReason();
    QString error;
    bool reconnect = true;
    if (code == QWebSocketProtocol::CloseCodeTooMuchData) {
        error = QStringLiteral("%1: a message over maxMessageBytes (%2 bytes); the connection "
                               "was closed and is reopened (raise maxMessageBytes if such "
                               "messages are expected)")
                    .arg(where)
                    .arg(maxMessageBytes());
    } else if (code == QWebSocketProtocol::CloseCodePolicyViolated
               || code == QWebSocketProtocol::CloseCodeDatatypeNotSupported) {
        reconnect = false;
        error = QStringLiteral("%1: the server closed the connection with code %2 (%3): not "
                               "reconnecting, the server refuses this client")
                    .arg(where)
                    .arg(int(code))
                    .arg(reason);
    } else {
        error = QStringLiteral("%1: the connection closed (code %2%3)")
                    .arg(where)
                    .arg(int(code))
                    .arg(reason.isEmpty() ? QString() : QStringLiteral(": ") + reason);
    }
    disconnectNow();
    markDropped(error, reconnect);
}

} // namespace DataClient
