#include "callerpromises_p.h"

#include <algorithm>

namespace DataClient::detail {

QFuture<QVariant> CallerPromises::add()
{
    auto promise = std::make_shared<QPromise<QVariant>>();
    promise->start();
    QFuture<QVariant> future = promise->future();
    if (m_settled) {
        // Too late to join: nothing will settle it (the caller checks settled requests first).
        future.cancel();
        promise->finish();
        return future;
    }
    m_promises.append(std::move(promise));
    return future;
}

qsizetype CallerPromises::waiting() const
{
    return std::count_if(m_promises.cbegin(), m_promises.cend(), [](const auto &promise) {
        const QFuture<QVariant> future = promise->future();
        return !future.isFinished() && !future.isCanceled();
    });
}

template<typename Settle> void CallerPromises::settle(Settle settleOne)
{
    if (m_settled)
        return;
    m_settled = true;
    // Each caller's continuation may run as its promise finishes; take the list first.
    const auto promises = std::exchange(m_promises, {});
    for (const auto &promise : promises) {
        if (!promise->future().isCanceled())
            settleOne(*promise);
        promise->finish();
    }
}

void CallerPromises::resolve(const QVariant &value)
{
    settle([&value](QPromise<QVariant> &promise) { promise.addResult(value); });
}

void CallerPromises::fail(const std::exception_ptr &error)
{
    settle([&error](QPromise<QVariant> &promise) { promise.setException(error); });
}

void CallerPromises::cancel()
{
    settle([](QPromise<QVariant> &promise) { promise.future().cancel(); });
}

} // namespace DataClient::detail
