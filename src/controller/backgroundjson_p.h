// Converting a large answer into the store's compact form off the GUI thread.
#pragma once

#include <DataClient/compactjson.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonValue>

namespace DataClient::detail {

/*!
    The Store keeps answers as CompactJson; an answer that arrives as a QJsonValue is converted
    first, which for a list of thousands of entities is most of the time a commit takes on the
    GUI thread. The conversion touches no shared state (CompactJson interns object shapes under
    a mutex and counts references atomically), so the Controller runs it on a worker for large
    answers and commits the result on its own thread.
*/
struct BackgroundJson
{
    //! Lists at least this long (at the top, or as a field of a top-level object) are converted
    //! on a worker; smaller answers are not worth a thread hop.
    static constexpr qsizetype LargeListSize = 256;

    static bool isLarge(const QJsonValue &value);
    //! CompactJson::fromJsonValue(\a value) on the global thread pool.
    static QFuture<CompactJson> convert(const QJsonValue &value);
};

} // namespace DataClient::detail
