// One retry after a refused CSRF token: read the token path, send again with the new cookie.
#include "csrfretry_p.h"

#include "csrf_p.h"
#include "httpexchange_p.h"
#include "replyfuture_p.h"

#include <DataClient/restendpoint.h>

#include <QtCore/QPromise>

#include <memory>

namespace DataClient::detail {

bool refusesCsrfToken(const Response &answer)
{
    if (answer.status != 403 && answer.status != 419 && answer.status != 422)
        return false;
    const QByteArray body = answer.body.toLower();
    return body.contains("csrf") || body.contains("authenticity token");
}

namespace {

using Promise = std::shared_ptr<QPromise<Response>>;

// A failure or a cancellation of \a step ends \a promise the same way.
void endWithFailures(QFuture<void> step, QObject *context, const Promise &promise)
{
    step.onFailed(context,
                  [promise] {
                      promise->setException(std::current_exception());
                      promise->finish();
                  })
        .onCanceled(context, [promise] {
            promise->future().cancel();
            promise->finish();
        });
}

// Ends \a promise with what \a future ends with.
void relay(QFuture<Response> future, QObject *context, const Promise &promise)
{
    endWithFailures(future.then(context,
                                [promise](const Response &answer) {
                                    promise->addResult(answer);
                                    promise->finish();
                                }),
                    context, promise);
}

} // namespace

QFuture<Response> fetchWithCsrfRetry(const RestEndpoint &endpoint, QNetworkAccessManager *network,
                                     const QUrl &target, const RequestInit &init, const Csrf &csrf,
                                     const QString &urlPrefix)
{
    auto *context = const_cast<RestEndpoint *>(&endpoint);
    auto promise = std::make_shared<QPromise<Response>>();
    promise->start();
    QFuture<Response> result = promise->future();
    QFuture<Response> first = endpoint.fetchResponse(network, target, init);
    forwardCancel(QFuture<void>(result), QFuture<void>(first));
    auto retry
        = [context, network, target, init, csrf, urlPrefix, promise](const Response &answer) {
              if (!refusesCsrfToken(answer)) {
                  promise->addResult(answer);
                  promise->finish();
                  return;
              }
              RequestInit read;
              read.credentials = init.credentials;
              read.timeout = init.timeout;
              read.context = init.context;
              const QUrl origin(urlPrefix);
              QFuture<Response> token
                  = HttpExchange::start(network, QUrl(urlPrefix + csrf.tokenPath), read, origin);
              token
                  .then(context,
                        [context, network, target, init, csrf, promise](const Response &) {
                            RequestInit again = init;
                            again.removeHeader(csrf.header);
                            addCsrfHeader(csrf, network, target, again);
                            relay(context->fetchResponse(network, target, again), context, promise);
                        })
                  .onFailed(context, [promise, answer] {
                      // No new token: the refusal stands.
                      promise->addResult(answer);
                      promise->finish();
                  });
          };
    endWithFailures(first.then(context, retry), context, promise);
    return result;
}

} // namespace DataClient::detail
