// A fast, strict ISO 8601 date-time reader for Deserialize::dateTime(): reading 10k dates
// per list must cost microseconds, and QDateTime::fromString(Qt::ISODateWithMs) is ~20x slower.
#pragma once

#include <DataClient/private/jsonglobal_p.h>

#include <QtCore/QDateTime>
#include <QtCore/QLatin1StringView>
#include <QtCore/QStringView>
#include <QtCore/QTimeZone>
#include <QtCore/QtGlobal>

#include <optional>

namespace DataClient::detail {

//! Milliseconds since the epoch of "YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|(+|-)HH[:]MM]", or nullopt.
//! A time without an offset is read as UTC. 't' and ' ' are accepted in place of 'T'.
DATACLIENT_JSON_EXPORT std::optional<qint64> parseIsoDateTime(QStringView text);
DATACLIENT_JSON_EXPORT std::optional<qint64> parseIsoDateTime(QLatin1StringView text);
//! The same as parseIsoDateTime() without an optional (returned through the stack, it stalls).
DATACLIENT_JSON_EXPORT bool readIsoDateTime(QLatin1StringView text, qint64 *msecs);
//! The length of the common form "YYYY-MM-DDTHH:MM:SS.mmmZ", which has a fast path.
constexpr qsizetype IsoCommonFormLength = 24;

//! The QDateTime of \a msecs since the epoch in UTC, with timeSpec() Qt::UTC (its ISO text ends
//! in "Z"), as Deserialize::dateTime() hands it out.
inline QDateTime utcDateTime(qint64 msecs)
{
    // Qt 6.5 deprecates the Qt::TimeSpec overloads for QTimeZone::UTC, which 6.4 lacks; 6.4's
    // QTimeZone::utc() is a real zone instead (timeSpec() Qt::TimeZone, ISO text "+00:00").
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    return QDateTime::fromMSecsSinceEpoch(msecs, QTimeZone::UTC);
#else
    return QDateTime::fromMSecsSinceEpoch(msecs, Qt::UTC);
#endif
}

} // namespace DataClient::detail
