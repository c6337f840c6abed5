// Reading denormalized values, whatever their container: the store hands out entities as
// DataClient::Record (fields read on demand) inside QVariantLists / QVariantMaps; tests and other
// sources may use plain QVariantMaps. QML cannot read a Record, so values crossing into QML are
// converted with toQmlValue(). Owned by the models layer (DataClient::Models), lent to the QML
// layer above it.
#pragma once

#include <DataClient/global.h>
#include <DataClient/networkerror.h>

#include <QtCore/QString>
#include <QtCore/QVariant>

#include <optional>

namespace DataClient {

//! True when both hold the same shared container or Record snapshot (the store's memoized
//! read): nothing changed. Scalars are never "shared" (compare them by value).
DATACLIENT_MODELS_EXPORT bool sameShared(const QVariant &a, const QVariant &b);
//! A Record or a QVariantMap.
DATACLIENT_MODELS_EXPORT bool isRecordLike(const QVariant &value);
//! Field \a field of a Record or QVariantMap (invalid QVariant otherwise or when absent).
DATACLIENT_MODELS_EXPORT QVariant fieldOf(const QVariant &value, const QString &field);
//! The pk of a Record (empty for anything else).
DATACLIENT_MODELS_EXPORT QString recordPk(const QVariant &value);
//! Record::isPending() of a Record; false for anything else.
DATACLIENT_MODELS_EXPORT bool recordPending(const QVariant &value);
//! \a value with every Record turned into a QVariantMap, at any depth (for QML and JS).
DATACLIENT_MODELS_EXPORT QVariant toQmlValue(const QVariant &value);
//! The NetworkError as the QML error object: {status, statusText, message, body, url, kind}.
DATACLIENT_MODELS_EXPORT QVariant errorToVariant(const std::optional<NetworkError> &error);

} // namespace DataClient
