#include "logging_p.h"
#include "replyfuture_p.h"

#include <DataClient/networkerror.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QFutureWatcher>
#include <QtCore/QThread>
#include <QtCore/QPromise>
#include <QtNetwork/QNetworkReply>

#include <memory>

namespace DataClient::detail {

namespace {

constexpr char canceledProperty[] = "_dataclient_canceled";

Response readReply(QNetworkReply *reply, const QByteArray &method)
{
    Response response;
    response.method = method;
    response.url = reply->url();
    response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    response.statusText = QString::fromUtf8(
        reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray());
    const auto pairs = reply->rawHeaderPairs();
    for (const auto &pair : pairs)
        response.headers.append(pair);
    if (reply->isOpen())
        response.body = reply->readAll();
    response.networkError = reply->error();
    if (response.networkError != QNetworkReply::NoError)
        response.errorString = reply->errorString();
    return response;
}

NetworkError noAnswerError(const Response &response, bool canceled, int timeoutMs)
{
    NetworkError::Kind kind = NetworkError::Kind::Network;
    QString what = response.errorString;
    if (canceled) {
        kind = NetworkError::Kind::Canceled;
        what = QStringLiteral("the request was canceled");
    } else if (response.networkError == QNetworkReply::TimeoutError
               || (response.networkError == QNetworkReply::OperationCanceledError
                   && timeoutMs > 0)) {
        // Qt reports its transfer timeout as an aborted operation.
        kind = NetworkError::Kind::Timeout;
        what = QStringLiteral("no answer within the timeout of %1 ms").arg(timeoutMs);
    }
    const QString message = QStringLiteral("%1 %2 failed: %3 (status 0, no HTTP answer)")
                                .arg(QString::fromLatin1(response.method),
                                     response.url.toString(QUrl::FullyEncoded), what);
    return NetworkError(kind, 0, message)
        .withStatus(0, response.errorString)
        .withRequest(response.method, response.url)
        .withNetworkError(response.networkError, response.errorString);
}

} // namespace

QFuture<Response> responseFuture(QNetworkReply *reply, const QByteArray &method, int timeoutMs)
{
    auto promise = std::make_shared<QPromise<Response>>();
    promise->start();
    QFuture<Response> future = promise->future();

    auto *watcher = new QFutureWatcher<Response>(reply);
    QObject::connect(watcher, &QFutureWatcherBase::canceled, reply, [reply] {
        if (reply->isFinished())
            return;
        qCDebug(lcRest) << "aborting" << reply->url();
        reply->setProperty(canceledProperty, true);
        reply->abort();
    });
    watcher->setFuture(future);

    QObject::connect(reply, &QNetworkReply::finished, reply, [reply, promise, method, timeoutMs] {
        reply->deleteLater();
        const Response response = readReply(reply, method);
        const bool canceled = reply->property(canceledProperty).toBool() || promise->isCanceled();
        qCDebug(lcRest) << method << response.url << "->" << response.status
                        << response.networkError;
        if (response.status == 0)
            promise->setException(noAnswerError(response, canceled, timeoutMs));
        else
            promise->addResult(response);
        promise->finish();
    });
    return future;
}

void forwardCancel(const QFuture<void> &downstream, QFuture<void> upstream)
{
    QCoreApplication *app = QCoreApplication::instance();
    auto *watcher = new QFutureWatcher<void>(
        app && app->thread() == QThread::currentThread() ? app : nullptr);
    QObject::connect(watcher, &QFutureWatcherBase::canceled, watcher, [upstream]() mutable {
        // Never cancel a finished future: Qt 6.4 would follow a dangling pointer
        // to its (already destroyed) continuation and cancel whatever now lives
        // there. A failed downstream also reports "canceled"; nothing to do then.
        if (!upstream.isFinished())
            upstream.cancel();
    });
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
    watcher->setFuture(downstream);
}

} // namespace DataClient::detail
