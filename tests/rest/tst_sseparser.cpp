// The text/event-stream parser: fields, multi-line data, comments, line ends, ids, retry, the
// size limit, and every input split at every byte (and fed one byte at a time) reads the same.
#include "sseparser_p.h"

#include <QTest>

using namespace DataClient::detail;
using namespace Qt::StringLiterals;

namespace {

//! "type|data|id" per event, data's LFs as "\n".
QStringList describe(const QList<SseEvent> &events)
{
    QStringList out;
    for (const SseEvent &event : events)
        out.append(event.type + u'|' + event.data + u'|' + event.id);
    return out;
}

} // namespace

class tst_SseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QStringList>("events");
        QTest::addColumn<qint64>("retry");

        QTest::newRow("one data line")
            << "data: hello\n\n"_ba << QStringList {u"message|hello|"_s} << qint64(-1);
        QTest::newRow("no space after the colon")
            << "data:hello\n\n"_ba << QStringList {u"message|hello|"_s} << qint64(-1);
        QTest::newRow("only one space is removed")
            << "data:  two\n\n"_ba << QStringList {u"message| two|"_s} << qint64(-1);
        QTest::newRow("multi-line data joined by LF")
            << "data: a\ndata: b\ndata:\n\n"_ba << QStringList {u"message|a\nb\n|"_s} << qint64(-1);
        QTest::newRow("event type, then back to message")
            << "event: updated\ndata: 1\n\ndata: 2\n\n"_ba
            << QStringList {u"updated|1|"_s, u"message|2|"_s} << qint64(-1);
        QTest::newRow("id persists across events")
            << "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n"_ba
            << QStringList {u"message|a|7"_s, u"message|b|7"_s, u"message|c|"_s} << qint64(-1);
        QTest::newRow("id with NUL ignored")
            << "id: 1\n\nid: a\0b\ndata: x\n\n"_ba << QStringList {u"message|x|1"_s} << qint64(-1);
        QTest::newRow("comments and heartbeats")
            << ": hi\n:\ndata: x\n: between\n\n"_ba << QStringList {u"message|x|"_s} << qint64(-1);
        QTest::newRow("CRLF") << "event: e\r\ndata: x\r\n\r\n"_ba << QStringList {u"e|x|"_s}
                              << qint64(-1);
        QTest::newRow("CR alone") << "data: x\rdata: y\r\r"_ba << QStringList {u"message|x\ny|"_s}
                                  << qint64(-1);
        QTest::newRow("mixed line ends") << "data: a\r\ndata: b\rdata: c\n\r\n"_ba
                                         << QStringList {u"message|a\nb\nc|"_s} << qint64(-1);
        QTest::newRow("event without data is not dispatched")
            << "event: ping\n\ndata: x\n\n"_ba << QStringList {u"message|x|"_s} << qint64(-1);
        QTest::newRow("field without colon")
            << "data\n\n"_ba << QStringList {u"message||"_s} << qint64(-1);
        QTest::newRow("unknown fields ignored")
            << "foo: bar\ndata: x\n\n"_ba << QStringList {u"message|x|"_s} << qint64(-1);
        QTest::newRow("retry") << "retry: 2500\n\n"_ba << QStringList {} << qint64(2500);
        QTest::newRow("retry not digits ignored")
            << "retry: 1000\nretry: 12a\nretry: -5\n\n"_ba << QStringList {} << qint64(1000);
        QTest::newRow("incomplete event at the end is not dispatched")
            << "data: a\n\ndata: b\n"_ba << QStringList {u"message|a|"_s} << qint64(-1);
        QTest::newRow("byte order mark skipped") << "\xEF\xBB\xBF"
                                                    "data: x\n\n"_ba
                                                 << QStringList {u"message|x|"_s} << qint64(-1);
        QTest::newRow("UTF-8 data")
            << "data: Gr\xC3\xBC\xC3\x9F\xE2\x82\xAC\n\n"_ba
            << QStringList {u"message|Gr\u00fc\u00df\u20ac|"_s} << qint64(-1);
        QTest::newRow("JSON payload")
            << "event: updated\nid: 42\ndata: {\"type\":\"updated\",\n"
               "data: \"data\":{\"id\":1}}\n\n"_ba
            << QStringList {u"updated|{\"type\":\"updated\",\n\"data\":{\"id\":1}}|42"_s}
            << qint64(-1);
    }

    void parses()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QStringList, events);
        QFETCH(qint64, retry);

        SseParser whole;
        QCOMPARE(describe(whole.feed(stream)), events);
        QCOMPARE(whole.retryMs(), retry);

        // Split in two at every byte: the same events, in the same order.
        for (qsizetype at = 0; at <= stream.size(); ++at) {
            SseParser split;
            QList<SseEvent> got = split.feed(QByteArrayView(stream).first(at));
            got += split.feed(QByteArrayView(stream).sliced(at));
            QVERIFY2(describe(got) == events, qPrintable(u"split at %1"_s.arg(at)));
            QCOMPARE(split.retryMs(), retry);
        }
        SseParser bytewise;
        QList<SseEvent> got;
        for (const char byte : stream)
            got += bytewise.feed(QByteArrayView(&byte, 1));
        QCOMPARE(describe(got), events);
    }

    void sizeLimitStopsTheStream()
    {
        SseParser parser(16);
        QCOMPARE(describe(parser.feed("data: short\n\n")), QStringList {u"message|short|"_s});
        QVERIFY(!parser.overLimit());
        // Two lines of one event: together over 16 bytes.
        QVERIFY(parser.feed("data: 12345\ndata: 67890\n\n").isEmpty());
        QVERIFY(parser.overLimit());
        QVERIFY(parser.feed("data: x\n\n").isEmpty()); // stopped for good
        parser.restart();
        QCOMPARE(describe(parser.feed("data: x\n\n")), QStringList {u"message|x|"_s});
    }

    void sizeLimitCountsALineNotEndedYet()
    {
        SseParser parser(16);
        QVERIFY(parser.feed("data: " + QByteArray(32, 'x')).isEmpty());
        QVERIFY(parser.overLimit());
    }

    void restartKeepsIdAndRetry()
    {
        SseParser parser;
        parser.feed("id: 9\nretry: 100\ndata: a\n\ndata: half");
        parser.restart();
        QCOMPARE(parser.lastEventId(), u"9"_s);
        QCOMPARE(parser.retryMs(), qint64(100));
        QCOMPARE(describe(parser.feed("data: b\n\n")), QStringList {u"message|b|9"_s});
    }
};

QTEST_GUILESS_MAIN(tst_SseParser)
#include "tst_sseparser.moc"
