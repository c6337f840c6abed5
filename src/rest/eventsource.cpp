// Server-Sent Events over a QNetworkReply: the head decides (200 and text/event-stream, a 204
// stops), then each readyRead() is fed to the parser and its events delivered at once.
#include <DataClient/eventsource.h>

#include "sseparser_p.h"

#include <QtCore/QPointer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

namespace DataClient {

namespace {

bool isEventStream(const QByteArray &contentType)
{
    return contentType.trimmed().toLower().startsWith("text/event-stream");
}

} // namespace

struct EventSource::Private
{
    QPointer<QNetworkAccessManager> network;
    QPointer<QNetworkReply> reply;
    detail::SseParser parser;
    bool headChecked = false;
};

EventSource::EventSource(QObject *parent) : LiveSource(parent), d(std::make_unique<Private>()) { }

EventSource::EventSource(const QUrl &url, QNetworkAccessManager *network, QObject *parent)
    : EventSource(parent)
{
    setUrl(url);
    d->network = network;
}

EventSource::~EventSource()
{
    disconnectNow();
}

void EventSource::setNetworkAccessManager(QNetworkAccessManager *network)
{
    d->network = network;
}

QNetworkAccessManager *EventSource::networkAccessManager() const
{
    return d->network;
}

QString EventSource::lastEventId() const
{
    return d->parser.lastEventId();
}

bool EventSource::canResume() const
{
    return !d->parser.lastEventId().isEmpty();
}

qint64 EventSource::retryHintMs() const
{
    return d->parser.retryMs();
}

void EventSource::connectTo(const QNetworkRequest &base)
{
    disconnectNow();
    if (!d->network)
        d->network = new QNetworkAccessManager(this);
    QNetworkRequest request(base);
    request.setRawHeader("Accept", "text/event-stream");
    request.setRawHeader("Cache-Control", "no-cache");
    if (!d->parser.lastEventId().isEmpty())
        request.setRawHeader("Last-Event-ID", d->parser.lastEventId().toUtf8());
    // A stream has no end to wait for: no transfer timeout; the heartbeat finds a dead one.
    request.setTransferTimeout(0);
    // A new stream: the id and retry of the last one carry over (Last-Event-ID resumes there).
    d->parser.setMaxEventBytes(maxMessageBytes());
    d->parser.restart();
    d->headChecked = false;
    QNetworkReply *reply = d->network->get(request);
    d->reply = reply;
    connect(reply, &QNetworkReply::metaDataChanged, this, &EventSource::checkHead);
    connect(reply, &QNetworkReply::readyRead, this, &EventSource::readAvailable);
    connect(reply, &QNetworkReply::finished, this, &EventSource::finished);
}

void EventSource::disconnectNow()
{
    if (QNetworkReply *reply = d->reply.data()) {
        d->reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

bool EventSource::checkHead()
{
    QNetworkReply *reply = d->reply.data();
    if (!reply)
        return false;
    if (d->headChecked)
        return true;
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid())
        return false; // no head yet
    d->headChecked = true;
    const QByteArray type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    if (status.toInt() != 200 || !isEventStream(type)) {
        finished(); // what is wrong is told from the head
        return false;
    }
    markOpen();
    return d->reply == reply;
}

void EventSource::readAvailable()
{
    if (!checkHead())
        return;
    QNetworkReply *reply = d->reply.data();
    const QString before = d->parser.lastEventId();
    const QList<detail::SseEvent> events = d->parser.feed(reply->readAll());
    markAlive();
    const QPointer<EventSource> alive(this);
    const QPointer<QNetworkReply> current(reply);
    for (const detail::SseEvent &event : events) {
        deliver({event.data.toUtf8(), event.type, event.id});
        if (!alive || d->reply != current)
            return; // closed (or destroyed) by a slot: nothing more is delivered
    }
    if (d->parser.lastEventId() != before)
        Q_EMIT lastEventIdChanged();
    if (d->parser.overLimit()) {
        disconnectNow();
        markDropped(QStringLiteral("%1: an event over maxMessageBytes (%2 bytes); the stream was "
                                   "closed and is reopened (raise maxMessageBytes if such events "
                                   "are expected)")
                        .arg(url().toDisplayString())
                        .arg(maxMessageBytes()),
                    true);
    }
}

void EventSource::finished()
{
    QNetworkReply *reply = d->reply.data();
    if (!reply)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    const QString where = url().toDisplayString();
    QString error;
    bool reconnect = true;
    if (status == 204) {
        // The server says there is nothing to stream: stop, as the web's EventSource does.
        disconnectNow();
        markDropped(QString(), false);
        return;
    }
    if (status == 200 && !isEventStream(type)) {
        error = QStringLiteral("%1: the answer is \"%2\", not text/event-stream; is the URL the "
                               "event stream's?")
                    .arg(where, QString::fromLatin1(type.isEmpty() ? "no Content-Type" : type));
        reconnect = false;
    } else if (status != 0 && status != 200) {
        reconnect = status == 408 || status == 429 || status >= 500;
        error = QStringLiteral("%1: HTTP %2 %3%4")
                    .arg(where)
                    .arg(status)
                    .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString(),
                         reconnect ? QString()
                                   : QStringLiteral(" (not retried: a 4xx means the request "
                                                    "itself is refused)"));
    } else if (reply->error() != QNetworkReply::NoError
               && reply->error() != QNetworkReply::RemoteHostClosedError) {
        error = QStringLiteral("%1: %2").arg(where, reply->errorString());
    } else {
        error = QStringLiteral("%1: the server closed the stream").arg(where);
    }
    disconnectNow();
    markDropped(error, reconnect);
}

} // namespace DataClient
