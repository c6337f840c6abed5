// What ManagedRequest holds: a snapshot of one request at one lifecycle step.
#pragma once

#include <DataClient/manager.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QSharedData>

namespace DataClient {

class ManagedRequestData : public QSharedData
{
public:
    quint64 id = 0;
    EndpointPtr endpoint;
    Params params;
    QJsonValue body;
    QString key;
    QString requestKey;
    bool read = true;
    int attempt = 1;
    int status = 0;
    qint64 bytesReceived = 0;
};

} // namespace DataClient
