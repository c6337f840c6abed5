// What a test reads back from a Controller: a row as a map (a Record or a plain map), the error
// a failed future holds.
#pragma once

#include <DataClient/networkerror.h>
#include <DataClient/record.h>

#include <QtCore/QFuture>
#include <QtCore/QVariant>

namespace ReadBack {

inline QVariantMap toMap(const QVariant &value)
{
    if (value.metaType() == QMetaType::fromType<DataClient::Record>())
        return value.value<DataClient::Record>().toMap();
    return value.toMap();
}

//! The error a failed future holds (a null NetworkError when it did not fail).
inline DataClient::NetworkError failureOf(QFuture<QVariant> future)
{
    try {
        future.waitForFinished();
    } catch (const DataClient::NetworkError &error) {
        return error;
    } catch (...) {
        return DataClient::NetworkError::fromException(std::current_exception());
    }
    return DataClient::NetworkError();
}

} // namespace ReadBack
