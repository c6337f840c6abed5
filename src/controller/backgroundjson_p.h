// Converting (and, when the schema allows, normalizing) a large answer off the GUI thread.
#pragma once

#include <DataClient/compactjson.h>
#include <DataClient/params.h>
#include <DataClient/private/preparedwrite_p.h>
#include <DataClient/schema.h>

#include <QtCore/QFuture>
#include <QtCore/QJsonValue>

#include <memory>

namespace DataClient::detail {

/*!
    The Store keeps answers as CompactJson; an answer that arrives as a QJsonValue is converted
    first, and every answer is normalized before it is committed. For a list of thousands of
    entities that is most of the time a write takes. Both touch no shared state (CompactJson
    interns object shapes under a mutex and counts references atomically; StoreLayers::prepare() writes
    into a batch of its own), so they run on a worker for large answers and the Controller
    commits the result on its own thread in one step. A CompactJson answer is parsed and
    normalized in one worker task by RestEndpoint::fetchCompact() (CompactAnswer::ParseAndPrepare);
    what is left here is converting an answer that arrives as a QJsonValue (an endpoint with
    hooks of its own) and releasing a committed answer on a worker.
*/
struct BackgroundJson
{
    //! Lists at least this long (at the top, or as a field of a top-level object) are converted
    //! on a worker; smaller answers are not worth a thread hop.
    static constexpr qsizetype LargeListSize = 256;

    //! What a worker made of an answer.
    struct Result
    {
        CompactJson value;
        //! The answer normalized by StoreLayers::prepare(), or null when it is to be normalized on the
        //! GUI thread. Shared because QFuture needs a copyable result.
        std::shared_ptr<PreparedWrite> prepared;
    };

    static bool isLarge(const QJsonValue &value);
    //! CompactJson::fromJsonValue(\a value) on the global thread pool.
    static QFuture<Result> convert(const QJsonValue &value);
    /*!
        Drops \a result on the global thread pool. Once committed, the parsed answer is garbage
        (the store holds records of its own): for todos-10k that is some 30k nodes, and freeing
        them took 1.2-1.4 ms of the GUI thread's next event-loop turn (q.response.10k). Node
        references are counted atomically, so the worker may drop the last one.
    */
    static void release(Result &&result);
};

} // namespace DataClient::detail
