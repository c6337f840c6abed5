#include "httpexchange_p.h"
#include "exchangeanswers_p.h"
#include "logging_p.h"
#include "requestcontext_p.h"

#include <DataClient/abortgroup.h>
#include <DataClient/networkerror.h>
#include <DataClient/private/sameorigin_p.h>

#include <QtCore/QFutureWatcher>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

namespace DataClient::detail {

namespace {

bool isRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// A request that may change something on the server (RFC 9110 §9.2.1: not a safe method).
bool isMutation(const QByteArray &method)
{
    return method != "GET" && method != "HEAD" && method != "OPTIONS" && method != "TRACE";
}

} // namespace

QFuture<Response> HttpExchange::start(QNetworkAccessManager *network, const QUrl &url,
                                      const RequestInit &init, const QUrl &apiOrigin)
{
    // A child of the network manager: destroying the manager ends the exchange (its future is
    // then canceled by ~QPromise).
    auto *exchange = new HttpExchange(network, init, apiOrigin);
    QFuture<Response> future = exchange->m_promise.future();
    auto *watcher = new QFutureWatcher<Response>(exchange);
    connect(watcher, &QFutureWatcherBase::canceled, exchange, &HttpExchange::abort);
    watcher->setFuture(future);
    exchange->m_firstUrl = url;
    RequestContextPrivate::begin(init.context);
    if (!init.context.isNull())
        init.context.abortGroup().add(exchange, [exchange] { exchange->abort(); });
    if (exchange->m_stop == Stop::Canceled) {
        // Its group was aborted before it started (an endpoint that sends later): not sent.
        qCDebug(lcRest).noquote() << request(init.method, url) << ": its abort group was aborted"
                                  << "before it was sent; not sent";
        exchange->m_promise.future().cancel();
        exchange->m_promise.finish();
        exchange->deleteLater();
        return future;
    }
    exchange->limitTime();
    if (exchange->m_stop == Stop::Deadline) {
        exchange->fail(NetworkError(NetworkError::Kind::Timeout, 0,
                                    QStringLiteral("%1 was not sent: the request's deadline had "
                                                   "passed when it was to be sent (status 0, "
                                                   "no HTTP answer)")
                                        .arg(request(init.method, url)))
                           .withRequest(init.method, url));
        return future;
    }
    exchange->send(url);
    return future;
}

void HttpExchange::limitTime()
{
    qint64 limit = m_init.timeout > 0 ? m_init.timeout : 0;
    const QDeadlineTimer deadline = m_init.context.deadline();
    if (!deadline.isForever()) {
        const qint64 left = deadline.remainingTime();
        if (left <= 0) {
            m_stop = Stop::Deadline;
            return;
        }
        if (limit == 0 || left < limit) {
            limit = left;
            m_contextDeadlineMs = left;
        }
    }
    if (limit > 0)
        m_deadline.start(std::chrono::milliseconds(limit));
}

HttpExchange::HttpExchange(QNetworkAccessManager *network, const RequestInit &init,
                           const QUrl &apiOrigin)
    : QObject(network), m_network(network), m_init(init), m_apiOrigin(apiOrigin)
{
    m_promise.start();
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] { stop(Stop::Deadline); });
}

QNetworkRequest HttpExchange::requestFor(const QUrl &url) const
{
    QNetworkRequest request(url);
    // A redirect followed to another origin (credentials 'include') leaves the request's
    // authorization behind, as browsers do: a token is for the origin it was given for.
    const bool otherOrigin = !m_firstUrl.isEmpty() && !sameOrigin(url, m_firstUrl);
    for (const auto &[name, value] : m_init.headers) {
        if (otherOrigin
            && (name.compare("authorization", Qt::CaseInsensitive) == 0
                || name.compare("proxy-authorization", Qt::CaseInsensitive) == 0))
            continue;
        request.setRawHeader(name, value);
    }
    // Qt never follows a redirect on its own: follow() decides, hop by hop.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    const bool withCredentials = m_init.credentials == Credentials::Include
        || (m_init.credentials == Credentials::SameOrigin && sameOrigin(url, m_apiOrigin));
    if (!withCredentials) {
        request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
        request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
        request.setAttribute(QNetworkRequest::AuthenticationReuseAttribute,
                             QNetworkRequest::Manual);
    }
    return request;
}

void HttpExchange::send(const QUrl &url)
{
    m_hops.append(url.toString(QUrl::FullyEncoded));
    const QNetworkRequest request = requestFor(url);
    const QByteArray &method = m_init.method;
    QNetworkReply *reply = nullptr;
    if (method == "GET")
        reply = m_network->get(request);
    else if (method == "HEAD")
        reply = m_network->head(request);
    else if (method == "DELETE" && !m_init.body)
        reply = m_network->deleteResource(request);
    else
        reply = m_network->sendCustomRequest(request, method, m_init.body.value_or(QByteArray()));
    m_reply = reply;
    m_body = ReplyBody(m_init.maxResponseBytes);
    connect(reply, &QNetworkReply::readyRead, this, &HttpExchange::onReadyRead);
    connect(reply, &QNetworkReply::finished, this, &HttpExchange::onFinished);
    if (m_init.maxResponseBytes <= 0)
        return;
    // The size limit: refused as soon as the head announces too much, or the body grows past
    // it (onReadyRead). Not from downloadProgress: Qt throttles it to one every 100 ms, and
    // counts the compressed bytes.
    ReplyBody::limitBuffer(reply);
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] {
        const qint64 announced = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong();
        if (announced > m_init.maxResponseBytes)
            stop(Stop::TooLarge);
    });
}

void HttpExchange::onReadyRead()
{
    if (!m_reply || sender() != m_reply)
        return;
    m_body.readFrom(m_reply);
    if (m_body.isOverLimit())
        stop(Stop::TooLarge);
}

void HttpExchange::abort()
{
    if (m_hops.isEmpty() && m_stop == Stop::None) {
        m_stop = Stop::Canceled; // not sent yet: start() does not send it
        return;
    }
    stop(Stop::Canceled);
}

void HttpExchange::stop(Stop why)
{
    if (m_stop != Stop::None || !m_reply || m_reply->isFinished())
        return;
    m_stop = why;
    qCDebug(lcRest) << "aborting" << m_reply->url() << "reason" << int(why);
    m_reply->abort(); // emits finished() at once: onFinished() settles the future
}

void HttpExchange::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply || sender() != reply)
        return;
    reply->deleteLater();
    m_reply = nullptr;
    // The end of the body may come with finished() alone; it counts against the limit too.
    if (m_stop == Stop::None) {
        m_body.readFrom(reply);
        if (m_body.isOverLimit())
            m_stop = Stop::TooLarge;
    }
    const qint64 bodyRead = m_body.size();
    const Response answer = readReply(reply, m_init.method, m_body.take());
    // At every hop: the context ends with the answer the exchange ended with.
    RequestContextPrivate::record(m_init.context, answer.status, bodyRead);
    qCDebug(lcRest) << answer.method << answer.url << "->" << answer.status << answer.networkError;
    switch (m_stop) {
    case Stop::None:
        break;
    case Stop::Canceled:
        m_promise.future().cancel();
        m_promise.finish();
        deleteLater();
        return;
    case Stop::Deadline:
        return fail(noAnswer(NetworkError::Kind::Timeout, answer,
                             m_contextDeadlineMs > 0
                                 ? QStringLiteral("no whole answer before the request's deadline "
                                                  "(%1 ms after it was sent; the endpoint's "
                                                  "timeout is %2 ms)")
                                       .arg(m_contextDeadlineMs)
                                       .arg(m_init.timeout)
                                 : QStringLiteral("no whole answer within the timeout of %1 ms")
                                       .arg(m_init.timeout)));
    case Stop::TooLarge:
        return fail(tooLarge(answer, m_init.maxResponseBytes, bodyRead));
    }
    const ReplyState state = replyState(answer.networkError, answer.status);
    if (state == ReplyState::Unreadable) {
        return fail(NetworkError(NetworkError::Kind::InvalidResponse, 400,
                                 QStringLiteral("%1: the answer (status %2) could not be read: "
                                                "%3; nothing is stored (is the body's "
                                                "Content-Encoding what the server claims?)")
                                     .arg(request(answer.method, answer.url))
                                     .arg(answer.status)
                                     .arg(answer.errorString))
                        .withStatus(400, answer.statusText)
                        .withRequest(answer.method, answer.url)
                        .withNetworkError(answer.networkError, answer.errorString));
    }
    if (answer.status == 0 || state == ReplyState::Broken) {
        QString what = answer.errorString;
        if (answer.status > 0)
            what += QStringLiteral(" after %1 bytes of the body").arg(answer.body.size());
        return fail(noAnswer(NetworkError::Kind::Network, answer, what));
    }
    const std::optional<qint64> length = announcedLength(answer);
    if (length && answer.body.size() < *length) {
        return fail(noAnswer(NetworkError::Kind::Network, answer,
                             QStringLiteral("the body ended after %1 of the %2 bytes its "
                                            "Content-Length announced")
                                 .arg(answer.body.size())
                                 .arg(*length)));
    }
    if (isRedirect(answer.status) && answer.hasHeader("location")) {
        const NetworkError refused = follow(answer);
        if (!refused.isNull())
            fail(refused);
        return;
    }
    succeed(answer);
}

NetworkError HttpExchange::follow(const Response &answer)
{
    const QUrl target = answer.url.resolved(
        QUrl::fromEncoded(answer.header("location").trimmed(), QUrl::StrictMode));
    const QString scheme = target.scheme().toLower();
    QString why;
    const bool refusedMutation
        = (answer.status == 301 || answer.status == 302) && isMutation(answer.method);
    if (refusedMutation) {
        // Following it as a GET (as browsers do) reads instead of writing: the caller would
        // take the list or page found there for the result of a change the server never made.
        // Repeating the method is what 307/308 mean, not 301/302.
        why = QStringLiteral("to %1. The server did not apply the %2: a %3 to a request that "
                             "changes data is not followed (it would become a GET that changes "
                             "nothing). Send the request to the URL the server names: fix the "
                             "endpoint's path (often a missing or extra trailing slash), or have "
                             "the server answer 307 or 308, which repeat the request")
                  .arg(target.toString(QUrl::FullyEncoded), QString::fromLatin1(answer.method))
                  .arg(answer.status);
    } else if (!target.isValid() || (scheme != u"http" && scheme != u"https")) {
        why = QStringLiteral("to '%1', which is not an http or https URL")
                  .arg(target.toString(QUrl::FullyEncoded));
    } else if (answer.url.scheme().compare(u"https", Qt::CaseInsensitive) == 0
               && scheme == u"http") {
        why = QStringLiteral("from https to http (%1); an encrypted request is never continued "
                             "unencrypted")
                  .arg(target.toString(QUrl::FullyEncoded));
    } else if (!sameOrigin(target, m_firstUrl) && m_init.credentials != Credentials::Include) {
        why = QStringLiteral("to another origin (%1); redirects are followed within the "
                             "request's origin only, so that its headers and cookies never "
                             "reach another server (set the endpoint's credentials to "
                             "'include' to follow it with them)")
                  .arg(target.toString(QUrl::FullyEncoded));
    } else if (m_hops.size() > MaxRedirects) {
        why = QStringLiteral("more than %1 times (a loop?): %2")
                  .arg(MaxRedirects)
                  .arg(m_hops.mid(m_hops.size() - 3).join(QStringLiteral(" -> ")));
    }
    if (!why.isEmpty()) {
        return NetworkError(
                   NetworkError::Kind::Redirect, answer.status,
                   QStringLiteral("%1 was redirected (%2 %3) %4%5")
                       .arg(request(answer.method, answer.url))
                       .arg(answer.status)
                       .arg(answer.statusText, why,
                            refusedMutation ? QString() : QStringLiteral("; not followed")))
            .withStatus(answer.status, answer.statusText)
            .withRequest(answer.method, answer.url);
    }
    // 303 says the result is at the Location: read it with a GET (HEAD stays HEAD). 307 and
    // 308 repeat the request as it was; 301/302 reach here for reads only.
    if (answer.status == 303 && m_init.method != "HEAD") {
        m_init.method = "GET";
        m_init.body.reset();
        m_init.removeHeader("content-type");
    }
    qCDebug(lcRest) << "following" << answer.status << "to" << target;
    send(target);
    return NetworkError();
}

void HttpExchange::succeed(const Response &answer)
{
    m_deadline.stop();
    m_promise.addResult(answer);
    m_promise.finish();
    deleteLater();
}

void HttpExchange::fail(const NetworkError &error)
{
    m_deadline.stop();
    m_promise.setException(error);
    m_promise.finish();
    deleteLater();
}

} // namespace DataClient::detail
