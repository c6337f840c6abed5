// What an HTTP exchange makes of an answer (httpexchange.cpp): the Response read from a reply,
// the body length its head announced, and the errors of an answer that did not arrive whole or is
// too large.
#pragma once

#include <DataClient/networkerror.h>
#include <DataClient/response.h>

#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkReply;
QT_END_NAMESPACE

namespace DataClient::detail {

//! "METHOD url", as errors name a request.
QString request(const QByteArray &method, const QUrl &url);
Response readReply(QNetworkReply *reply, const QByteArray &method, QByteArray body);
//! The body length the head announced, when it can be compared with what arrived.
std::optional<qint64> announcedLength(const Response &answer);
//! No (whole) answer: \a what happened, and whether a status was seen before it.
NetworkError noAnswer(NetworkError::Kind kind, const Response &seen, const QString &what);
//! Larger than \a limit: announced by its head, or \a bodyRead bytes arrived past it.
NetworkError tooLarge(const Response &seen, qint64 limit, qint64 bodyRead);

} // namespace DataClient::detail
