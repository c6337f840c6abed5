// A long top-level list is parsed in chunks, read by the parser from the front and a helper
// thread from the back (src/json/parsesplit_p.h). Whatever the split, the result is
// the one reading: the same value as QJsonDocument's and a parse in one piece, or the same
// first error at the same byte offset.
#include <DataClient/compactjson.h>
#include <DataClient/private/jsonparser_p.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QSemaphore>
#include <QTest>
#include <QThreadPool>

#include <functional>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

// A top-level list of \a n items, item(i) each.
QByteArray listOf(int n, const std::function<QByteArray(int)> &item)
{
    QByteArray text = "[";
    for (int i = 0; i < n; ++i)
        text += (i ? "," : "") + item(i);
    return text + "]";
}

QByteArray todo(int i)
{
    return "{\"id\":" + QByteArray::number(i) + ",\"title\":\"todo " + QByteArray::number(i)
        + "\",\"done\":" + (i % 2 ? "true" : "false") + "}";
}

struct Reading
{
    QJsonValue value;
    QString error;
    qsizetype offset = -1;
    qint64 joined = 0; // chunks a helper read, taken by the parser
};

// \a text read with a split from \a splitFrom bytes on (a huge number: in one piece).
Reading readWith(const QByteArray &text, qsizetype splitFrom, bool waitForHelper)
{
    detail::setSplitParseFromForTesting(splitFrom, waitForHelper);
    const qint64 before = detail::joinedParseChunks();
    Reading r;
    r.value = CompactJson::parse(text, &r.error, &r.offset).toJsonValue();
    r.joined = detail::joinedParseChunks() - before;
    detail::setSplitParseFromForTesting(0);
    return r;
}

constexpr qsizetype InOnePiece = qsizetype(1) << 40;

} // namespace

class tst_ParseSplit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (QThread::idealThreadCount() < 2)
            QSKIP("one core: texts are never split");
    }

    void sameReadingEitherWay_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("joined"); // chunks the helper read and the parser took; -1: some

        // Seven guesses (an eighth of the text each), all between items: the parser reads
        // the first chunk, the helper the seven others (the test makes the parser wait for it).
        QTest::newRow("objects") << listOf(40, todo) << true << qint64(detail::SplitParts - 1);
        // The first guess falls inside the nested list of the todo with id 5, whose items look
        // like the top level's: the helper's chunks start inside an item, and what it read is
        // dropped.
        QTest::newRow("the first guess in a nested list") << listOf(11, [](int i) {
            return i == 5 ? "{\"id\":5,\"parts\":" + listOf(100, todo) + "}" : todo(i);
        }) << true << qint64(0);
        // Guesses after the first two fall inside the nested list of the todo with id 30: the
        // helper's second chunk ends past the third guess, and the parser reads on alone from
        // there.
        QTest::newRow("a later guess in a nested list") << listOf(40, [](int i) {
            return i == 30 ? "{\"id\":30,\"parts\":" + listOf(60, todo) + "}" : todo(i);
        }) << true << qint64(-1);
        // Strings in both the parser's and the helper's chunks, a wide one after an odd-length
        // one: the helper's strings are moved into the list with their offsets (and UTF-16
        // alignment) right.
        QTest::newRow("strings in both")
            << listOf(40, [](int i) { return i == 3 ? QByteArray("\"early\"") : todo(i); })
                    .chopped(1)
                + ",\"x\",\"\xc3\xa9t\xc3\xa9\",\"\xe2\x82\xac\",\"2024-02-15T09:49:06.214Z\",7]"
            << true << qint64(-1);
        QTest::newRow("no item opens after the first eighth")
            << "[" + todo(1) + ",{\"id\":2,\"text\":\"" + QByteArray(600, 'x') + "\"}]" << true
            << qint64(0);
        QTest::newRow("an error in a helper's chunk") << listOf(40, [](int i) {
            return i == 35 ? QByteArray("{\"id\":35,\"x\":tru}") : todo(i);
        }) << false << qint64(-1);
        QTest::newRow("errors in the parser's chunk and a helper's: the first") << listOf(
            40, [](int i) {
                return i == 2 || i == 35 ? QByteArray("{\"id\":2,\"x\":nul}") : todo(i);
            }) << false << qint64(0);
        QTest::newRow("bad UTF-8 in a helper's chunk") << listOf(40, [](int i) {
            return i == 30 ? QByteArray("{\"id\":30,\"x\":\"a\xff\"}") : todo(i);
        }) << false << qint64(-1);
        QTest::newRow("text after the list") << listOf(40, todo) + " x" << false << qint64(-1);
        QTest::newRow("cut short") << listOf(40, todo).chopped(1) << false << qint64(-1);
    }
    void sameReadingEitherWay()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, valid);
        QFETCH(qint64, joined);
        const Reading whole = readWith(text, InOnePiece, false);
        const Reading split = readWith(text, 64, true);
        QCOMPARE(whole.joined, 0);
        if (joined < 0)
            QVERIFY2(split.joined > 0, "no chunk of the helper's was taken");
        else
            QCOMPARE(split.joined, joined);
        QCOMPARE(split.error, whole.error);
        QCOMPARE(split.offset, whole.offset);
        QCOMPARE(split.value, whole.value);
        if (valid) {
            QVERIFY2(split.error.isEmpty(), qPrintable(split.error));
            QCOMPARE(split.value, QJsonValue(QJsonDocument::fromJson(text).array()));
        } else {
            QVERIFY(!split.error.isEmpty());
            QVERIFY(split.value.isUndefined());
        }
    }

    void aBusyPoolLeavesTheParserAlone()
    {
        // No pool thread free: the helper never starts while the parser reads, and the parser
        // claims every chunk itself instead of waiting.
        QThreadPool *pool = QThreadPool::globalInstance();
        const int threads = pool->maxThreadCount();
        pool->setMaxThreadCount(1);
        QSemaphore gate;
        pool->start([&gate] { gate.acquire(); });
        const QByteArray text = listOf(400, todo);
        const Reading r = readWith(text, 64, false);
        gate.release();
        pool->waitForDone();
        pool->setMaxThreadCount(threads);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.joined, 0);
        QCOMPARE(r.value, QJsonValue(QJsonDocument::fromJson(text).array()));
    }
};

QTEST_GUILESS_MAIN(tst_ParseSplit)
#include "tst_parsesplit.moc"
