// A Manager that counts requests, failures and bytes per endpoint (docs/managers.md).
#pragma once

#include <DataClient/manager.h>

#include <QtCore/QHash>
#include <QtCore/QVariantMap>

//! [metrics-header]
class RequestMetrics : public DataClient::Manager
{
    Q_OBJECT
    Q_PROPERTY(int requests READ requests NOTIFY countsChanged)
    Q_PROPERTY(int failures READ failures NOTIFY countsChanged)
    Q_PROPERTY(qint64 bytes READ bytes NOTIFY countsChanged)

public:
    using DataClient::Manager::Manager;

    int requests() const { return m_total.requests; }
    int failures() const { return m_total.failures; }
    qint64 bytes() const { return m_total.bytes; }
    //! {endpoint name: {"requests": n, "failures": n, "bytes": n}}
    Q_INVOKABLE QVariantMap countsByEndpoint() const;

Q_SIGNALS:
    void countsChanged();

protected:
    void requestStarted(const DataClient::ManagedRequest &request) override;
    void answered(const DataClient::ManagedRequest &request) override;
    void failed(const DataClient::ManagedRequest &request,
                const DataClient::NetworkError &error) override;

private:
    struct Counts
    {
        int requests = 0;
        int failures = 0;
        qint64 bytes = 0;
    };
    Counts m_total;
    QHash<QString, Counts> m_byEndpoint;
};
//! [metrics-header]
