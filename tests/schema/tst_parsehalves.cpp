// A long top-level list is parsed in two halves, the second on a helper thread (issue 19,
// src/json/parsehalf_p.h). Whatever the split, the result is the one reading: the same value as
// QJsonDocument's and a parse in one piece, or the same first error at the same byte offset.
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
    qint64 joined = 0; // halves a helper read, taken by the parser
};

// \a text read with a split from \a splitFrom bytes on (a huge number: in one piece).
Reading readWith(const QByteArray &text, qsizetype splitFrom, bool waitForHelper)
{
    detail::setSplitParseFromForTesting(splitFrom, waitForHelper);
    const qint64 before = detail::joinedParseHalves();
    Reading r;
    r.value = CompactJson::parse(text, &r.error, &r.offset).toJsonValue();
    r.joined = detail::joinedParseHalves() - before;
    detail::setSplitParseFromForTesting(0);
    return r;
}

constexpr qsizetype InOnePiece = qsizetype(1) << 40;

} // namespace

class tst_ParseHalves : public QObject
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
        QTest::addColumn<qint64>("joined"); // 1: the helper's half was taken

        QTest::newRow("objects") << listOf(40, todo) << true << qint64(1);
        // The middle falls inside item 5's nested list, whose items look like the top level's:
        // the helper starts inside an item, and what it read is dropped.
        QTest::newRow("the guess in a nested list") << listOf(11, [](int i) {
            return i == 5 ? "{\"id\":5,\"parts\":" + listOf(100, todo) + "}" : todo(i);
        }) << true << qint64(0);
        // Strings in both halves, a wide one after an odd-length one: the helper's strings are
        // moved into the list with their offsets (and UTF-16 alignment) right.
        QTest::newRow("strings in both halves")
            << listOf(40, [](int i) { return i == 3 ? QByteArray("\"early\"") : todo(i); })
                    .chopped(1)
                + ",\"x\",\"\xc3\xa9t\xc3\xa9\",\"\xe2\x82\xac\",\"2024-02-15T09:49:06.214Z\",7]"
            << true << qint64(1);
        QTest::newRow("no item opens after the middle") << "[" + todo(1) + ",{\"id\":2,\"text\":\""
                + QByteArray(600, 'x') + "\"}]" << true << qint64(0);
        QTest::newRow("an error in the second half") << listOf(40, [](int i) {
            return i == 35 ? QByteArray("{\"id\":35,\"x\":tru}") : todo(i);
        }) << false << qint64(1);
        QTest::newRow("errors in both halves: the first") << listOf(40, [](int i) {
            return i == 5 || i == 35 ? QByteArray("{\"id\":5,\"x\":nul}") : todo(i);
        }) << false << qint64(0);
        QTest::newRow("bad UTF-8 in the second half") << listOf(40, [](int i) {
            return i == 30 ? QByteArray("{\"id\":30,\"x\":\"a\xff\"}") : todo(i);
        }) << false << qint64(1);
        QTest::newRow("text after the list") << listOf(40, todo) + " x" << false << qint64(1);
        QTest::newRow("cut short") << listOf(40, todo).chopped(1) << false << qint64(1);
    }
    void sameReadingEitherWay()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, valid);
        QFETCH(qint64, joined);
        const Reading whole = readWith(text, InOnePiece, false);
        const Reading halves = readWith(text, 64, true);
        QCOMPARE(whole.joined, 0);
        QCOMPARE(halves.joined, joined);
        QCOMPARE(halves.error, whole.error);
        QCOMPARE(halves.offset, whole.offset);
        QCOMPARE(halves.value, whole.value);
        if (valid) {
            QVERIFY2(halves.error.isEmpty(), qPrintable(halves.error));
            QCOMPARE(halves.value, QJsonValue(QJsonDocument::fromJson(text).array()));
        } else {
            QVERIFY(!halves.error.isEmpty());
            QVERIFY(halves.value.isUndefined());
        }
    }

    void aBusyPoolLeavesTheParserAlone()
    {
        // No pool thread free: the helper never starts before the parser reaches the middle,
        // and the parser reads the second half itself instead of waiting.
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

QTEST_GUILESS_MAIN(tst_ParseHalves)
#include "tst_parsehalves.moc"
