// LiveSource: a connection a server pushes messages on (WebSocketSource, EventSource), with its
// state as properties. A Controller drives it through a LiveFeed (docs/realtime.md): it opens
// it, reconnects it with backoff, and turns its messages into store writes.
#pragma once

#include <DataClient/global.h>
#include <DataClient/headers.h>
#include <DataClient/requestinit.h>

#include <QtCore/QByteArray>
#include <QtCore/QMetaType>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QUrl>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkRequest;
class QTimer;
QT_END_NAMESPACE

namespace DataClient {

//! One message as a source received it: a WebSocket text frame, or a Server-Sent Event (with its
//! type and the last event id at its dispatch).
struct DATACLIENT_REST_EXPORT LiveMessage
{
    QByteArray data;
    QString event; //!< the SSE event type ("message" by default); empty for a WebSocket frame
    QString id; //!< the SSE last event id; empty for a WebSocket frame
};

/*!
    A connection a server pushes messages on. States: Closed (with errorString() when it ended
    by an error) -> Connecting -> Open; a connection that drops becomes Reconnecting (attempt()
    counts the attempts since the last Open) while its driver (a LiveFeed) waits to open it again,
    or Closed when it must not be reopened (a WebSocket policy violation, an SSE 204, a response
    that is not an event stream).

    The source itself never waits: a LiveFeed decides when to reconnect, through its
    Controller's scheduler. Used alone, call open() again after dropped().
*/
class DATACLIENT_REST_EXPORT LiveSource : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QUrl url READ url WRITE setUrl NOTIFY urlChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(int attempt READ attempt NOTIFY stateChanged)
    Q_PROPERTY(QString errorString READ errorString NOTIFY stateChanged)
    Q_PROPERTY(
        qint64 maxMessageBytes READ maxMessageBytes WRITE setMaxMessageBytes NOTIFY optionsChanged)
    Q_PROPERTY(
        int heartbeatTimeout READ heartbeatTimeout WRITE setHeartbeatTimeout NOTIFY optionsChanged)

public:
    enum class State { Closed, Connecting, Open, Reconnecting };
    Q_ENUM(State)

    //! 1 MiB: a larger message or event closes the connection (with an error) and reconnects.
    static constexpr qint64 DefaultMaxMessageBytes = 1024 * 1024;

    ~LiveSource() override;

    QUrl url() const;
    //! Takes effect at the next open().
    void setUrl(const QUrl &url);
    State state() const;
    int attempt() const;
    QString errorString() const;

    qint64 maxMessageBytes() const;
    void setMaxMessageBytes(qint64 bytes);
    //! A connection that receives nothing (no message, no heartbeat, no ping) for this many ms
    //! is taken as half-open: dropped and reconnected. 0 (the default): never.
    int heartbeatTimeout() const;
    void setHeartbeatTimeout(int ms);

    /*!
        Headers sent when the connection opens (Authorization, ...), and the credentials rule of
        the endpoints: with Credentials::SameOrigin (the default) they and the cookie jar are
        used only when url() has the origin of apiOrigin() (ws: counts as http:, wss: as https:);
        an empty apiOrigin() is the source's own. Omit: never; Include: always.
    */
    void setHeaders(const Headers &headers);
    Headers headers() const;
    void setCredentials(Credentials credentials);
    Credentials credentials() const;
    void setApiOrigin(const QUrl &origin);
    QUrl apiOrigin() const;

    //! Opens a connection (from Closed or Reconnecting); nothing when already connecting or open,
    //! or without a url.
    void open();
    //! Closes the connection; the state becomes Closed without an error. No message follows.
    void close();
    //! The driver waits before attempt \a attempt (2 = the first reconnect) after a drop.
    void setReconnecting(int attempt);

    //! Sends \a text to the server (a WebSocket text frame). False when it cannot (not open, or
    //! a source that only receives, like an EventSource).
    virtual bool send(const QByteArray &text);
    //! Whether a reconnect resumes where the last connection stopped (SSE with an event id: the
    //! server is sent Last-Event-ID); otherwise a driver catches up by refetching.
    virtual bool canResume() const;
    //! The wait the server asked for before a reconnect (SSE `retry:`), or -1.
    virtual qint64 retryHintMs() const;

Q_SIGNALS:
    void urlChanged();
    void stateChanged();
    void optionsChanged();
    void messageReceived(const DataClient::LiveMessage &message);
    //! The connection opened (each time, a reconnect too).
    void opened();
    //! The connection ended without close(): \a reconnect says whether it may be reopened.
    void dropped(const QString &error, bool reconnect);

protected:
    explicit LiveSource(QObject *parent = nullptr);
    //! Starts connecting with \a request (url, headers and the credentials rule applied).
    virtual void connectTo(const QNetworkRequest &request) = 0;
    //! Ends the connection at once; no signal of the transport may reach this object after it.
    virtual void disconnectNow() = 0;

    //! For the transports: the connection is open, a message arrived (also restarts the
    //! heartbeat), bytes arrived (a heartbeat), the connection ended.
    void markOpen();
    void deliver(const LiveMessage &message);
    void markAlive();
    void markDropped(const QString &error, bool reconnect);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace DataClient

Q_DECLARE_METATYPE(DataClient::LiveMessage)
