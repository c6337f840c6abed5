// The plumbing fetch() and fetchCompact() share: turning the network's QFuture<Response> into the
// future of what the endpoint makes of the answer.
#pragma once

#include "conditionalrequest_p.h"
#include "replyfuture_p.h"
#include "restendpoint_p.h"

#include <DataClient/networkerror.h>
#include <DataClient/response.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QFuture>
#include <QtCore/QPromise>

#include <memory>

namespace DataClient::detail {

/*!
    A future of T fed by \a response: a non-2xx answer fails it with NetworkError::fromResponse,
    a 2xx answer goes to \a onAnswer(answer, promise) on \a endpoint's thread, which adds the
    result and returns false, or returns true when it hands the promise on (to a worker that
    finishes it). An exception thrown by \a onAnswer or a failed request fails the future, a
    canceled request cancels it, and canceling the future cancels the request. \a conditional
    (the request's, when the endpoint uses validators) records every answer first. A 4xx error's
    message ends with \a refusalNote (what send() knows the server may be refusing).
*/
template<typename T, typename OnAnswer>
QFuture<T> answerFuture(QFuture<Response> response, const RestEndpoint *endpoint,
                        const ConditionalRequest &conditional, const QString &refusalNote,
                        OnAnswer onAnswer)
{
    auto promise = std::make_shared<QPromise<T>>();
    promise->start();
    QFuture<T> result = promise->future();
    auto *context = const_cast<RestEndpoint *>(endpoint);
    response
        .then(context,
              [promise, onAnswer = std::move(onAnswer), conditional,
               refusalNote](const Response &answer) {
                  ConditionalRequestPrivate::record(conditional, answer);
                  try {
                      if (!answer.isOk()) {
                          const NetworkError error = NetworkError::fromResponse(answer);
                          if (refusalNote.isEmpty() || answer.status < 400 || answer.status >= 500)
                              throw error;
                          throw error.withMessage(error.message() + refusalNote);
                      }
                      if (onAnswer(answer, promise))
                          return; // handed on: finished by whoever has it now
                  } catch (...) {
                      promise->setException(std::current_exception());
                  }
                  promise->finish();
              })
        .onFailed(context,
                  [promise] {
                      promise->setException(std::current_exception());
                      promise->finish();
                  })
        .onCanceled(context, [promise] {
            promise->future().cancel();
            promise->finish();
        });
    forwardCancel(QFuture<void>(result), QFuture<void>(response));
    return result;
}

} // namespace DataClient::detail
