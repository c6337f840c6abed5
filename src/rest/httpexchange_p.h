// One HTTP exchange: a request, the redirects it may follow, and its answer, checked whole
// before anyone reads it. What RestEndpoint::fetchResponse() runs (docs/errors.md,
// docs/authentication.md).
//
// What it guarantees:
// - An answer is a Response only when it arrived whole: a transport error after the status line
//   (connection closed or reset mid-body), a body shorter than its Content-Length, a body Qt
//   could not decode, the deadline or the size limit fail the future with a NetworkError;
//   nothing partial is handed on.
// - The size limit counts the decoded body as it is read, whatever its framing or encoding:
//   the reply is aborted as soon as more arrived, and no more than limit + 1 bytes are kept.
// - `timeout` is a deadline for the whole exchange (head, body and every redirect), not an
//   inactivity timeout: a server trickling one byte a second cannot hold a request for ever.
//   The request context's deadline, when earlier, ends it the same way; an exchange that would
//   start after it is not sent.
// - Redirects are followed by this class, not by Qt: within the first request's origin only,
//   unless credentials are `include`; never to another scheme than http(s), never from https
//   to http, at most MaxRedirects. Cookies and the credentials mode are decided per hop.
// - A 301/302 to a mutation (any method but GET, HEAD, OPTIONS, TRACE) is an error: the server
//   did not apply it, and following it as a GET would hand on a read as the change's result.
//   303 continues as a GET; 307/308 repeat the method and the body.
// - It joins the abort group of the request's context (RequestInit::context), whenever it
//   starts, so its owner can abort it synchronously; a group aborted before it starts means
//   it is never sent. It writes its status and body bytes into the context when it ends.
#pragma once

#include "replybody_p.h"

#include <DataClient/private/sameorigin_p.h>
#include <DataClient/requestinit.h>
#include <DataClient/response.h>

#include <QtCore/QFuture>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QPromise>
#include <QtCore/QStringList>
#include <QtCore/QTimer>
#include <QtCore/QUrl>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
QT_END_NAMESPACE

namespace DataClient {
class NetworkError;
}

namespace DataClient::detail {

class HttpExchange : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxRedirects = 20;

    /*!
        Sends \a init to \a url through \a network and resolves with the whole answer, for every
        HTTP status; fails with a NetworkError when there is no whole answer. \a apiOrigin is the
        endpoint's urlPrefix: same-origin credentials go to that origin only. Cancelling the
        future aborts the exchange.
    */
    static QFuture<Response> start(QNetworkAccessManager *network, const QUrl &url,
                                   const RequestInit &init, const QUrl &apiOrigin);

    //! Aborts at once: the reply is closed and the future canceled before this returns.
    void abort();

private:
    enum class Stop { None, Canceled, Deadline, TooLarge };

    HttpExchange(QNetworkAccessManager *network, const RequestInit &init, const QUrl &apiOrigin);
    //! Starts m_deadline at the earlier of the endpoint's timeout and the context's deadline;
    //! sets m_stop to Deadline when the context's deadline has already passed.
    void limitTime();
    void send(const QUrl &url);
    QNetworkRequest requestFor(const QUrl &url) const;
    void onReadyRead();
    void onFinished();
    //! Checks a redirect; returns the error that refuses it, or a null error and follows it.
    NetworkError follow(const Response &answer);
    void stop(Stop why);
    void succeed(const Response &answer);
    void fail(const NetworkError &error);

    QPointer<QNetworkAccessManager> m_network;
    RequestInit m_init;
    QUrl m_apiOrigin;
    QUrl m_firstUrl;
    QStringList m_hops; //!< every URL asked, for messages
    QPointer<QNetworkReply> m_reply;
    ReplyBody m_body; //!< what m_reply's body has given so far
    QTimer m_deadline;
    //! When m_deadline is the context's deadline (not the timeout): its ms from sending; else 0.
    qint64 m_contextDeadlineMs = 0;
    Stop m_stop = Stop::None;
    QPromise<Response> m_promise;
};

} // namespace DataClient::detail
