#include "requestmetrics.h"

//! [metrics]
void RequestMetrics::requestStarted(const DataClient::ManagedRequest &request)
{
    ++m_total.requests; // once per request: retries are attempts of the same one
    ++m_byEndpoint[request.endpointName()].requests;
    Q_EMIT countsChanged();
}

void RequestMetrics::answered(const DataClient::ManagedRequest &request)
{
    m_total.bytes += request.bytesReceived(); // every attempt's answer was downloaded
    m_byEndpoint[request.endpointName()].bytes += request.bytesReceived();
    Q_EMIT countsChanged();
}

void RequestMetrics::failed(const DataClient::ManagedRequest &request,
                            const DataClient::NetworkError &)
{
    ++m_total.failures; // for good: after the last retry
    ++m_byEndpoint[request.endpointName()].failures;
    Q_EMIT countsChanged();
}

QVariantMap RequestMetrics::countsByEndpoint() const
{
    QVariantMap result;
    for (auto it = m_byEndpoint.cbegin(); it != m_byEndpoint.cend(); ++it) {
        result.insert(it.key(),
                      QVariantMap {{QStringLiteral("requests"), it->requests},
                                   {QStringLiteral("failures"), it->failures},
                                   {QStringLiteral("bytes"), it->bytes}});
    }
    return result;
}
//! [metrics]
