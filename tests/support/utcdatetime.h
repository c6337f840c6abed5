// A UTC QDateTime the way the library builds them, for comparisons in tests.
#pragma once

#include <QtCore/QDateTime>
#include <QtCore/QTimeZone>

//! \a date at \a time in UTC, with timeSpec() Qt::UTC (as Deserialize::dateTime() makes them).
inline QDateTime utcDateTime(QDate date, QTime time)
{
    // Qt 6.5 deprecates the Qt::TimeSpec constructor for QTimeZone::UTC, which 6.4 lacks (its
    // QTimeZone::utc() is a zone: timeSpec() Qt::TimeZone, not equal to a Qt::UTC one).
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    return QDateTime(date, time, QTimeZone::UTC);
#else
    return QDateTime(date, time, Qt::UTC);
#endif
}
