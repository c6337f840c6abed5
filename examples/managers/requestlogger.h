// A Manager that logs every answered attempt with its timing (docs/managers.md).
#pragma once

#include <DataClient/manager.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcRequests)

//! Logs "GET <url> <status> in <ms> ms" in the category `app.requests` (info level) when an
//! attempt is answered, timed from the moment it was sent. With logHeaders, also the headers the
//! managers added as it leaves ("GET <url> headers: Name: value, ..."), the credentials among them
//! (Authorization, Proxy-Authorization, Cookie by default) redacted.
class RequestLogger : public DataClient::Manager
{
    Q_OBJECT

public:
    using DataClient::Manager::Manager;

    bool logHeaders = false;
    //! Names (any case) whose values are never logged.
    QByteArrayList redactedHeaders {"authorization", "proxy-authorization", "cookie"};

protected:
    void decorate(const DataClient::ManagedRequest &request, DataClient::Headers *) override;
    void answered(const DataClient::ManagedRequest &request) override;
    void failed(const DataClient::ManagedRequest &request,
                const DataClient::NetworkError &error) override;
    void storeReset() override;

private:
    //! When each request's current attempt was sent, by request id.
    QHash<quint64, QElapsedTimer> m_sent;
};
