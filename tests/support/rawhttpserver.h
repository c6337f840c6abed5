// A raw HTTP/1.1 server for the answers TestServer does not send: chunked and close-delimited
// bodies, encoded bodies (gzip, deflate), bodies repeated while they are written (a stream of any
// size never held whole), at full speed over loopback. It records how much of each body it
// handed to the socket and whether the client closed the connection before the end.
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <array>
#include <memory>

namespace RawHttp {

//! How the end of a body is told.
enum class Framing {
    Length, //!< Content-Length (of the bytes sent, encoded when Content-Encoding says so)
    Chunked, //!< Transfer-Encoding: chunked, one chunk per piece
    Close, //!< neither: the connection is closed after the body
};

struct Answer
{
    QByteArray status = "200 OK";
    QList<QPair<QByteArray, QByteArray>> headers {{"Content-Type", "application/json"}};
    Framing framing = Framing::Length;
    QByteArray piece; //!< the body, or one piece of it
    qint64 repeat = 1; //!< the body is piece sent this many times

    qint64 bodySize() const { return piece.size() * repeat; }
    Answer &withHeader(const QByteArray &name, const QByteArray &value)
    {
        headers.append({name, value});
        return *this;
    }
};

inline quint32 crc32(const QByteArray &data)
{
    static const std::array<quint32, 256> table = [] {
        std::array<quint32, 256> t {};
        for (quint32 n = 0; n < 256; ++n) {
            quint32 c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    quint32 crc = 0xFFFFFFFFu;
    for (const char byte : data)
        crc = table[(crc ^ static_cast<quint8>(byte)) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

//! \a data in the zlib format (Content-Encoding: deflate): qCompress() without its size prefix.
inline QByteArray deflate(const QByteArray &data)
{
    return qCompress(data, 9).mid(4);
}

//! \a data in the gzip format (RFC 1952): the raw deflate stream of qCompress() in a gzip frame.
inline QByteArray gzip(const QByteArray &data)
{
    const QByteArray zlib = deflate(data);
    const QByteArray raw = zlib.mid(2, zlib.size() - 6); // without the zlib head and Adler-32
    QByteArray out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
    out += raw;
    auto le32 = [&out](quint32 v) {
        for (int i = 0; i < 4; ++i)
            out += char((v >> (8 * i)) & 0xFF);
    };
    le32(crc32(data));
    le32(quint32(data.size()));
    return out;
}

class Server
{
public:
    //! Handed to the socket before the pump waits for it to drain.
    static constexpr qint64 Backlog = 256 * 1024;

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QString url(const QString &path = {}) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path);
    }
    //! The next requests get these answers, in order; the last one answers every request after.
    void setAnswers(QList<Answer> answers) { m_answers = std::move(answers); }

    int requests() const { return m_requests; }
    QList<QByteArray> heads() const { return m_heads; }
    //! Body bytes of the last answer handed to the socket (encoded, as sent).
    qint64 bodyBytesWritten() const { return m_state ? m_state->written : 0; }
    //! The last answer's body was written whole.
    bool finishedLast() const { return m_state && m_state->done; }
    //! The client closed the connection while the last answer was being written.
    bool closedEarly() const { return m_state && m_state->closedEarly; }

    Server()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                serve(socket);
        });
    }

private:
    struct Writing
    {
        Answer answer;
        qint64 sentPieces = 0;
        qint64 written = 0;
        bool done = false;
        bool closedEarly = false;
    };

    void serve(QTcpSocket *socket)
    {
        auto buffer = std::make_shared<QByteArray>();
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
            *buffer += socket->readAll();
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            m_heads.append(buffer->left(end));
            buffer->remove(0, end + 4);
            ++m_requests;
            answer(socket, m_answers.size() > 1 ? m_answers.takeFirst() : m_answers.value(0));
        });
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }

    void answer(QTcpSocket *socket, const Answer &answer)
    {
        auto state = std::make_shared<Writing>();
        state->answer = answer;
        m_state = state;
        QByteArray head = "HTTP/1.1 " + answer.status + "\r\n";
        for (const auto &[name, value] : answer.headers)
            head += name + ": " + value + "\r\n";
        if (answer.framing == Framing::Length)
            head += "Content-Length: " + QByteArray::number(answer.bodySize()) + "\r\n";
        else if (answer.framing == Framing::Chunked)
            head += "Transfer-Encoding: chunked\r\n";
        head += answer.framing == Framing::Close ? "Connection: close\r\n\r\n"
                                                 : "Connection: keep-alive\r\n\r\n";
        socket->write(head);
        auto pump = [socket, state] {
            const Answer &a = state->answer;
            while (!state->done && socket->bytesToWrite() < Backlog
                   && socket->state() == QAbstractSocket::ConnectedState) {
                if (state->sentPieces == a.repeat) {
                    if (a.framing == Framing::Chunked)
                        socket->write("0\r\n\r\n");
                    state->done = true;
                    if (a.framing == Framing::Close)
                        socket->disconnectFromHost();
                    return;
                }
                if (a.framing == Framing::Chunked)
                    socket->write(QByteArray::number(a.piece.size(), 16) + "\r\n" + a.piece
                                  + "\r\n");
                else
                    socket->write(a.piece);
                ++state->sentPieces;
                state->written += a.piece.size();
            }
        };
        QObject::connect(socket, &QTcpSocket::bytesWritten, socket, pump);
        QObject::connect(socket, &QTcpSocket::disconnected, socket, [state] {
            if (!state->done)
                state->closedEarly = true;
        });
        pump();
    }

    QTcpServer m_server;
    QList<Answer> m_answers;
    int m_requests = 0;
    QList<QByteArray> m_heads;
    std::shared_ptr<Writing> m_state;
};

} // namespace RawHttp
