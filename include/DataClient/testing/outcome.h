// Awaiting in tests without failing: how a future ended (a value, a NetworkError, canceled or
// not in time), for tests that assert the failure they expect. A test helper: it spins the
// event loop (QTest::qWaitFor), which the library itself never does.
#pragma once

#include <DataClient/global.h>
#include <DataClient/networkerror.h>

#include <QtCore/QFuture>

#include <optional>

namespace DataClient::Testing {

/*!
    How a future ended, for tests of failures: \c finished is false when it did not finish in
    time; otherwise it holds its value, or the NetworkError it failed with (any other exception
    is read with NetworkError::fromException()), or neither when it was canceled.
*/
template<typename T> struct Outcome
{
    bool finished = false;
    std::optional<T> value;
    std::optional<NetworkError> error;
    bool canceled() const { return finished && !value && !error; }
};

namespace detail {
//! Spins the event loop until \a future finishes (false on timeout), and reads its error.
DATACLIENT_TESTING_EXPORT bool waitForOutcome(QFuture<void> future, int timeoutMs,
                                              std::optional<NetworkError> &error);
} // namespace detail

/*!
    Waits up to \a timeoutMs for \a future, spinning the event loop, and returns how it ended
    without failing the test (unlike await()): the test then asserts the error it expects.

    \code
    const auto outcome = Testing::awaitOutcome(controller.fetch(todos.get, {{u"id"_s, 404}}));
    QVERIFY(outcome.error);
    QCOMPARE(outcome.error->status(), 404);
    \endcode
*/
template<typename T> Outcome<T> awaitOutcome(const QFuture<T> &future, int timeoutMs = 5000)
{
    Outcome<T> outcome;
    outcome.finished = detail::waitForOutcome(QFuture<void>(future), timeoutMs, outcome.error);
    if (outcome.finished && !outcome.error && future.resultCount() > 0)
        outcome.value = future.result();
    return outcome;
}

} // namespace DataClient::Testing
