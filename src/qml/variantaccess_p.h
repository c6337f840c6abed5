// Reading denormalized values, whatever their container: the store hands out entities as
// DataClient::Record (fields read on demand) inside QVariantLists / QVariantMaps; tests and other
// sources may use plain QVariantMaps. QML cannot read a Record, so values crossing into QML are
// converted with toQmlValue().
#pragma once

#include <DataClient/global.h>

#include <QtCore/QString>
#include <QtCore/QVariant>

namespace DataClient {

//! True when both hold the same shared container or Record snapshot (the store's memoized
//! read): nothing changed. Scalars are never "shared" (compare them by value).
bool sameShared(const QVariant &a, const QVariant &b);
//! A Record or a QVariantMap.
bool isRecordLike(const QVariant &value);
//! Field \a field of a Record or QVariantMap (invalid QVariant otherwise or when absent).
QVariant fieldOf(const QVariant &value, const QString &field);
//! The pk of a Record (empty for anything else).
QString recordPk(const QVariant &value);
//! \a value with every Record turned into a QVariantMap, at any depth (for QML and JS).
QVariant toQmlValue(const QVariant &value);

} // namespace DataClient
