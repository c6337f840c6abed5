#include "requestlogger.h"

//! [logger]
Q_LOGGING_CATEGORY(lcRequests, "app.requests")

void RequestLogger::decorate(const DataClient::ManagedRequest &request,
                             DataClient::Headers *headers)
{
    m_sent[request.id()].start(); // decorate() runs as the attempt leaves
    if (!logHeaders)
        return;
    QStringList shown;
    for (const auto &[name, value] : std::as_const(*headers)) {
        const bool secret = redactedHeaders.contains(name.toLower());
        shown.append(QString::fromLatin1(name) + QStringLiteral(": ")
                     + (secret ? QStringLiteral("[redacted]") : QString::fromLatin1(value)));
    }
    qCInfo(lcRequests).noquote() << request.method() << request.url().toString()
                                 << "headers:" << shown.join(QStringLiteral(", "));
}

void RequestLogger::answered(const DataClient::ManagedRequest &request)
{
    // An answer given by a manager (Manager::answer()) was never sent: it took no time.
    const QElapsedTimer sent = m_sent.take(request.id());
    const qint64 ms = sent.isValid() ? sent.elapsed() : 0;
    qCInfo(lcRequests).noquote() << request.method() << request.url().toString() << request.status()
                                 << "in" << ms << "ms";
}

void RequestLogger::failed(const DataClient::ManagedRequest &request,
                           const DataClient::NetworkError &error)
{
    m_sent.remove(request.id()); // its last answer, if any, was logged by answered()
    qCInfo(lcRequests).noquote() << request.method() << request.url().toString()
                                 << "failed:" << error.message(); // for good: no retry follows
}

void RequestLogger::storeReset()
{
    m_sent.clear(); // the requests in flight ended with the reset
}
//! [logger]
