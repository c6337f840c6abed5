// Reading a reply's body as it arrives, under the endpoint's size limit, and what the reply's
// error says about the answer. Used by HttpExchange (docs/errors.md, docs/networking.md).
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayList>
#include <QtNetwork/QNetworkReply>
namespace DataClient::detail {

/*!
    The decoded body of one reply (Qt inflates gzip, deflate and brotli as the body is read),
    read as it arrives and never past a limit: at most limit + 1 bytes are ever read of it,
    whatever its framing (Content-Length, chunked, closed connection) or its encoding.
*/
class ReplyBody
{
public:
    //! Bytes read from the reply at a time.
    static constexpr qint64 ReadChunk = 64 * 1024;
    //! The reply's read buffer: Qt's network thread reads no further ahead of the body read so
    //! far (flow control) once it has it. Large enough not to slow a fast download down with a
    //! hand-over between Qt's network thread and this one every few KiB.
    static constexpr qint64 BufferBytes = 1024 * 1024;

    //! \a limit: the most bytes accepted; 0 or less = no limit.
    explicit ReplyBody(qint64 limit = 0) : m_limit(limit) { }

    //! Makes \a reply hold at most BufferBytes unread bytes; call before it runs.
    static void limitBuffer(QNetworkReply *reply);
    //! Reads what \a reply has now, and stops once more than the limit was read.
    void readFrom(QNetworkReply *reply);
    bool isOverLimit() const { return m_limit > 0 && m_size > m_limit; }
    qint64 size() const { return m_size; }
    //! The body read so far, in one piece; empties this.
    QByteArray take();

private:
    qint64 m_limit = 0;
    qint64 m_size = 0;
    //! Kept as read, joined once at the end: one growing array would hold up to twice its size
    //! (its spare capacity, and the old and new blocks while it grows).
    QByteArrayList m_pieces;
};

//! What a finished reply's error says about its answer.
enum class ReplyState {
    Whole, //!< a whole answer (its HTTP status may be an error: it is still the server's answer)
    Unreadable, //!< the whole answer arrived, but its body could not be decoded
    Broken, //!< no whole answer: the connection failed or closed, the protocol was violated
};

/*!
    Classifies \a error of a reply whose HTTP status is \a status (0: none). Qt reports an HTTP
    status of 400 or more as an error too (ContentNotFoundError for 404, InternalServerError
    for 500, UnknownContentError for the 4xx it has no name for...): with such a status that is
    still the answer. The same codes with a status below 400 are not a status: Qt could not
    read the body (UnknownContentError: "Decompression failed"), so there is no answer to use.
*/
ReplyState replyState(QNetworkReply::NetworkError error, int status);

} // namespace DataClient::detail
