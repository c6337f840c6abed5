// An in-process HTTP/1.1 server on 127.0.0.1 for tests: real sockets, an ephemeral port,
// per-route handlers, delays, dropped connections and a request log that tests assert on.
//
// It is deliberately small and built on QTcpServer (not QHttpServer, whose API changes in Qt 6.8)
// so that tests can also send what a real server would never send: malformed JSON, HTML,
// a connection closed mid-request.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QByteArray>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtCore/QUrlQuery>
#include <QtCore/QHash>

#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QTcpSocket;
QT_END_NAMESPACE

namespace DataClient::Testing {

//! One request as the server received it.
struct DATACLIENT_TESTING_EXPORT RecordedRequest
{
    QByteArray method; //!< "GET", "POST", ...
    QString path; //!< decoded path, without the query
    QByteArray rawTarget; //!< the request target exactly as sent
    QUrlQuery query; //!< the query string, if any
    QList<QPair<QByteArray, QByteArray>> headers; //!< in arrival order, names as sent
    QByteArray body;
    QHash<QString, QString> pathParams; //!< values of `:name` segments of the route

    //! Value of a header, matched case-insensitively; empty if absent.
    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    //! The body parsed as JSON (undefined if it is not JSON).
    QJsonValue json() const;
};

//! What the server answers, including the faults of a server or network that misbehaves.
struct DATACLIENT_TESTING_EXPORT ServerResponse
{
    //! What happens after the part of the body that is sent (see cutAfter()).
    enum class Ending {
        Complete, //!< the whole body is sent; the connection stays open (keep-alive)
        Stall, //!< nothing more is sent, the connection stays open (a hung server)
        Close, //!< the connection is closed (a server that died mid-answer)
    };

    int status = 200;
    QByteArray reason; //!< empty: the standard phrase for status
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    int delayMs = 0; //!< wait before answering (event-loop timer)
    bool dropConnection = false; //!< close the socket instead of answering
    //! How many bytes of the body are sent; -1 = all. Content-Length always announces the whole
    //! body, so a client sees an answer cut short.
    qsizetype bodyBytesSent = -1;
    Ending ending = Ending::Complete;
    //! Sends the body one byte every trickleMs milliseconds (0 = at once), after the head.
    int trickleMs = 0;

    static ServerResponse json(const QJsonValue &value, int status = 200);
    static ServerResponse raw(const QByteArray &body, const QByteArray &contentType,
                              int status = 200);
    static ServerResponse noContent();
    static ServerResponse drop();
    //! A redirect (301, 302, 303, 307, 308) to \a location, absolute or relative.
    static ServerResponse redirect(int status, const QByteArray &location);

    ServerResponse &withDelay(int ms);
    ServerResponse &withHeader(const QByteArray &name, const QByteArray &value);
    //! Sends the head and the first \a bytes of the body, then stalls or closes.
    ServerResponse &cutAfter(qsizetype bytes, Ending then);
    ServerResponse &withTrickle(int msPerByte);
};

/*!
    One Server-Sent Event as text/event-stream bytes: `event:` (when given), `id:` (when given),
    one `data:` line per line of \a data, and the empty line that dispatches it. For
    TestServer::Responder::write() on a stream started with startEventStream().
*/
DATACLIENT_TESTING_EXPORT QByteArray sseEvent(const QByteArray &data, const QByteArray &event = {},
                                              const QByteArray &id = {});

/*!
  The server. Routes are matched most-recently-added first, so a test can override a default
  route. A route path may contain `:name` segments (captured in RecordedRequest::pathParams) and
  a trailing `*` segment matching the rest. Method "*" matches every method. An unmatched request
  gets 404 with a JSON body naming the method and path.
*/
class DATACLIENT_TESTING_EXPORT TestServer : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<ServerResponse(const RecordedRequest &)>;

    //! Sends a response later, for tests that decide when each reply arrives.
    class DATACLIENT_TESTING_EXPORT Responder
    {
    public:
        void send(const ServerResponse &response) const;
        bool isConnected() const;
        /*!
            Starts a streamed answer (Server-Sent Events, a long poll): the head with \a status
            and \a headers, no Content-Length (the body ends when the connection closes). Then
            write() its bytes as the test decides and endStream() it.
        */
        void startStream(int status, const QList<QPair<QByteArray, QByteArray>> &headers) const;
        //! startStream(200) as text/event-stream.
        void startEventStream() const;
        //! Writes \a bytes of a streamed answer at once.
        void write(const QByteArray &bytes) const;
        //! Ends a streamed answer: the connection is closed after what was written.
        void endStream() const;

    private:
        friend class TestServer;
        QPointer<TestServer> server;
        QPointer<QTcpSocket> socket;
    };
    using DeferredHandler = std::function<void(const RecordedRequest &, const Responder &)>;

    explicit TestServer(QObject *parent = nullptr);
    ~TestServer() override;

    //! Listens on 127.0.0.1 on \a port (0: an ephemeral one). Returns false (and warns) on
    //! failure, e.g. a port in use.
    bool listen(quint16 port = 0);
    quint16 port() const;
    //! "http://127.0.0.1:<port>"
    QUrl baseUrl() const;
    //! baseUrl() + path, as a string, handy for urlPrefix options.
    QString url(const QString &path = {}) const;

    void route(const QByteArray &method, const QString &pathPattern, Handler handler);
    void routeDeferred(const QByteArray &method, const QString &pathPattern,
                       DeferredHandler handler);
    void clearRoutes();

    QList<RecordedRequest> requests() const;
    //! Requests whose method and path equal the given ones.
    QList<RecordedRequest> requests(const QByteArray &method, const QString &path) const;
    qsizetype requestCount() const;
    RecordedRequest lastRequest() const;
    void clearRequests();

    //! Number of client connections accepted so far.
    int connectionCount() const;

Q_SIGNALS:
    void requestReceived(const DataClient::Testing::RecordedRequest &request);

private:
    void dispatch(RecordedRequest request, QTcpSocket *socket);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace DataClient::Testing
