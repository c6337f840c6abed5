// EventSource: Server-Sent Events (text/event-stream) read incrementally from a QNetworkReply.
#pragma once

#include <DataClient/livesource.h>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace DataClient {

/*!
    A Server-Sent Events connection, as the web's EventSource: a GET with
    `Accept: text/event-stream` read as it arrives; each event is a message (its type and id
    with it). A reconnect sends `Last-Event-ID` once an event had an id (canResume()), and a
    `retry:` field sets the wait before it (retryHintMs()).

    The stream's rules: a 204 answer stops it (Closed, no reconnect, no error); an answer that is
    not `text/event-stream`, or another status than 200, is an error that stops it too, except
    408, 429 and 5xx, which reconnect; the server closing the stream, or the network failing,
    reconnects. An event over maxMessageBytes() is an error that reconnects.
*/
class DATACLIENT_REST_EXPORT EventSource : public LiveSource
{
    Q_OBJECT
    Q_PROPERTY(QString lastEventId READ lastEventId NOTIFY lastEventIdChanged)

public:
    explicit EventSource(QObject *parent = nullptr);
    EventSource(const QUrl &url, QNetworkAccessManager *network, QObject *parent = nullptr);
    ~EventSource() override;

    //! The access manager the stream is read with (a default one of its own when none is set).
    void setNetworkAccessManager(QNetworkAccessManager *network);
    QNetworkAccessManager *networkAccessManager() const;

    QString lastEventId() const;
    bool canResume() const override;
    qint64 retryHintMs() const override;

Q_SIGNALS:
    void lastEventIdChanged();

protected:
    void connectTo(const QNetworkRequest &request) override;
    void disconnectNow() override;

private:
    //! Whether the head is there and opens the stream (false: not yet, or it ended it).
    bool checkHead();
    void readAvailable();
    void finished();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace DataClient
