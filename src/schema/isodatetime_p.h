// A fast, strict ISO 8601 date-time reader for Deserialize::dateTime(): reading 10k dates
// per list must cost microseconds, and QDateTime::fromString(Qt::ISODateWithMs) is ~20x slower.
#pragma once

#include <QtCore/QLatin1StringView>
#include <QtCore/QStringView>
#include <QtCore/QtGlobal>

#include <optional>

namespace DataClient::detail {

//! Milliseconds since the epoch of "YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|(+|-)HH[:]MM]", or nullopt.
//! A time without an offset is read as UTC. 't' and ' ' are accepted in place of 'T'.
std::optional<qint64> parseIsoDateTime(QStringView text);
std::optional<qint64> parseIsoDateTime(QLatin1StringView text);
//! The same as parseIsoDateTime() without an optional (returned through the stack, it stalls).
bool readIsoDateTime(QLatin1StringView text, qint64 *msecs);
//! The length of the common form "YYYY-MM-DDTHH:MM:SS.mmmZ", which has a fast path.
constexpr qsizetype IsoCommonFormLength = 24;

} // namespace DataClient::detail
