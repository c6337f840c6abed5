// Reacting to a Controller future from an object that may be destroyed first. Qt 6.4's
// QFuture::then(context, ...) asserts when its context is gone before the future finishes (a view
// destroyed mid-request), so results are delivered through a QFutureWatcher owned by the object:
// it dies with the object, and so does the callback.
#pragma once

#include <DataClient/networkerror.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QVariant>

namespace DataClient::Models {

//! Calls \a onOk(QVariant) or \a onFail(NetworkError) (kind Canceled when the future was
//! canceled) from the event loop, unless \a owner was destroyed first.
template<typename Ok, typename Fail>
void watchFuture(QObject *owner, const QFuture<QVariant> &future, Ok onOk, Fail onFail)
{
    auto *watcher = new QFutureWatcher<QVariant>(owner);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner, [watcher, onOk, onFail] {
        watcher->deleteLater();
        QFuture<QVariant> done = watcher->future();
        try {
            done.waitForFinished(); // already finished; rethrows a stored failure
        } catch (const NetworkError &error) {
            onFail(error);
            return;
        } catch (...) {
            onFail(NetworkError::fromException(std::current_exception()));
            return;
        }
        if (done.isCanceled() || done.resultCount() == 0) {
            onFail(NetworkError(NetworkError::Kind::Canceled, 0,
                                QStringLiteral("the request was canceled (store reset or "
                                               "controller destroyed)")));
            return;
        }
        onOk(done.result());
    });
    watcher->setFuture(future);
}

} // namespace DataClient::Models
