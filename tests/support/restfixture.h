// Shared helpers of the REST tests: waiting for a future and reading its outcome, and the
// entity schemas the tests use.
#pragma once

#include <DataClient/entityschema.h>
#include <DataClient/networkerror.h>
#include <DataClient/schema.h>
#include <DataClient/testing/outcome.h>

#include <QtCore/QFuture>
#include <QTest>

#include <optional>

namespace RestFixture {

using DataClient::Testing::Outcome;

//! The shipped Testing::awaitOutcome() under the REST tests' short name (a longer default wait).
template<typename T> Outcome<T> await(QFuture<T> future, int timeoutMs = 10000)
{
    return DataClient::Testing::awaitOutcome(future, timeoutMs);
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
