#include "responsewriter_p.h"

#include <QtCore/QHash>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>

#include <memory>

namespace DataClient::Testing::detail {

namespace {

QByteArray head(const ServerResponse &response)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' '
        + (response.reason.isEmpty() ? reasonPhrase(response.status) : response.reason) + "\r\n";
    for (const auto &[name, value] : response.headers)
        out += name + ": " + value + "\r\n";
    // Always the whole body's length: a cut answer is then visibly short to the client.
    out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
    out += "Connection: keep-alive\r\n\r\n";
    return out;
}

void end(QTcpSocket *socket, ServerResponse::Ending ending)
{
    if (ending == ServerResponse::Ending::Close)
        socket->disconnectFromHost(); // after what was written is flushed
}

} // namespace

QByteArray reasonPhrase(int status)
{
    static const QHash<int, QByteArray> phrases {
        {200, "OK"},
        {201, "Created"},
        {204, "No Content"},
        {301, "Moved Permanently"},
        {302, "Found"},
        {303, "See Other"},
        {304, "Not Modified"},
        {307, "Temporary Redirect"},
        {308, "Permanent Redirect"},
        {400, "Bad Request"},
        {401, "Unauthorized"},
        {403, "Forbidden"},
        {404, "Not Found"},
        {408, "Request Timeout"},
        {409, "Conflict"},
        {422, "Unprocessable Entity"},
        {429, "Too Many Requests"},
        {500, "Internal Server Error"},
        {502, "Bad Gateway"},
        {503, "Service Unavailable"},
    };
    return phrases.value(status, "Status");
}

void writeResponse(QTcpSocket *socket, const ServerResponse &response)
{
    if (response.dropConnection) {
        socket->abort();
        return;
    }
    const QByteArray body
        = response.bodyBytesSent < 0 ? response.body : response.body.left(response.bodyBytesSent);
    const bool cut = body.size() < response.body.size();
    const ServerResponse::Ending ending = cut && response.ending == ServerResponse::Ending::Complete
        ? ServerResponse::Ending::Stall
        : response.ending;
    socket->write(head(response));
    if (response.trickleMs <= 0 || body.isEmpty()) {
        socket->write(body);
        end(socket, ending);
        return;
    }
    auto *timer = new QTimer(socket);
    auto sent = std::make_shared<qsizetype>(0);
    QObject::connect(timer, &QTimer::timeout, socket, [socket, timer, body, sent, ending] {
        socket->write(body.mid((*sent)++, 1));
        if (*sent < body.size())
            return;
        timer->deleteLater();
        end(socket, ending);
    });
    timer->start(response.trickleMs);
}

} // namespace DataClient::Testing::detail
