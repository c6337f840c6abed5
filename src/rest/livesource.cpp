// The state every push connection shares: what it is (closed, connecting, open, reconnecting),
// its options, the credentials rule applied to the request that opens it, and the heartbeat
// that takes a silent connection as half-open.
#include <DataClient/livesource.h>

#include "logging_p.h"

#include <QtCore/QTimer>
#include <QtNetwork/QNetworkRequest>

namespace DataClient {

namespace {

//! The origin of \a url with ws: and wss: read as http: and https: (a socket on the API's host
//! and port belongs to the API).
QUrl httpOrigin(const QUrl &url)
{
    QUrl origin;
    const QString scheme = url.scheme().toLower();
    origin.setScheme(scheme == u"ws"        ? QStringLiteral("http")
                         : scheme == u"wss" ? QStringLiteral("https")
                                            : scheme);
    origin.setHost(url.host().toLower());
    origin.setPort(url.port(origin.scheme() == u"https"      ? 443
                                : origin.scheme() == u"http" ? 80
                                                             : -1));
    return origin;
}

} // namespace

struct LiveSource::Private
{
    QUrl url;
    State state = State::Closed;
    int attempt = 0;
    QString error;
    qint64 maxMessageBytes = DefaultMaxMessageBytes;
    int heartbeatTimeout = 0;
    Headers headers;
    Credentials credentials = Credentials::SameOrigin;
    QUrl apiOrigin;
    QTimer *heartbeat = nullptr;
};

LiveSource::LiveSource(QObject *parent) : QObject(parent), d(std::make_unique<Private>())
{
    qRegisterMetaType<DataClient::LiveMessage>();
    d->heartbeat = new QTimer(this);
    d->heartbeat->setSingleShot(true);
    connect(d->heartbeat, &QTimer::timeout, this, [this] {
        if (d->state != State::Open)
            return;
        const QString error = QStringLiteral("%1: nothing received for %2 ms (heartbeatTimeout): "
                                             "the connection is taken as half-open")
                                  .arg(d->url.toDisplayString())
                                  .arg(d->heartbeatTimeout);
        disconnectNow();
        markDropped(error, true);
    });
}

LiveSource::~LiveSource() = default;

QUrl LiveSource::url() const
{
    return d->url;
}

void LiveSource::setUrl(const QUrl &url)
{
    if (url == d->url)
        return;
    d->url = url;
    Q_EMIT urlChanged();
}

LiveSource::State LiveSource::state() const
{
    return d->state;
}

int LiveSource::attempt() const
{
    return d->attempt;
}

QString LiveSource::errorString() const
{
    return d->error;
}

qint64 LiveSource::maxMessageBytes() const
{
    return d->maxMessageBytes;
}

void LiveSource::setMaxMessageBytes(qint64 bytes)
{
    if (bytes == d->maxMessageBytes)
        return;
    d->maxMessageBytes = bytes;
    Q_EMIT optionsChanged();
}

int LiveSource::heartbeatTimeout() const
{
    return d->heartbeatTimeout;
}

void LiveSource::setHeartbeatTimeout(int ms)
{
    if (ms == d->heartbeatTimeout)
        return;
    d->heartbeatTimeout = qMax(0, ms);
    Q_EMIT optionsChanged();
}

void LiveSource::setHeaders(const Headers &headers)
{
    d->headers = headers;
}

Headers LiveSource::headers() const
{
    return d->headers;
}

void LiveSource::setCredentials(Credentials credentials)
{
    d->credentials = credentials;
}

Credentials LiveSource::credentials() const
{
    return d->credentials;
}

void LiveSource::setApiOrigin(const QUrl &origin)
{
    d->apiOrigin = origin;
}

QUrl LiveSource::apiOrigin() const
{
    return d->apiOrigin;
}

void LiveSource::open()
{
    if (d->state == State::Connecting || d->state == State::Open)
        return;
    if (d->url.isEmpty())
        return; // nothing to open yet (a QML source whose url is bound later)
    if (!d->url.isValid() || d->url.isRelative()) {
        d->state = State::Closed;
        d->error = QStringLiteral("cannot open \"%1\": expected an absolute URL (ws://, wss://, "
                                  "http:// or https://)")
                       .arg(d->url.toDisplayString());
        qCWarning(lcRest).noquote() << d->error;
        Q_EMIT stateChanged();
        return;
    }
    QNetworkRequest request(d->url);
    const bool withCredentials = d->credentials == Credentials::Include
        || (d->credentials == Credentials::SameOrigin
            && (d->apiOrigin.isEmpty() || httpOrigin(d->url) == httpOrigin(d->apiOrigin)));
    if (withCredentials) {
        for (const auto &[name, value] : d->headers)
            request.setRawHeader(name, value);
    } else {
        request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
        request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
        request.setAttribute(QNetworkRequest::AuthenticationReuseAttribute,
                             QNetworkRequest::Manual);
    }
    d->state = State::Connecting;
    Q_EMIT stateChanged();
    connectTo(request);
}

void LiveSource::close()
{
    d->heartbeat->stop();
    const bool changed = d->state != State::Closed || !d->error.isEmpty() || d->attempt != 0;
    if (d->state == State::Connecting || d->state == State::Open)
        disconnectNow();
    d->state = State::Closed;
    d->error.clear();
    d->attempt = 0;
    if (changed)
        Q_EMIT stateChanged();
}

void LiveSource::setReconnecting(int attempt)
{
    d->state = State::Reconnecting;
    d->attempt = attempt;
    Q_EMIT stateChanged();
}

bool LiveSource::send(const QByteArray &)
{
    return false;
}

bool LiveSource::canResume() const
{
    return false;
}

qint64 LiveSource::retryHintMs() const
{
    return -1;
}

void LiveSource::markOpen()
{
    d->state = State::Open;
    d->attempt = 0;
    d->error.clear();
    markAlive();
    Q_EMIT stateChanged();
    Q_EMIT opened();
}

void LiveSource::deliver(const LiveMessage &message)
{
    markAlive();
    Q_EMIT messageReceived(message);
}

void LiveSource::markAlive()
{
    if (d->heartbeatTimeout > 0 && d->state == State::Open)
        d->heartbeat->start(d->heartbeatTimeout);
}

void LiveSource::markDropped(const QString &error, bool reconnect)
{
    d->heartbeat->stop();
    if (d->state == State::Closed)
        return;
    qCInfo(lcRest).noquote() << error << (reconnect ? "(reconnecting)" : "(not reconnecting)");
    d->state = reconnect ? State::Reconnecting : State::Closed;
    d->error = error;
    if (reconnect)
        ++d->attempt;
    Q_EMIT stateChanged();
    Q_EMIT dropped(error, reconnect);
}

} // namespace DataClient
