// QNetworkReply -> QFuture<Response>, and cancellation that travels up a chain of futures
// (a continuation's cancel() does not reach its parent in Qt 6.4: see QT-NOTES G9).
#pragma once

#include <DataClient/response.h>

#include <QtCore/QFuture>

QT_BEGIN_NAMESPACE
class QNetworkReply;
class QObject;
QT_END_NAMESPACE

namespace DataClient::detail {

/*!
    Resolves with the whole answer when \a reply finishes with an HTTP status; fails with
    NetworkError (status 0: Network, Timeout or Canceled) when it has none. Cancelling the future
    aborts the reply. Takes ownership of \a reply (deleted once finished).
*/
QFuture<Response> responseFuture(QNetworkReply *reply, const QByteArray &method, int timeoutMs);

//! Cancelling \a downstream cancels \a upstream. The watcher doing it deletes itself once
//! \a downstream finishes. It is deliberately not a child of the endpoint: the future it holds
//! may own the last reference to that endpoint (a parent deleted by its own child's destructor).
//! On the main thread the application object is its parent, so nothing leaks at exit.
void forwardCancel(const QFuture<void> &downstream, QFuture<void> upstream);

} // namespace DataClient::detail
