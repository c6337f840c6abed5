// One UTF-8 rule for every JSON path: our parser (CompactJson::parse)
// refuses invalid UTF-8 as QJsonDocument does, instead of replacing it with U+FFFD, and says
// where: "invalid UTF-8 at byte offset N", the message utf8Error() gives for the same bytes to
// the paths that parse with QJsonDocument.
#include <DataClient/compactjson.h>

#include <DataClient/private/utf8_p.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

class tst_CompactUtf8 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void invalidIsRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qsizetype>("offset");
        // in a string value: [" at 0-1, the bad sequence from offset 2
        auto inString = [](const char *label, const QByteArray &bytes) {
            QTest::newRow(label) << QByteArray("[\"") + bytes + QByteArray("\"]") << qsizetype(2);
        };
        inString("overlong 2 bytes (C0 AF)", "\xc0\xaf");
        inString("overlong 2 bytes (C1 BF)", "\xc1\xbf");
        inString("overlong 3 bytes (E0 80 AF)", "\xe0\x80\xaf");
        inString("overlong 4 bytes (F0 80 80 AF)", "\xf0\x80\x80\xaf");
        inString("high surrogate (ED A0 80)", "\xed\xa0\x80");
        inString("low surrogate (ED BF BF)", "\xed\xbf\xbf");
        inString("past U+10FFFF (F4 90 80 80)", "\xf4\x90\x80\x80");
        inString("byte F5", "\xf5\x80\x80\x80");
        inString("byte FF", "\xff");
        inString("stray continuation byte", "\x80");
        inString("truncated 3 bytes", "\xe2\x82");
        inString("truncated 4 bytes", "\xf0\x9f\x98");
        inString("lead byte then ASCII", "\xc3\x61");
        QTest::newRow("after valid text")
            << QByteArray("[\"ab\xc3\xa9\xe2\x82\xac\xff\"]") << qsizetype(9);
        QTest::newRow("after an escape") << QByteArray("[\"\\n\xc3\"]") << qsizetype(4);
        QTest::newRow("in a key") << QByteArray("{\"a\xed\xa0\x80\": 1}") << qsizetype(3);
        QTest::newRow("outside a string") << QByteArray("[1, \xff]") << qsizetype(4);
        QTest::newRow("cut at the end of the text") << QByteArray("[\"abc\xe2\x82") << qsizetype(5);
    }
    void invalidIsRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(qsizetype, offset);
        const QString expected = u"invalid UTF-8 at byte offset %1"_s.arg(offset);
        QString error;
        qsizetype at = -1;
        QVERIFY(CompactJson::parse(text, &error, &at).isUndefined());
        QCOMPARE(error, expected);
        QCOMPARE(at, offset);
        // The helper for the QJsonDocument paths says the same; QJsonDocument refuses too.
        QCOMPARE(detail::utf8Error(text), expected);
        QCOMPARE(detail::invalidUtf8Offset(text), offset);
        QJsonParseError parseError;
        QJsonDocument::fromJson(text, &parseError);
        QVERIFY(parseError.error != QJsonParseError::NoError);
    }

    void validIsKept_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("U+0080 (C2 80)") << QByteArray("\xc2\x80");
        QTest::newRow("U+0800 (E0 A0 80)") << QByteArray("\xe0\xa0\x80");
        QTest::newRow("U+D7FF (ED 9F BF)") << QByteArray("\xed\x9f\xbf");
        QTest::newRow("U+E000 (EE 80 80)") << QByteArray("\xee\x80\x80");
        QTest::newRow("noncharacter U+FFFE") << QByteArray("\xef\xbf\xbe");
        QTest::newRow("U+10000 (F0 90 80 80)") << QByteArray("\xf0\x90\x80\x80");
        QTest::newRow("emoji") << QByteArray("\xf0\x9f\x98\x80");
        QTest::newRow("U+10FFFF (F4 8F BF BF)") << QByteArray("\xf4\x8f\xbf\xbf");
        QTest::newRow("mixed with escapes") << QByteArray("Z\xc3\xbcrich\\n\xe6\x9d\xb1");
    }
    void validIsKept()
    {
        QFETCH(QByteArray, bytes);
        const QByteArray text = "[\"" + bytes + "\", {\"" + bytes + "\": 1}]";
        QString error;
        const CompactJson parsed = CompactJson::parse(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(parsed.toJsonValue(), QJsonValue(QJsonDocument::fromJson(text).array()));
        QVERIFY(detail::utf8Error(text).isNull());
        QCOMPARE(detail::invalidUtf8Offset(text), -1);
    }

    void otherErrorsSayTheOffsetToo()
    {
        QString error;
        qsizetype at = -1;
        QVERIFY(CompactJson::parse("[\"abc", &error, &at).isUndefined());
        QCOMPARE(error, u"unterminated string at byte offset 5"_s);
        QCOMPARE(at, 5);
    }
};

QTEST_GUILESS_MAIN(tst_CompactUtf8)
#include "tst_compactutf8.moc"
