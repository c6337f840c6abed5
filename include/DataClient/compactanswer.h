// CompactAnswer: a processed REST answer in the store's compact form (RestEndpoint::fetchCompact).
#pragma once

#include <DataClient/compactjson.h>

namespace DataClient {

//! What RestEndpoint::fetchCompact() resolves with.
struct CompactAnswer
{
    //! The processed answer (what fetch() resolves with), as CompactJson.
    CompactJson value {};
    //! True when the body was parsed on a worker thread (a large body and an endpoint whose
    //! answersOffThread() is true); the future then also resolved on that thread.
    bool parsedOffThread = false;
};

} // namespace DataClient
