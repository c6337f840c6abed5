// CompactAnswer: a processed REST answer in the store's compact form (RestEndpoint::fetchCompact).
#pragma once

#include <DataClient/compactjson.h>

#include <memory>

namespace DataClient {

class PreparedWrite; // private/preparedwrite_p.h: the library's own layers commit it

//! What RestEndpoint::fetchCompact() resolves with.
struct CompactAnswer
{
    //! The processed answer (what fetch() resolves with), as CompactJson.
    CompactJson value {};
    //! True when the body was parsed on a worker thread (a large body and an endpoint whose
    //! answersOffThread() is true); the future then also resolved on that thread.
    bool parsedOffThread = false;
    /*!
        With RestEndpoint::fetchCompact(..., CompactAnswer::ParseAndPrepare) and a body parsed on
        a worker: the answer normalized on that worker right after the parse, by
        StoreLayers::prepare(schema(), storeArguments(params), value), for a StoreLayers::commit(). Null
        otherwise, and when the endpoint's schema cannot normalize off the GUI thread
        (Schema::normalizesAnywhere()). Shared because a QFuture's result is copied.
    */
    std::shared_ptr<PreparedWrite> prepared {};

    //! What fetchCompact() does on the worker that parses a large answer.
    enum Work {
        Parse, //!< parse only
        ParseAndPrepare, //!< parse, then normalize for the store (one worker task, not two)
    };
};

} // namespace DataClient
