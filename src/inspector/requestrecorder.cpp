#include "requestrecorder_p.h"

#include <DataClient/inspectorrequestsmodel.h>
#include <DataClient/inspectortimelinemodel.h>

namespace DataClient::detail {

RequestRecorder::RequestRecorder(InspectorRequestsModel *requests, InspectorTimelineModel *timeline)
    : m_requests(requests), m_timeline(timeline)
{
    setObjectName(QStringLiteral("StoreInspector"));
}

void RequestRecorder::requestStarted(const ManagedRequest &request)
{
    if (request.isRead())
        m_readers.insert(request.key(), {request.endpoint(), request.params()});
    m_requests->started(request);
    m_timeline->requestSeen(request, false);
}

Manager::Decision RequestRecorder::beforeSend(const ManagedRequest &request)
{
    m_requests->attempt(request);
    return Decision::Send;
}

void RequestRecorder::attemptFailed(const ManagedRequest &request, const NetworkError &error, bool)
{
    m_requests->attemptFailed(request, error);
}

void RequestRecorder::answered(const ManagedRequest &request)
{
    m_requests->answered(request);
    if (request.status() == 304)
        m_timeline->requestSeen(request, true); // the stored data is kept: nothing follows
}

void RequestRecorder::committed(const ManagedRequest &request, const DataClient::ChangeSet &changes)
{
    m_requests->committed(request, changes);
    m_timeline->requestSeen(request, true);
}

void RequestRecorder::failed(const ManagedRequest &request, const NetworkError &error)
{
    m_requests->failed(request, error);
    m_timeline->requestSeen(request, true);
}

void RequestRecorder::storeReset()
{
    m_readers.clear();
    m_requests->storeReset();
}

} // namespace DataClient::detail
