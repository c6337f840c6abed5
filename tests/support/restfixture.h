// Shared helpers of the REST tests: waiting for a future and reading its outcome, and the
// entity schemas the tests use.
#pragma once

#include <DataClient/entityschema.h>
#include <DataClient/networkerror.h>
#include <DataClient/schema.h>

#include <QtCore/QFuture>
#include <QTest>

#include <optional>

namespace RestFixture {

//! What a finished future holds: a value, an error, or neither (canceled).
template<typename T> struct Outcome
{
    bool finished = false;
    std::optional<T> value;
    std::optional<DataClient::NetworkError> error;
    bool canceled() const { return finished && !value && !error; }
};

//! Runs the event loop until \a future finishes (at most \a timeoutMs), then reads it.
template<typename T> Outcome<T> await(QFuture<T> future, int timeoutMs = 10000)
{
    Outcome<T> outcome;
    outcome.finished = QTest::qWaitFor([&] { return future.isFinished(); }, timeoutMs);
    if (!outcome.finished)
        return outcome;
    if (future.resultCount() > 0) {
        outcome.value = future.result();
        return outcome;
    }
    try {
        future.waitForFinished();
    } catch (const DataClient::NetworkError &error) {
        outcome.error = error;
    } catch (...) {
        outcome.error = DataClient::NetworkError::fromException(std::current_exception());
    }
    return outcome;
}

inline DataClient::EntitySchema userEntity()
{
    return DataClient::EntitySchema(QStringLiteral("User"));
}

inline DataClient::Schema user()
{
    return DataClient::Schema::entity(userEntity());
}

} // namespace RestFixture
