// Cancellation that travels up a chain of futures (a continuation's cancel() does not reach
// its parent in Qt 6.4).
#pragma once

#include <QtCore/QFuture>

namespace DataClient::detail {

//! Cancelling \a downstream cancels \a upstream. The watcher doing it deletes itself once
//! \a downstream finishes. It is deliberately not a child of the endpoint: the future it holds
//! may own the last reference to that endpoint (a parent deleted by its own child's destructor).
//! On the main thread the application object is its parent, so nothing leaks at exit.
void forwardCancel(const QFuture<void> &downstream, QFuture<void> upstream);

} // namespace DataClient::detail
