#include "mocknetworkreply_p.h"

#include <cstring>

namespace DataClient::Testing::detail {

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 409:
        return "Conflict";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

//! The QNetworkReply error a real HTTP answer of \a status carries.
QNetworkReply::NetworkError errorOfStatus(int status)
{
    switch (status) {
    case 401:
        return QNetworkReply::AuthenticationRequiredError;
    case 403:
        return QNetworkReply::ContentAccessDenied;
    case 404:
        return QNetworkReply::ContentNotFoundError;
    case 405:
        return QNetworkReply::ContentOperationNotPermittedError;
    case 409:
        return QNetworkReply::ContentConflictError;
    case 410:
        return QNetworkReply::ContentGoneError;
    case 500:
        return QNetworkReply::InternalServerError;
    case 501:
        return QNetworkReply::OperationNotImplementedError;
    case 503:
        return QNetworkReply::ServiceUnavailableError;
    default:
        if (status >= 500)
            return QNetworkReply::UnknownServerError;
        return status >= 400 ? QNetworkReply::UnknownContentError : QNetworkReply::NoError;
    }
}

} // namespace

MockNetworkReply::MockNetworkReply(QNetworkAccessManager::Operation operation,
                                   const QNetworkRequest &request, const QByteArray &method,
                                   const MockReply &answer, QObject *parent)
    : QNetworkReply(parent), m_answer(answer)
{
    setRequest(request);
    setUrl(request.url());
    setOperation(operation);
    setAttribute(QNetworkRequest::CustomVerbAttribute, method);
    m_delay.setSingleShot(true);
    connect(&m_delay, &QTimer::timeout, this, &MockNetworkReply::deliver);
    // Never synchronously: code connects to the reply after get() returns.
    m_delay.start(std::max(0, answer.delayMs));
}

void MockNetworkReply::deliver()
{
    if (isFinished())
        return;
    const bool transportFailure = m_answer.error != QNetworkReply::NoError;
    if (!transportFailure) {
        setAttribute(QNetworkRequest::HttpStatusCodeAttribute, m_answer.status);
        setAttribute(QNetworkRequest::HttpReasonPhraseAttribute, reasonPhrase(m_answer.status));
        for (const auto &[name, value] : m_answer.headers)
            setRawHeader(name, value);
        m_body = m_answer.body;
        setRawHeader("Content-Length", QByteArray::number(m_body.size()));
    }
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    const QNetworkReply::NetworkError error
        = transportFailure ? m_answer.error : errorOfStatus(m_answer.status);
    if (!transportFailure) {
        Q_EMIT metaDataChanged();
        Q_EMIT downloadProgress(m_body.size(), m_body.size());
        if (!m_body.isEmpty())
            Q_EMIT readyRead();
    }
    if (error != QNetworkReply::NoError) {
        setError(error,
                 transportFailure ? m_answer.errorString
                                  : QStringLiteral("Error transferring %1 - server "
                                                   "replied: %2")
                                        .arg(url().toString(),
                                             QString::fromLatin1(reasonPhrase(m_answer.status))));
        Q_EMIT errorOccurred(error);
    }
    setFinished(true);
    Q_EMIT finished();
}

void MockNetworkReply::abort()
{
    if (isFinished())
        return;
    m_delay.stop();
    setError(QNetworkReply::OperationCanceledError, QStringLiteral("Operation canceled"));
    setFinished(true);
    Q_EMIT errorOccurred(QNetworkReply::OperationCanceledError);
    Q_EMIT finished();
}

qint64 MockNetworkReply::bytesAvailable() const
{
    return m_body.size() - m_read + QNetworkReply::bytesAvailable();
}

qint64 MockNetworkReply::readData(char *data, qint64 maxSize)
{
    const qint64 count = std::min(maxSize, qint64(m_body.size()) - m_read);
    if (count <= 0)
        return isFinished() ? -1 : 0;
    std::memcpy(data, m_body.constData() + m_read, size_t(count));
    m_read += count;
    return count;
}

} // namespace DataClient::Testing::detail
