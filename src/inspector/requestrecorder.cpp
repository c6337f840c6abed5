#include "requestrecorder_p.h"

#include <DataClient/inspectorrequestsmodel.h>

namespace DataClient::detail {

RequestRecorder::RequestRecorder(InspectorRequestsModel *requests) : m_requests(requests)
{
    setObjectName(QStringLiteral("StoreInspector"));
}

void RequestRecorder::requestStarted(const ManagedRequest &request)
{
    if (request.isRead())
        m_readers.insert(request.key(), {request.endpoint(), request.params()});
    m_requests->started(request);
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
}

void RequestRecorder::committed(const ManagedRequest &request, const DataClient::ChangeSet &changes)
{
    m_requests->committed(request, changes);
}

void RequestRecorder::failed(const ManagedRequest &request, const NetworkError &error)
{
    m_requests->failed(request, error);
}

void RequestRecorder::storeReset()
{
    m_readers.clear();
    m_requests->storeReset();
}

} // namespace DataClient::detail
