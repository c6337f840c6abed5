#include "replyfuture_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QFutureWatcher>
#include <QtCore/QThread>

namespace DataClient::detail {

void forwardCancel(const QFuture<void> &downstream, QFuture<void> upstream)
{
    QCoreApplication *app = QCoreApplication::instance();
    auto *watcher = new QFutureWatcher<void>(
        app && app->thread() == QThread::currentThread() ? app : nullptr);
    QObject::connect(watcher, &QFutureWatcherBase::canceled, watcher, [upstream]() mutable {
        // Never cancel a finished future: Qt 6.4 would follow a dangling pointer
        // to its (already destroyed) continuation and cancel whatever now lives
        // there. A failed downstream also reports "canceled"; nothing to do then.
        if (!upstream.isFinished())
            upstream.cancel();
    });
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
    watcher->setFuture(downstream);
}

} // namespace DataClient::detail
