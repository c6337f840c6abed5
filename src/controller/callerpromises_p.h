// The callers of one request in flight: every fetch() that started or joined it gets a future of
// its own. Qt 6.4 keeps one continuation per QFuture, so callers sharing one future would replace
// each other's .then(), and one caller's cancel() would cancel them all.
#pragma once

#include <QtCore/QFuture>
#include <QtCore/QList>
#include <QtCore/QPromise>
#include <QtCore/QVariant>

#include <exception>
#include <memory>

namespace DataClient::detail {

class CallerPromises
{
public:
    //! A new caller's future.
    QFuture<QVariant> add();
    //! Callers whose future is neither finished nor canceled.
    qsizetype waiting() const;
    qsizetype size() const { return m_promises.size(); }

    //! Each of these settles every caller still waiting, once; later calls do nothing.
    void resolve(const QVariant &value);
    void fail(const std::exception_ptr &error);
    void cancel();

private:
    template<typename Settle> void settle(Settle settleOne);

    QList<std::shared_ptr<QPromise<QVariant>>> m_promises;
    bool m_settled = false;
};

} // namespace DataClient::detail
