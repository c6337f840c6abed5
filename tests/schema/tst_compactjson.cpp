// CompactJson: the store's JSON form, its parser and conversions.
#include <DataClient/compactjson.h>
#include <DataClient/private/blobbuffer_p.h>
#include <DataClient/private/vectorstate_p.h>

#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {
// \a text reads as QJsonDocument reads it (\a errorAt < 0), or is refused at byte \a errorAt
// with a message that contains \a error (when given).
void readsLikeQJsonDocumentOrFailsAt(const QByteArray &text, qsizetype errorAt,
                                     QStringView expectedError)
{
    QString error;
    qsizetype at = -1;
    const CompactJson json = CompactJson::parse(text, &error, &at);
    if (errorAt >= 0) {
        QVERIFY(json.isUndefined());
        if (!expectedError.isEmpty())
            QVERIFY2(error.contains(expectedError), qPrintable(error));
        QCOMPARE(at, errorAt);
        return;
    }
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(json.toJsonValue(), QJsonValue(QJsonDocument::fromJson(text).array()));
}
} // namespace

// (No backslashes inside raw strings here: moc 6.4 mis-reads them and skips the class.)
class tst_CompactJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTripsLikeQJsonDocument_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("scalars") << QByteArray(R"([1, -2.5, 1e3, 0, true, false, null, "x"])");
        QTest::newRow("nested") << QByteArray(R"({"a": {"b": [1, {"c": []}]}, "d": {}})");
        QTest::newRow("escapes") << QByteArray("[\"q\\\"b\\\\s\\/n\\n\\t\\u00e9\\ud83d\\ude00\"]");
        QTest::newRow("utf-8") << QByteArray("[\"Z\xc3\xbcrich \xe6\x9d\xb1\xe4\xba\xac\"]");
        QTest::newRow("long ascii")
            << QByteArray(R"(["abcdefghijklmnopqrstuvwxyz0123456789 abcdefghij"])");
        QTest::newRow("big numbers")
            << QByteArray(R"([12345678901234567890, 1.7976931348623157e308, -0.0])");
        QTest::newRow("whitespace") << QByteArray(" \n\t{ \"a\" :\r\n 1 } ");
        QTest::newRow("top string") << QByteArray(R"("just text")");
        // Compact JSON is read without skipping space; every place space may be is still read.
        QTest::newRow("space around every token")
            << QByteArray("[ {\t\"a\"\n:\r 1 ,\"b\": [ 2 , 3 ] , \"c\" : { } } , 4 ]");
        QTest::newRow("space only before commas") << QByteArray(R"([{"a":1 ,"b":2} ,{"a":3}])");
        QTest::newRow("space only after commas") << QByteArray(R"([{"a":1, "b":2}, {"a":3}])");
    }
    void roundTripsLikeQJsonDocument()
    {
        QFETCH(QByteArray, text);
        QString error;
        const CompactJson json = CompactJson::parse(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonValue expected = text.trimmed().startsWith('"')
            ? QJsonDocument::fromJson("[" + text + "]").array().first()
            : QJsonDocument::fromJson(text).isArray()
            ? QJsonValue(QJsonDocument::fromJson(text).array())
            : QJsonValue(QJsonDocument::fromJson(text).object());
        QCOMPARE(json.toJsonValue(), expected);
        QCOMPARE(CompactJson::fromJsonValue(expected).toJsonValue(), expected);
        QCOMPARE(json.toVariant(), expected.toVariant());
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qsizetype>("offset");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray("") << qsizetype(0) << u"unexpected end"_s;
        QTest::newRow("trailing comma") << QByteArray("[1,]") << qsizetype(3) << u"invalid value"_s;
        QTest::newRow("unterminated")
            << QByteArray("[\"abc") << qsizetype(5) << u"unterminated string"_s;
        QTest::newRow("bad escape")
            << QByteArray("[\"\\x\"]") << qsizetype(3) << u"invalid escape"_s;
        QTest::newRow("duplicate key")
            << QByteArray(R"({"a": 1, "a": 2})") << qsizetype(16) << u"duplicate key"_s;
        QTest::newRow("garbage after")
            << QByteArray("{} x") << qsizetype(3) << u"after the JSON value"_s;
        QTest::newRow("leading zero") << QByteArray("[01]") << qsizetype(2) << u"expected ','"_s;
        QTest::newRow("control char")
            << QByteArray("[\"a\nb\"]") << qsizetype(3) << u"control character"_s;
        QTest::newRow("bare word") << QByteArray("[nul]") << qsizetype(1) << u"invalid literal"_s;
        QTest::newRow("missing colon")
            << QByteArray(R"({"a" 1})") << qsizetype(5) << u"expected ':'"_s;
        // Where a value, a comma or a key is missing after space: the offset is past the space.
        QTest::newRow("space, then no value")
            << QByteArray(R"({"a": })") << qsizetype(6) << u"invalid value"_s;
        QTest::newRow("space, then the end")
            << QByteArray("{\"a\": ") << qsizetype(6) << u"unexpected end"_s;
        QTest::newRow("space, then no comma in an object")
            << QByteArray(R"({"a":1  "b":2})") << qsizetype(8) << u"expected ',' or '}'"_s;
        QTest::newRow("space, then no comma in a list")
            << QByteArray(R"([1  2])") << qsizetype(4) << u"expected ',' or ']'"_s;
        QTest::newRow("space, then no key")
            << QByteArray(R"({"a":1,  2})") << qsizetype(9) << u"expected a string key"_s;
        QTest::newRow("space, then the end of an object")
            << QByteArray("{\"a\":1  ") << qsizetype(8) << u"unterminated object"_s;
        QTest::newRow("space, then the end of a list")
            << QByteArray("[1  ") << qsizetype(4) << u"unterminated array"_s;
    }
    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(qsizetype, offset);
        QFETCH(QString, message);
        QString error;
        qsizetype at = -1;
        const CompactJson json = CompactJson::parse(text, &error, &at);
        QVERIFY(json.isUndefined());
        QVERIFY2(error.contains(message), qPrintable(error));
        QCOMPARE(at, offset);
    }

    void keyCountLimit_data()
    {
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<QByteArray>("after");
        QTest::newRow("alone") << QByteArray() << QByteArray();
        // its first two keys read against the last object's, then listed: counted once
        QTest::newRow("after an object with its first keys")
            << QByteArray(R"([{"k0":1,"k1":2},)") << QByteArray("]");
    }
    void keyCountLimit()
    {
        // 65536 keys are fine; the 65537th is refused where it starts.
        QFETCH(QByteArray, before);
        QFETCH(QByteArray, after);
        QByteArray text = before + "{";
        qsizetype lastKeyAt = 0;
        for (int i = 0; i <= 65536; ++i) {
            if (i)
                text += ',';
            lastKeyAt = text.size();
            text += "\"k" + QByteArray::number(i) + "\":0";
        }
        text += '}' + after;
        QString error;
        qsizetype at = -1;
        QVERIFY(CompactJson::parse(text, &error, &at).isUndefined());
        QVERIFY2(error.contains(u"an object with more than 65536 keys"_s), qPrintable(error));
        QCOMPARE(at, lastKeyAt);
        const qsizetype cut = text.lastIndexOf(',');
        const CompactJson fits = CompactJson::parse(text.left(cut) + '}' + after, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        if (before.isEmpty())
            QCOMPARE(fits.size(), 65536);
        else
            QCOMPARE(fits.toJsonValue().toArray().at(1).toObject().size(), 65536);
    }

    void keyListsAtOneDepth()
    {
        // The parser remembers the last key list per depth: neighbours whose keys
        // have the same bytes but split differently, or differ by one key, keep their own keys,
        // and a duplicate after a remembered list is still refused.
        const QByteArray text = R"([{"ab":1,"c":2},{"a":3,"bc":4},{"ab":5,"c":6,"d":7},)"
                                R"({"ab":8,"c":9},{"ab":0,"x":1}])";
        QString error;
        const CompactJson json = CompactJson::parse(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(json.toJsonValue(), QJsonValue(QJsonDocument::fromJson(text).array()));
        qsizetype at = -1;
        QVERIFY(CompactJson::parse(R"([{"a":1,"b":2},{"a":1,"a":2}])", &error, &at).isUndefined());
        QVERIFY2(error.contains(u"duplicate key"_s), qPrintable(error));
        QCOMPARE(at, qsizetype(28));
    }

    void keysReadAgainstTheLastObject_data()
    {
        // The parser reads an object's keys against the last key list at its depth:
        // each row leaves that path at a different point and must read what QJsonDocument reads.
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("same keys") << QByteArray(R"([{"id":1,"title":"a"},{"id":2,"title":"b"}])");
        QTest::newRow("a longer key") << QByteArray(R"([{"ab":1},{"abc":2}])");
        QTest::newRow("a shorter key") << QByteArray(R"([{"abc":1},{"ab":2}])");
        QTest::newRow("fewer keys") << QByteArray(R"([{"a":1,"b":2},{"a":3}])");
        QTest::newRow("more keys") << QByteArray(R"([{"a":1},{"a":2,"b":3}])");
        QTest::newRow("other order") << QByteArray(R"([{"a":1,"b":2},{"b":3,"a":4}])");
        QTest::newRow("escaped same key") << QByteArray("[{\"a\":1},{\"\\u0061\":2}]");
        QTest::newRow("non-ASCII key") << QByteArray("[{\"e\":1},{\"\xc3\xa9\":2}]");
        QTest::newRow("long keys") << QByteArray(
            R"([{"a_key_of_seventeen":1,"k8bytes!":2},{"a_key_of_seventeen":3,"k8bytes?":4}])");
        QTest::newRow("nested in between") << QByteArray(
            R"([{"a":{"x":1,"y":[{"p":1},{"p":2}]},"b":2},{"a":{"x":3,"y":[]},"b":4}])");
        QTest::newRow("with spaces") << QByteArray(R"([{"a" : 1 , "b" : 2}, { "a" :3,"b":4 }])");
        QTest::newRow("a space before one colon")
            << QByteArray(R"([{"a":1,"b":2},{"a":3,"b" :4},{"a":5,"b":6}])");
        QTest::newRow("a key that begins like the expected")
            << QByteArray("[{\"a\":1},{\"a\\\"\":2}]"); // the second key: a"
        // The keys read as expected are listed from the remembered bytes when a later key
        // differs; the bytes are then replaced by the new list (read by the third object).
        QTest::newRow("a changed key, then the same again")
            << QByteArray(R"([{"a":1,"b":2},{"a":3,"c":4},{"a":5,"c":6},{"a":7,"b":8}])");
        QTest::newRow("a changed last key of three")
            << QByteArray(R"([{"ab":1,"cd":2,"ef":3},{"ab":4,"cd":5,"eg":6},{"ab":7,"cd":8}])");
    }
    void keysReadAgainstTheLastObject()
    {
        QFETCH(QByteArray, text);
        QString error;
        const CompactJson json = CompactJson::parse(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(json.toJsonValue(), QJsonValue(QJsonDocument::fromJson(text).array()));
    }

    void duplicateOfAnExpectedKey()
    {
        // The first key was read as expected (not listed yet); its duplicate is still found.
        QString error;
        qsizetype at = -1;
        const QByteArray text = R"([{"a":1,"b":2},{"a":3,"a":4}])";
        QVERIFY(CompactJson::parse(text, &error, &at).isUndefined());
        QVERIFY2(error.contains(u"duplicate key"_s), qPrintable(error));
        QCOMPARE(at, text.size() - 1); // after the object: where its shape is made
    }

    void expectedKeyCutShort()
    {
        // The text ends inside a key that begins like the expected one: not read past the end.
        QString error;
        qsizetype at = -1;
        const QByteArray text = "[{\"abc\":1},{\"ab"; // (a raw string here confuses moc 6.4)
        QVERIFY(CompactJson::parse(text, &error, &at).isUndefined());
        QVERIFY2(error.contains(u"unterminated string"_s), qPrintable(error));
        QCOMPARE(at, qsizetype(15));
    }

    void nonAsciiStrings_data()
    {
        // Strings whose non-ASCII characters are all below U+0100 are read straight into
        // Latin-1 (jsonscanner_p.h decodeLatin1()); the rest go through the UTF-16 decoder. Each
        // row must read as QJsonDocument reads it, or fail where the bad byte is.
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qsizetype>("errorAt"); // -1: valid
        QTest::newRow("first") << QByteArray("[\"\xc3\xa9t\xc3\xa9\"]") << qsizetype(-1);
        QTest::newRow("last") << QByteArray("[\"Z\xc3\xbcrich\xc3\xbc\"]") << qsizetype(-1);
        QTest::newRow("U+0080 and U+00FF")
            << QByteArray("[\"\xc2\x80 \xc3\xbf\"]") << qsizetype(-1);
        QTest::newRow("with an escape") << QByteArray("[\"\xc3\xa9\\n\"]") << qsizetype(-1);
        QTest::newRow("with a euro sign")
            << QByteArray("[\"\xc3\xa9\xe2\x82\xac\"]") << qsizetype(-1);
        QTest::newRow("24 characters (a date's length)")
            << QByteArray("[\"2024-02-15T09:49:06.214\xc3\xa9\"]") << qsizetype(-1);
        QTest::newRow("lead without continuation") << QByteArray("[\"ab\xc3(\"]") << qsizetype(4);
        QTest::newRow("lead cut by the quote") << QByteArray("[\"ab\xc3\"]") << qsizetype(4);
        QTest::newRow("overlong") << QByteArray("[\"\xc3\xa9\xc1\xa9\"]") << qsizetype(4);
        QTest::newRow("stray continuation") << QByteArray("[\"a\xa9\"]") << qsizetype(3);
    }
    void nonAsciiStrings()
    {
        QFETCH(QByteArray, text);
        QFETCH(qsizetype, errorAt);
        readsLikeQJsonDocumentOrFailsAt(text, errorAt, u"invalid UTF-8");
    }

    void expectedKeyWithoutColon()
    {
        // An expected key is compared together with its '":': without the colon it is read as
        // a key again, and the missing colon is reported where it is missing.
        QString error;
        qsizetype at = -1;
        const QByteArray text = "[{\"ab\":1},{\"ab\" 1}]";
        QVERIFY(CompactJson::parse(text, &error, &at).isUndefined());
        QVERIFY2(error.contains(u"expected ':' after an object key"_s), qPrintable(error));
        QCOMPARE(at, qsizetype(16));
    }

    void blobCopyAtEveryLength()
    {
        // BlobBuffer::copy() moves strings and nodes in overlapping 4-, 8- and 16-byte pieces:
        // every length copies exactly its bytes, nothing before or after.
        QByteArray from(300, Qt::Uninitialized);
        for (int i = 0; i < from.size(); ++i)
            from[i] = char('A' + i % 53);
        for (int n = 0; n <= 290; ++n) {
            QByteArray to(n + 16, '#');
            detail::BlobBuffer::copy(to.data() + 8, from.constData() + 3, size_t(n));
            QCOMPARE(to.left(8), QByteArray(8, '#'));
            QCOMPARE(to.mid(8, n), from.mid(3, n));
            QCOMPARE(to.right(8), QByteArray(8, '#'));
        }
    }

    void stringsAcrossBlocks_data()
    {
        // Strings are scanned 16 bytes at a time (jsonscanner_p.h): a quote, an escape, a
        // non-ASCII byte or a control at every place around a block's edges.
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qsizetype>("errorAt"); // -1: valid
        for (int at : {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 40}) {
            const QByteArray before(at, 'x');
            const QByteArray after(20, 'y');
            QTest::addRow("end at %d", at) << "[\"" + before + "\"]" << qsizetype(-1);
            QTest::addRow("escape at %d", at)
                << "[\"" + before + "\\n" + after + "\"]" << qsizetype(-1);
            QTest::addRow("non-ASCII at %d", at)
                << "[\"" + before + "\xc3\xa9" + after + "\"]" << qsizetype(-1);
            QTest::addRow("control at %d", at)
                << "[\"" + before + "\x01" + after + "\"]" << qsizetype(2 + at);
            QTest::addRow("bad UTF-8 at %d", at)
                << "[\"" + before + "\xff" + after + "\"]" << qsizetype(2 + at);
            QTest::addRow("unterminated at %d", at) << "[\"" + before << qsizetype(2 + at);
        }
    }
    void stringsAcrossBlocks()
    {
        QFETCH(QByteArray, text);
        QFETCH(qsizetype, errorAt);
        readsLikeQJsonDocumentOrFailsAt(text, errorAt, {});
    }

    void depthLimit()
    {
        QString error;
        QVERIFY(
            !CompactJson::parse(QByteArray(512, '[') + QByteArray(512, ']'), &error).isUndefined());
        QVERIFY(
            CompactJson::parse(QByteArray(513, '[') + QByteArray(513, ']'), &error).isUndefined());
        QVERIFY(error.contains(u"nesting too deep"_s));
    }

    // The parser clears the upper vector state a Qt string hash leaves dirty on AVX CPUs
    // (vectorstate_p.h): a speed matter, so this checks only what can be checked here, that the
    // clearing runs on any CPU (no AVX: nothing) and that a parse after such a hash on the same
    // thread reads a text above the arena's threshold exactly.
    void parseAfterAQStringHashOnThisThread()
    {
        QHash<QString, int> seeded; // the global seed: the hash path that dirties the state
        seeded.insert(u"title"_s, 1);
        QVERIFY(seeded.contains(u"title"_s));
        DataClient::detail::clearUpperVectorState();
        seeded.insert(u"author"_s, 2);
        QByteArray text = "[";
        for (int i = 0; i < 400; ++i) {
            // One escape per title (the decoding path), a date (the instant), a double.
            const QByteArray n = QByteArray::number(i);
            text += QByteArray(i ? "," : "") + "{\"id\":" + n + ",\"title\":\"T\\u00e9 " + n
                + "\",\"createdAt\":\"2024-02-15T09:49:06.214Z\",\"n\":1.5e2}";
        }
        text += "]";
        QString error;
        const CompactJson json = CompactJson::parse(text, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(json.toJsonValue(), QJsonValue(QJsonDocument::fromJson(text).array()));
    }

    void typesAndSizes()
    {
        QCOMPARE(CompactJson().type(), QJsonValue::Undefined);
        QCOMPARE(CompactJson::parse("[1,2,3]").size(), 3);
        QCOMPARE(CompactJson::parse(R"({"a":1})").type(), QJsonValue::Object);
        QCOMPARE(CompactJson::parse("null").type(), QJsonValue::Null);
        const CompactJson a = CompactJson::parse("[1]");
        CompactJson b = a; // shared
        b = CompactJson();
        QCOMPARE(a.size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_CompactJson)
#include "tst_compactjson.moc"
