// Awaiting in tests: a future's value or a failed test that says why and where; a
// model's or query's status. Test helpers only: they spin the event loop (QTest::qWaitFor),
// which the library itself never does.
#pragma once

#include <DataClient/global.h>
#include <DataClient/testing/outcome.h>

#include <QtCore/QFuture>
#include <QtCore/QString>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QObject;
QT_END_NAMESPACE

namespace DataClient::Testing {

/*!
    How the kit reports a failure (an unmatched request, a failed await, a bad fixture). The
    default fails the running Qt Test function (QTest::qFail at the caller's file and line, so
    QEXPECT_FAIL applies) and outside one logs a critical message. Another test framework (or a
    test of the message itself) installs its own; an empty function restores the default.
    Returns the previous handler.
*/
using FailureHandler = std::function<void(const QString &message, const char *file, int line)>;
DATACLIENT_TESTING_EXPORT FailureHandler setFailureHandler(FailureHandler handler);

namespace detail {
//! Reports a failure through the FailureHandler.
DATACLIENT_TESTING_EXPORT void failTest(const QString &message, const char *file, int line);
//! Spins the event loop until \a future finishes; fails the test (with its error, "canceled"
//! or the timeout) unless it has a result.
DATACLIENT_TESTING_EXPORT bool waitForResult(QFuture<void> future, bool hasResult, int timeoutMs,
                                             const char *file, int line);
} // namespace detail

/*!
    Waits up to \a timeoutMs for \a future, spinning the event loop, and returns its value. When
    it fails (its NetworkError's message), ends canceled ("canceled") or times out, the running
    test fails with that and the caller's file and line, and std::nullopt is returned:

    \code
    const std::optional<QVariant> todo = Testing::await(controller.fetch(todos.get, {{u"id"_s, 1}}));
    QVERIFY(todo);
    \endcode
*/
template<typename T>
std::optional<T> await(const QFuture<T> &future, int timeoutMs = 5000,
                       const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    if (!detail::waitForResult(QFuture<void>(future), true, timeoutMs, file, line))
        return std::nullopt;
    if (future.resultCount() == 0) {
        detail::failTest(QStringLiteral("Testing::await: the future finished without a value"),
                         file, line);
        return std::nullopt;
    }
    return future.result();
}

//! QFuture<void>: true when it finished without error (else the test fails, as above).
inline bool await(const QFuture<void> &future, int timeoutMs = 5000,
                  const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return detail::waitForResult(future, false, timeoutMs, file, line);
}

/*!
    Waits up to \a timeoutMs until the `status` property of \a object (a CollectionModel, a QML
    FetchResult, any QObject with a status enum) equals \a status. On timeout the test fails
    with the status it stayed at (its enum key) and the caller's location; returns false.
*/
DATACLIENT_TESTING_EXPORT bool waitForStatus(const QObject *object, int status,
                                             int timeoutMs = 5000,
                                             const char *file = __builtin_FILE(),
                                             int line = __builtin_LINE());

} // namespace DataClient::Testing
