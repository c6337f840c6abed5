// The inspector's Manager: registered with a Controller only while a StoreInspector is attached
// to it; tells the requests model every step of every request (and the timeline the method and
// URL of each), and remembers the endpoint each read key was fetched with (what
// StoreInspector::refetch() sends again).
#pragma once

#include <DataClient/manager.h>

#include <QtCore/QHash>

#include <utility>

namespace DataClient {
class InspectorRequestsModel;
class InspectorTimelineModel;
} // namespace DataClient

namespace DataClient::detail {

class RequestRecorder final : public Manager
{
    Q_OBJECT

public:
    RequestRecorder(InspectorRequestsModel *requests, InspectorTimelineModel *timeline);

    //! The endpoint and params a recorded read of \a key was made with (null endpoint: none).
    std::pair<EndpointPtr, Params> reader(const QString &key) const { return m_readers.value(key); }

protected:
    void requestStarted(const ManagedRequest &request) override;
    Decision beforeSend(const ManagedRequest &request) override;
    void attemptFailed(const ManagedRequest &request, const NetworkError &error,
                       bool retrying) override;
    void answered(const ManagedRequest &request) override;
    void committed(const ManagedRequest &request, const DataClient::ChangeSet &changes) override;
    void failed(const ManagedRequest &request, const NetworkError &error) override;
    void storeReset() override;

private:
    InspectorRequestsModel *m_requests;
    InspectorTimelineModel *m_timeline;
    QHash<QString, std::pair<EndpointPtr, Params>> m_readers;
};

} // namespace DataClient::detail
