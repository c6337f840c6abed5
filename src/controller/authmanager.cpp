#include "authmanager_p.h"

#include "controller_p.h"
#include "logging_p.h"
#include "managers_p.h"
#include "scheduler_p.h"

#include <DataClient/restendpoint.h>

namespace DataClient::detail {

namespace {

bool isRefused(const NetworkError &error)
{
    // 403 says the user may not do this, which no new token changes: not a refresh trigger.
    return error.kind() == NetworkError::Kind::Http && error.status() == 401;
}

NetworkError unauthorized(const InFlightRequest &request, int status, const QString &why)
{
    const RestEndpoint &endpoint = *request.endpoint;
    return NetworkError(NetworkError::Kind::Unauthorized, status,
                        QStringLiteral("%1: unauthorized: %2").arg(request.requestKey, why))
        .withRequest(endpoint.method(), endpoint.url(request.params));
}

} // namespace

AuthManager::AuthManager(ControllerPrivate &core)
    : Lifecycle(core,
                Holds | Decorate | AttemptFailed | RequestEnded | Reset | LoggedOut | Shutdown)
{ }

AuthManager::~AuthManager()
{
    delete m_watcher;
}

bool AuthManager::appliesTo(const InFlightRequest &request) const
{
    return m_source && m_source->appliesTo(request.endpoint->url(request.params));
}

bool AuthManager::expiresSoon() const
{
    const qint64 lead = m_source->leadTimeMs();
    const QDateTime expiresAt = m_source->expiresAt();
    return lead > 0 && !m_refreshedSoon && expiresAt.isValid()
        && expiresAt.toMSecsSinceEpoch() - core.now() <= lead;
}

bool AuthManager::holds(InFlightRequest &request)
{
    if (!appliesTo(request))
        return false;
    if (m_asking == Asking::Nothing) {
        if (m_known || ask(Asking::Token)) {
            if (!expiresSoon())
                return false;
            qCDebug(lcController) << "the token expires within the lead time: refreshing it";
            if (ask(Asking::Refresh))
                return false;
        }
    }
    wait(request, false);
    return true;
}

void AuthManager::decorate(InFlightRequest &request, Headers *headers)
{
    m_sentWith.remove(request.id);
    if (!m_known || m_token.isEmpty() || !appliesTo(request))
        return;
    headers->append({m_source->headerName(), m_source->headerValue(m_token)});
    m_sentWith.insert(request.id, m_generation);
}

void AuthManager::attemptFailed(InFlightRequest &request, const NetworkError &error,
                                RetryPlan *plan)
{
    if (!isRefused(error) || !appliesTo(request))
        return;
    plan->retrying = true; // waits here: for the refresh, or to fail as Unauthorized
    const auto sent = m_sentWith.constFind(request.id);
    if (sent == m_sentWith.cend()) {
        const QString why = QStringLiteral("refused (401) without a token (the source gave none)");
        failLater(request, unauthorized(request, 401, why));
        return;
    }
    if (m_replayed.contains(request.id)) {
        // The new token was refused too: another refresh would not help (nor loop).
        const QString why = QStringLiteral("the token was refreshed and refused again (401)");
        failLater(request, unauthorized(request, 401, why));
        return;
    }
    wait(request, true);
    if (m_asking != Asking::Nothing)
        return; // the refresh under way answers it too
    if (*sent != m_generation) {
        // It carried an older token, replaced meanwhile: replayed with the current one.
        QMetaObject::invokeMethod(
            core.q, [this] { sendAll(); }, Qt::QueuedConnection);
        return;
    }
    qCInfo(lcController).noquote()
        << request.requestKey << "was refused (401): refreshing the token";
    if (ask(Asking::Refresh)) // answered at once: the request waits for its retry turn first
        QMetaObject::invokeMethod(
            core.q, [this] { sendAll(); }, Qt::QueuedConnection);
}

bool AuthManager::ask(Asking what)
{
    const quint64 epoch = ++m_epoch;
    QFuture<QString> future;
    try {
        future = what == Asking::Token ? m_source->token() : m_source->refresh();
    } catch (...) {
        future = QtFuture::makeExceptionalFuture<QString>(std::current_exception());
    }
    // A token at hand is taken at once; anything else (a failure too) is settled from the event
    // loop, once the request that asked waits with the others.
    if (future.isFinished() && !future.isCanceled() && future.resultCount() > 0
        && (what == Asking::Token || !future.result().isEmpty())) {
        take(future.result(), what);
        return true;
    }
    m_asking = what;
    delete m_watcher;
    m_watcher = new QFutureWatcher<QString>();
    QObject::connect(m_watcher, &QFutureWatcherBase::finished, core.q,
                     [this, epoch] { sourceAnswered(epoch); });
    m_watcher->setFuture(future);
    return false;
}

void AuthManager::take(const QString &token, Asking from)
{
    m_token = token;
    m_known = true;
    ++m_generation;
    // A refreshed token that already expires within the lead time is used as it is: refreshing
    // it ahead would only give another such token, again and again.
    m_refreshedSoon = false;
    m_refreshedSoon = from == Asking::Refresh && expiresSoon();
}

void AuthManager::sourceAnswered(quint64 epoch)
{
    if (epoch != m_epoch || !m_watcher)
        return; // forgotten (a logout, another source)
    const Asking what = std::exchange(m_asking, Asking::Nothing);
    QFuture<QString> future = m_watcher->future();
    m_watcher->deleteLater(); // we are inside its finished() signal
    m_watcher = nullptr;
    const QString call
        = what == Asking::Token ? QStringLiteral("token()") : QStringLiteral("refresh()");
    QString why;
    try {
        future.waitForFinished(); // rethrows the source's exception, if any
        if (future.isCanceled() || future.resultCount() == 0)
            why = QStringLiteral("the token source's %1 was canceled").arg(call);
        else if (what == Asking::Refresh && future.result().isEmpty())
            why = QStringLiteral("the token source's refresh() gave an empty token");
        else
            take(future.result(), what);
    } catch (...) {
        why = QStringLiteral("the token source's %1 failed: %2")
                  .arg(call, NetworkError::fromException(std::current_exception()).message());
    }
    if (why.isEmpty())
        sendAll();
    else
        failAll(why);
}

void AuthManager::wait(InFlightRequest &request, bool replay)
{
    Waiting &waiting = m_waiting[request.id];
    waiting.replay = waiting.replay || replay;
    if (waiting.deadline || !core.scheduler)
        return;
    if (const int timeout = request.endpoint->timeout(); timeout > 0) {
        const quint64 id = request.id;
        waiting.deadline = core.scheduler->scheduleIn(timeout, core.q, [this, id] { expire(id); });
    }
}

void AuthManager::expire(quint64 id)
{
    const auto found = m_waiting.find(id);
    if (found == m_waiting.end())
        return;
    m_waiting.erase(found);
    InFlightRequest *request = core.inFlight.find(id);
    if (!request || !request->isWaiting())
        return;
    const NetworkError error
        = NetworkError(NetworkError::Kind::Timeout, 0,
                       QStringLiteral("%1: waited %2 ms (the endpoint's timeout) for the token "
                                      "source's token, which never came")
                           .arg(request->requestKey)
                           .arg(request->endpoint->timeout()))
              .withRequest(request->endpoint->method(), request->endpoint->url(request->params));
    qCWarning(lcController).noquote() << error.message();
    core.answerWith(*request, QtFuture::makeExceptionalFuture<QJsonValue>(error));
}

void AuthManager::sendAll()
{
    if (m_asking != Asking::Nothing)
        return; // a refresh started meanwhile: they go when it answers
    const QPointer<Controller> alive(core.q);
    const QList<quint64> ids = m_waiting.keys();
    for (const quint64 id : ids) {
        if (!alive)
            return;
        const auto found = m_waiting.find(id);
        if (found == m_waiting.end())
            continue;
        const Waiting waiting = *found;
        m_waiting.erase(found);
        if (waiting.deadline && core.scheduler)
            core.scheduler->cancel(waiting.deadline);
        InFlightRequest *request = core.inFlight.find(id);
        if (!request || !request->isWaiting())
            continue;
        if (waiting.replay)
            m_replayed.insert(id);
        core.sendWaiting(*request);
    }
}

void AuthManager::failAll(const QString &why)
{
    qCWarning(lcController).noquote()
        << why << "; the" << m_waiting.size() << "request(s) waiting fail as unauthorized";
    const QMap<quint64, Waiting> waiting = std::exchange(m_waiting, {});
    NetworkError first = NetworkError(NetworkError::Kind::Unauthorized, 0,
                                      QStringLiteral("unauthorized: %1").arg(why));
    bool named = false;
    for (auto it = waiting.cbegin(); it != waiting.cend(); ++it) {
        if (it->deadline && core.scheduler)
            core.scheduler->cancel(it->deadline);
        InFlightRequest *request = core.inFlight.find(it.key());
        if (!request || !request->isWaiting())
            continue;
        const NetworkError error = unauthorized(*request, it->replay ? 401 : 0, why);
        if (!named) {
            first = error;
            named = true;
        }
        core.answerWith(*request, QtFuture::makeExceptionalFuture<QJsonValue>(error));
    }
    Q_EMIT core.q->authenticationFailed(first);
}

void AuthManager::failLater(InFlightRequest &request, const NetworkError &error)
{
    // The core marks the request as waiting for its next attempt after this step returns.
    const quint64 id = request.id;
    QMetaObject::invokeMethod(
        core.q,
        [this, id, error] {
            InFlightRequest *waiting = core.inFlight.find(id);
            if (!waiting || !waiting->isWaiting())
                return;
            qCWarning(lcController).noquote() << error.message();
            core.answerWith(*waiting, QtFuture::makeExceptionalFuture<QJsonValue>(error));
            Q_EMIT core.q->authenticationFailed(error);
        },
        Qt::QueuedConnection);
}

void AuthManager::requestEnded(const InFlightRequest &request)
{
    const Waiting waiting = m_waiting.take(request.id);
    if (waiting.deadline && core.scheduler)
        core.scheduler->cancel(waiting.deadline);
    m_sentWith.remove(request.id);
    m_replayed.remove(request.id);
}

void AuthManager::stopWaiting()
{
    for (const Waiting &waiting : std::as_const(m_waiting)) {
        if (waiting.deadline && core.scheduler)
            core.scheduler->cancel(waiting.deadline);
    }
    m_waiting.clear();
}

void AuthManager::reset()
{
    stopWaiting(); // the requests that waited ended with the reset
}

void AuthManager::forget()
{
    ++m_epoch; // the answer of what was asked is dropped
    m_asking = Asking::Nothing;
    delete std::exchange(m_watcher, nullptr);
    m_token.clear();
    m_known = false;
    m_refreshedSoon = false;
    m_sentWith.clear();
    m_replayed.clear();
}

void AuthManager::loggedOut()
{
    stopWaiting();
    forget();
    if (m_source)
        m_source->forget();
}

void AuthManager::shutdown()
{
    stopWaiting();
    forget();
}

void AuthManager::setSource(TokenSource *source)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        QObject::disconnect(connection);
    m_connections.clear();
    forget();
    m_source = source;
    if (source) {
        Controller *q = core.q;
        m_connections = {
            QObject::connect(source, &TokenSource::tokenChanged, q,
                             [this] {
                                 // Asked again by the next request; one asked now answers.
                                 if (m_asking == Asking::Nothing)
                                     m_known = false;
                             }),
            QObject::connect(source, &TokenSource::loggedOut, q, &Controller::logout),
            QObject::connect(source, &QObject::destroyed, q, [q] { q->setTokenSource(nullptr); }),
        };
    }
    // Requests that waited for the previous source go as they are.
    sendAll();
}

} // namespace DataClient::detail

namespace DataClient {

void Controller::setTokenSource(TokenSource *source)
{
    DATACLIENT_ASSERT_THREAD(this);
    // nullptr again is not a no-op: a source being destroyed is already null here, and the
    // requests waiting for it must go.
    if (source && source == d->managers->auth->source())
        return;
    d->managers->auth->setSource(source);
    Q_EMIT tokenSourceChanged();
}

TokenSource *Controller::tokenSource() const
{
    return d->managers->auth->source();
}

} // namespace DataClient
