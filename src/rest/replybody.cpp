#include "replybody_p.h"

#include <algorithm>
#include <limits>

namespace DataClient::detail {

void ReplyBody::limitBuffer(QNetworkReply *reply)
{
    reply->setReadBufferSize(BufferBytes);
    // Again once the reply started: Qt 6.4's network thread takes a new size only when its
    // request exists there (it starts by a queued call, before this one), and ignores one set
    // before. Even so it may read ahead while the size travels between the threads: what this
    // side keeps is bounded by the limit, what Qt buffers meanwhile is not.
    QMetaObject::invokeMethod(
        reply, [reply] { reply->setReadBufferSize(BufferBytes); }, Qt::QueuedConnection);
}

void ReplyBody::readFrom(QNetworkReply *reply)
{
    // Read in bounded pieces, not readAll(): a compressed body is inflated by the read itself,
    // and a few kilobytes can inflate to gigabytes.
    while (!isOverLimit() && reply->isOpen() && reply->bytesAvailable() > 0) {
        const qint64 room = m_limit > 0 ? m_limit + 1 - m_size : std::numeric_limits<qint64>::max();
        QByteArray piece(std::min(ReadChunk, room), Qt::Uninitialized);
        const qint64 got = reply->read(piece.data(), piece.size());
        if (got <= 0)
            break;
        piece.truncate(got);
        if (piece.capacity() > 2 * got)
            piece.squeeze(); // a short read: no spare 64 KiB kept per piece
        m_size += got;
        m_pieces.append(std::move(piece));
    }
}

QByteArray ReplyBody::take()
{
    QByteArray body = m_pieces.size() == 1 ? m_pieces.first() : m_pieces.join();
    m_pieces.clear();
    m_size = 0;
    return body;
}

ReplyState replyState(QNetworkReply::NetworkError error, int status)
{
    if (error == QNetworkReply::NoError)
        return ReplyState::Whole;
    const bool contentError = error >= QNetworkReply::ContentAccessDenied
        && error <= QNetworkReply::UnknownContentError;
    const bool serverError
        = error >= QNetworkReply::InternalServerError && error <= QNetworkReply::UnknownServerError;
    // Every code Qt gives an HTTP status (qhttpthreaddelegate.cpp's statusCodeFromHttp()).
    const bool statusError = contentError || serverError
        || error == QNetworkReply::ProtocolInvalidOperationError
        || error == QNetworkReply::ProxyAuthenticationRequiredError;
    if (status >= 400 && statusError)
        return ReplyState::Whole;
    if (status > 0 && error == QNetworkReply::UnknownContentError)
        return ReplyState::Unreadable;
    return ReplyState::Broken;
}

} // namespace DataClient::detail
