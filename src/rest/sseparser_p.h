// The text/event-stream format (the HTML standard's "Server-sent events", 9.2.6), read
// incrementally: bytes arrive in any chunks (a line, a CR LF pair, a UTF-8 sequence may be split
// between two), complete events come out. No I/O: EventSource feeds it from a QNetworkReply.
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QList>
#include <QtCore/QString>

namespace DataClient::detail {

//! One dispatched event: its type ("message" unless an `event:` field named one), its data (the
//! `data:` lines joined by LF) and the last event id at its dispatch (ids persist across events).
struct SseEvent
{
    QString type;
    QString data;
    QString id;
    bool operator==(const SseEvent &other) const = default;
};

class SseParser
{
public:
    //! \a maxEventBytes: the largest event (its pending line and data) kept; 0 = no limit.
    explicit SseParser(qsizetype maxEventBytes = 0) : m_maxEventBytes(maxEventBytes) { }

    /*!
        Reads \a bytes and returns the events they complete, in order. Once an event grows past
        the limit the parser stops (overLimit()) and returns nothing more: the stream is bad.
    */
    QList<SseEvent> feed(QByteArrayView bytes);

    //! The last valid `retry:` value in ms, or -1 when none came.
    qint64 retryMs() const { return m_retryMs; }
    //! The last event id buffer (sent back as Last-Event-ID on reconnect).
    QString lastEventId() const { return m_lastEventId; }
    //! Lines read, comments included (a heartbeat is a comment line).
    qint64 linesRead() const { return m_lines; }
    bool overLimit() const { return m_overLimit; }
    void setMaxEventBytes(qsizetype bytes) { m_maxEventBytes = bytes; }
    //! Forgets a partial line and event (a new connection); the last event id and retry stay.
    void restart();

private:
    void line(QByteArrayView line, QList<SseEvent> *out);
    void field(QByteArrayView name, QByteArrayView value);

    qsizetype m_maxEventBytes = 0;
    QByteArray m_line; //!< a line not ended yet
    bool m_afterCr = false; //!< the last byte was a CR: an LF right after it ends nothing more
    bool m_bomChecked = false;
    QByteArray m_bomPending; //!< the first bytes, until they tell whether a BOM starts them
    QString m_type;
    QString m_data;
    bool m_hasData = false;
    qsizetype m_eventBytes = 0;
    QString m_lastEventId;
    qint64 m_retryMs = -1;
    qint64 m_lines = 0;
    bool m_overLimit = false;
};

} // namespace DataClient::detail
