#include <DataClient/testing/testserver.h>

#include "logging_p.h"
#include "responsewriter_p.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

namespace DataClient::Testing {

namespace {

struct Route
{
    QByteArray method;
    QStringList segments;
    TestServer::DeferredHandler handler;
};

QStringList splitPath(const QString &path)
{
    return path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

// Matches "/todos/:id" or "/files/*" against a request path, capturing `:name` segments.
bool matchRoute(const Route &route, RecordedRequest &request)
{
    if (route.method != "*" && route.method != request.method)
        return false;
    const QStringList parts = splitPath(request.path);
    QHash<QString, QString> captured;
    for (qsizetype i = 0; i < route.segments.size(); ++i) {
        const QString &segment = route.segments.at(i);
        if (segment == QLatin1String("*"))
            return (request.pathParams = captured, true);
        if (i >= parts.size())
            return false;
        if (segment.startsWith(QLatin1Char(':')))
            captured.insert(segment.mid(1), parts.at(i));
        else if (segment != parts.at(i))
            return false;
    }
    if (parts.size() != route.segments.size())
        return false;
    request.pathParams = captured;
    return true;
}

} // namespace

struct TestServer::Private
{
    QTcpServer server;
    QList<Route> routes;
    QList<RecordedRequest> log;
    QHash<QTcpSocket *, QByteArray> buffers;
    int connections = 0;
};

QByteArray RecordedRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool RecordedRequest::hasHeader(QByteArrayView name) const
{
    for (const auto &entry : headers) {
        if (entry.first.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QJsonValue RecordedRequest::json() const
{
    QJsonParseError error;
    // Wrap so that scalars ("5", "\"x\"") parse too.
    const QJsonDocument doc = QJsonDocument::fromJson("[" + body + "]", &error);
    if (error.error != QJsonParseError::NoError || body.trimmed().isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    return doc.array().first();
}

ServerResponse ServerResponse::json(const QJsonValue &value, int status)
{
    QByteArray body;
    if (value.isObject())
        body = QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    else if (value.isArray())
        body = QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    else {
        body = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
        body = body.mid(1, body.size() - 2); // strip the wrapping [ ]
    }
    return raw(body, "application/json", status);
}

ServerResponse ServerResponse::raw(const QByteArray &body, const QByteArray &contentType,
                                   int status)
{
    ServerResponse response;
    response.status = status;
    response.body = body;
    if (!contentType.isEmpty())
        response.headers.append({"Content-Type", contentType});
    return response;
}

ServerResponse ServerResponse::noContent()
{
    ServerResponse response;
    response.status = 204;
    return response;
}

ServerResponse ServerResponse::drop()
{
    ServerResponse response;
    response.dropConnection = true;
    return response;
}

ServerResponse ServerResponse::redirect(int status, const QByteArray &location)
{
    ServerResponse response;
    response.status = status;
    response.headers.append({"Location", location});
    return response;
}

ServerResponse &ServerResponse::cutAfter(qsizetype bytes, Ending then)
{
    bodyBytesSent = bytes;
    ending = then;
    return *this;
}

ServerResponse &ServerResponse::withTrickle(int msPerByte)
{
    trickleMs = msPerByte;
    return *this;
}

ServerResponse &ServerResponse::withDelay(int ms)
{
    delayMs = ms;
    return *this;
}

ServerResponse &ServerResponse::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({name, value});
    return *this;
}

void TestServer::Responder::send(const ServerResponse &response) const
{
    if (!server || !socket)
        return;
    QTcpSocket *target = socket.data();
    auto write = [target, response] { detail::writeResponse(target, response); };
    if (response.delayMs > 0)
        QTimer::singleShot(response.delayMs, target, write);
    else
        write();
}

QByteArray sseEvent(const QByteArray &data, const QByteArray &event, const QByteArray &id)
{
    QByteArray out;
    if (!event.isEmpty())
        out += "event: " + event + '\n';
    if (!id.isEmpty())
        out += "id: " + id + '\n';
    for (const QByteArray &line : data.split('\n'))
        out += "data: " + line + '\n';
    return out + '\n';
}

void TestServer::Responder::startStream(int status,
                                        const QList<QPair<QByteArray, QByteArray>> &headers) const
{
    if (!server || !socket)
        return;
    QByteArray head
        = "HTTP/1.1 " + QByteArray::number(status) + ' ' + detail::reasonPhrase(status) + "\r\n";
    for (const auto &[name, value] : headers)
        head += name + ": " + value + "\r\n";
    head += "Cache-Control: no-cache\r\nConnection: close\r\n\r\n";
    socket->write(head);
}

void TestServer::Responder::startEventStream() const
{
    startStream(200, {{"Content-Type", "text/event-stream"}});
}

void TestServer::Responder::write(const QByteArray &bytes) const
{
    if (server && socket)
        socket->write(bytes);
}

void TestServer::Responder::endStream() const
{
    if (server && socket)
        socket->disconnectFromHost();
}

bool TestServer::Responder::isConnected() const
{
    return socket && socket->state() == QAbstractSocket::ConnectedState;
}

TestServer::TestServer(QObject *parent) : QObject(parent), d(std::make_unique<Private>())
{
    connect(&d->server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = d->server.nextPendingConnection()) {
            ++d->connections;
            socket->setParent(this);
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QObject::destroyed, this,
                    [this, socket] { d->buffers.remove(socket); });
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
                QByteArray &buffer = d->buffers[socket];
                buffer += socket->readAll();
                // Parse as many complete requests as the buffer holds (keep-alive).
                while (true) {
                    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
                    if (headerEnd < 0)
                        return;
                    const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
                    RecordedRequest request;
                    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
                    request.method = requestLine.value(0);
                    request.rawTarget = requestLine.value(1);
                    qsizetype contentLength = 0;
                    for (qsizetype i = 1; i < lines.size(); ++i) {
                        const QByteArray line = lines.at(i).trimmed();
                        const qsizetype colon = line.indexOf(':');
                        if (colon <= 0)
                            continue;
                        const QByteArray name = line.left(colon).trimmed();
                        const QByteArray value = line.mid(colon + 1).trimmed();
                        request.headers.append({name, value});
                        if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                            contentLength = value.toLongLong();
                    }
                    if (buffer.size() < headerEnd + 4 + contentLength)
                        return;
                    request.body = buffer.mid(headerEnd + 4, contentLength);
                    buffer.remove(0, headerEnd + 4 + contentLength);

                    const QUrl target = QUrl::fromEncoded(request.rawTarget);
                    request.path = target.path(QUrl::FullyDecoded);
                    request.query = QUrlQuery(target.query(QUrl::FullyEncoded));
                    dispatch(request, socket);
                }
            });
        }
    });
}

TestServer::~TestServer() = default;

bool TestServer::listen(quint16 port)
{
    if (!d->server.listen(QHostAddress::LocalHost, port)) {
        qCWarning(lcTesting) << "TestServer cannot listen on 127.0.0.1:" << d->server.errorString();
        return false;
    }
    return true;
}

quint16 TestServer::port() const
{
    return d->server.serverPort();
}

QUrl TestServer::baseUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port());
    return url;
}

QString TestServer::url(const QString &path) const
{
    return baseUrl().toString() + path;
}

void TestServer::route(const QByteArray &method, const QString &pathPattern, Handler handler)
{
    routeDeferred(
        method, pathPattern,
        [handler = std::move(handler)](const RecordedRequest &request, const Responder &responder) {
            responder.send(handler(request));
        });
}

void TestServer::routeDeferred(const QByteArray &method, const QString &pathPattern,
                               DeferredHandler handler)
{
    d->routes.prepend(Route {method, splitPath(pathPattern), std::move(handler)});
}

void TestServer::clearRoutes()
{
    d->routes.clear();
}

void TestServer::dispatch(RecordedRequest request, QTcpSocket *socket)
{
    Responder responder;
    responder.server = this;
    responder.socket = socket;
    for (const Route &route : std::as_const(d->routes)) {
        if (matchRoute(route, request)) {
            d->log.append(request);
            Q_EMIT requestReceived(request);
            route.handler(request, responder);
            return;
        }
    }
    d->log.append(request);
    Q_EMIT requestReceived(request);
    responder.send(ServerResponse::json(
        QJsonObject {{QStringLiteral("error"),
                      QStringLiteral("TestServer: no route for %1 %2")
                          .arg(QString::fromLatin1(request.method), request.path)}},
        404));
}

QList<RecordedRequest> TestServer::requests() const
{
    return d->log;
}

QList<RecordedRequest> TestServer::requests(const QByteArray &method, const QString &path) const
{
    QList<RecordedRequest> matching;
    for (const RecordedRequest &request : d->log) {
        if (request.method == method && request.path == path)
            matching.append(request);
    }
    return matching;
}

qsizetype TestServer::requestCount() const
{
    return d->log.size();
}

RecordedRequest TestServer::lastRequest() const
{
    return d->log.isEmpty() ? RecordedRequest {} : d->log.last();
}

void TestServer::clearRequests()
{
    d->log.clear();
}

int TestServer::connectionCount() const
{
    return d->connections;
}

} // namespace DataClient::Testing
