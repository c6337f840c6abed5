// Writes a ServerResponse to a client socket the way TestServer's route asked for it: at once,
// trickled one byte at a time, cut short and stalled, or cut short and closed.
#pragma once

#include <DataClient/testing/testserver.h>

QT_BEGIN_NAMESPACE
class QTcpSocket;
QT_END_NAMESPACE

namespace DataClient::Testing::detail {

//! The standard reason phrase of \a status ("Status" for one it does not know).
QByteArray reasonPhrase(int status);

//! Writes \a response to \a socket (the delay is the caller's); a trickle runs on a timer owned
//! by the socket, so a client that goes away stops it.
void writeResponse(QTcpSocket *socket, const ServerResponse &response);

} // namespace DataClient::Testing::detail
