// WebSocketSource: a WebSocket (QtWebSockets' QWebSocket) whose text frames are messages.
#pragma once

#include <DataClient/livesource.h>

namespace DataClient {

/*!
    A WebSocket connection: each text (or binary) frame is a message. send() writes a text frame
    (what a LiveFeed's subscribe hook sends when a view starts showing a key).

    Close codes: the server closing with 1008 (policy violation) or 1003 (unsupported data)
    means "do not come back": Closed with the error, no reconnect. Any other close, a network
    failure or a failed handshake reconnects. A frame over maxMessageBytes() closes the
    connection (1009, message too big) with an error and reconnects.
*/
class DATACLIENT_REST_EXPORT WebSocketSource : public LiveSource
{
    Q_OBJECT

public:
    explicit WebSocketSource(QObject *parent = nullptr);
    explicit WebSocketSource(const QUrl &url, QObject *parent = nullptr);
    ~WebSocketSource() override;

    bool send(const QByteArray &text) override;

protected:
    void connectTo(const QNetworkRequest &request) override;
    void disconnectNow() override;

private:
    void closedByPeer();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace DataClient
