// toJsonValue(): any value the store hands out (a Record, a RowList, the lists and maps around
// them, dates, Decimals) as JSON, for QJsonDocument, logging and code written for QJsonValue.
#pragma once

#include <DataClient/global.h>

#include <QtCore/QJsonValue>
#include <QtCore/QVariant>

namespace DataClient {

/*!
    \a value as JSON: the one call that converts any denormalized value (`Denormalized::data`,
    what fetch() and getResponse() resolve with, a Record's field).

    - a Record becomes an object of its fields (Record::toJsonObject()): the server's fields as
      it sent them (a date field is the server's date text), nested entities as objects (a
      missing one as null), defaults the schema fills in converted as below;
    - a RowList, a QVariantList or a QStringList becomes an array, a QVariantMap or a
      QVariantHash an object, each item converted as here;
    - a QDateTime becomes its ISO 8601 text with milliseconds (Qt::ISODateWithMs), a QDate or a
      QTime its ISO text, an invalid one null;
    - a Decimal becomes its exact text ("12.50"): a JSON number would round it to a double;
    - nullptr and an invalid QVariant become null;
    - anything else converts as QJsonValue::fromVariant() does (numbers, bools, strings, QUrl,
      QUuid, the QJson and QCbor types, and text for types that convert to QString).

    QJsonValue::fromVariant() and QJsonDocument::fromVariant() do not know these types: Qt 6
    picks their conversion by the variant's type id and never asks a registered converter, so
    they give null (or an empty document) for a Record or a RowList and for a list or a map
    holding them. QVariant's own conversions do use the converters this library registers:
    `v.toJsonValue()`, `v.value<QJsonObject>()` (a Record), `v.value<QJsonArray>()` (a
    RowList) and `v.value<QJsonDocument>()` give what this function gives.
*/
DATACLIENT_SCHEMA_EXPORT QJsonValue toJsonValue(const QVariant &value);

} // namespace DataClient
