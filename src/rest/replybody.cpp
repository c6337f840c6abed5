#include "replybody_p.h"

#include <algorithm>
#include <limits>

namespace DataClient::detail {

void ReplyBody::limitBuffer(QNetworkReply *reply)
{
    reply->setReadBufferSize(BufferBytes);
}

void ReplyBody::readFrom(QNetworkReply *reply)
{
    // Read in bounded pieces, not readAll(): a compressed body is inflated by the read itself,
    // and a few kilobytes can inflate to gigabytes.
    while (!isOverLimit() && reply->isOpen() && reply->bytesAvailable() > 0) {
        const qint64 room
            = m_limit > 0 ? m_limit + 1 - m_bytes.size() : std::numeric_limits<qint64>::max();
        const qint64 want = std::min(ReadChunk, room);
        const qsizetype before = m_bytes.size();
        m_bytes.resize(before + want);
        const qint64 got = reply->read(m_bytes.data() + before, want);
        m_bytes.resize(before + std::max<qint64>(got, 0));
        if (got <= 0)
            break;
    }
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
