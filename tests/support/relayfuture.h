// Settles a promise as another future settles: its value, its exception, or canceled. For test
// endpoints whose fetchResponse() sends later and hands the caller a future of their own.
#pragma once

#include <QtCore/QFuture>
#include <QtCore/QObject>
#include <QtCore/QPromise>

#include <exception>
#include <memory>

namespace TestSupport {

//! \a promise (started) settles as \a source does, on \a context's thread.
template<typename T>
void relay(QFuture<T> source, const std::shared_ptr<QPromise<T>> &promise, QObject *context)
{
    source
        .then(context,
              [promise](const T &value) {
                  promise->addResult(value);
                  promise->finish();
              })
        .onFailed(context,
                  [promise] {
                      promise->setException(std::current_exception());
                      promise->finish();
                  })
        .onCanceled(context, [promise] {
            promise->future().cancel();
            promise->finish();
        });
}

} // namespace TestSupport
