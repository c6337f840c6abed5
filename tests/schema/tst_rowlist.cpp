// RowList (rowlist.h): one list or chunks of ChunkRows rows; reads, the copy a replace() makes,
// structural edits, and its place in a QVariant (converts to QVariantList).
#include <DataClient/rowlist.h>
#include <DataClient/private/rowlist_p.h>

#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype C = RowList::ChunkRows;

QVariantList numbers(qsizetype from, qsizetype count)
{
    QVariantList rows;
    for (qsizetype i = 0; i < count; ++i)
        rows.append(QVariant(from + i));
    return rows;
}

QList<QVariantList> chunksOf(const QList<qsizetype> &sizes)
{
    QList<QVariantList> chunks;
    qsizetype next = 0;
    for (qsizetype size : sizes) {
        chunks.append(numbers(next, size));
        next += size;
    }
    return chunks;
}

// Row i holds i: the rows are all there, in order.
bool countsUp(const RowList &rows, qsizetype n)
{
    if (rows.size() != n)
        return false;
    for (qsizetype i = 0; i < n; ++i) {
        if (rows.at(i).toLongLong() != i)
            return false;
    }
    return true;
}

} // namespace

class tst_RowList : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anEmptyList()
    {
        const RowList rows;
        QCOMPARE(rows.size(), 0);
        QVERIFY(rows.isEmpty());
        QCOMPARE(RowListInternals::chunkCount(rows), 0);
        QVERIFY(rows.toList().isEmpty());
        QVERIFY(rows.begin() == rows.end());
        QCOMPARE(rows, RowList(QVariantList()));
        QCOMPARE(RowListInternals::chunkCount(RowList(QVariantList())), 0);
    }

    void outOfRangeReadsGiveTheFallback()
    {
        const RowList rows(numbers(0, 3));
        QVERIFY(!rows.value(-1).isValid());
        QVERIFY(!rows.value(3).isValid());
        QCOMPARE(rows.value(3, u"none"_s).toString(), u"none"_s);
        QCOMPARE(rows.value(2).toInt(), 2);
        QVERIFY(rows.mid(3).isEmpty());
        QVERIFY(rows.mid(1, -5).isEmpty());
    }

    void oneListIsSharedNotCopied()
    {
        const QVariantList list = numbers(0, 5000); // longer than a chunk: still one list
        const RowList rows(list);
        QCOMPARE(RowListInternals::chunkCount(rows), 1);
        QCOMPARE(RowListInternals::identity(rows), static_cast<const void *>(list.constData()));
        QVERIFY(rows.toList().isSharedWith(list));
        QVERIFY(rows.isSharedWith(RowList(list))); // two wrappings of one list
        QVERIFY(countsUp(rows, 5000));
    }

    void fromChunks_data()
    {
        QTest::addColumn<QList<qsizetype>>("sizes");
        QTest::addColumn<qsizetype>("chunks");
        QTest::addColumn<bool>("shared"); // the given chunks are kept as they are
        QTest::newRow("cut: full chunks, a short last")
            << QList<qsizetype> {C, C, 5} << qsizetype(3) << true;
        QTest::newRow("cut: full chunks only") << QList<qsizetype> {C, C} << qsizetype(2) << true;
        QTest::newRow("one chunk of any length")
            << QList<qsizetype> {3 * C + 1} << qsizetype(1) << true;
        QTest::newRow("empty chunks dropped")
            << QList<qsizetype> {0, C, 0, 7, 0} << qsizetype(2) << true;
        QTest::newRow("uneven: re-cut") << QList<qsizetype> {3, 2 * C, 7} << qsizetype(3) << false;
        QTest::newRow("a long last chunk: re-cut")
            << QList<qsizetype> {C, C + 1} << qsizetype(3) << false;
        QTest::newRow("a short middle chunk: re-cut")
            << QList<qsizetype> {C, 10, C} << qsizetype(3) << false;
        QTest::newRow("nothing") << QList<qsizetype> {0, 0} << qsizetype(0) << true;
    }

    void fromChunks()
    {
        QFETCH(QList<qsizetype>, sizes);
        QFETCH(qsizetype, chunks);
        QFETCH(bool, shared);
        const QList<QVariantList> in = chunksOf(sizes);
        const RowList rows = RowList::fromChunks(in);
        qsizetype n = 0;
        for (qsizetype size : sizes)
            n += size;
        QVERIFY(countsUp(rows, n));
        QCOMPARE(RowListInternals::chunkCount(rows), chunks);
        if (n > 0) {
            const QVariantList &first = *std::find_if(
                in.cbegin(), in.cend(), [](const QVariantList &chunk) { return !chunk.isEmpty(); });
            QCOMPARE(&rows.at(0) == &first.at(0), shared);
        }
        QCOMPARE(rows.toList(), numbers(0, n));
    }

    void replaceCopiesOneChunkOfASharedList()
    {
        const RowList before = RowList::fromChunks(chunksOf({C, C, C}));
        RowList after = before;
        QVERIFY(after.isSharedWith(before));
        after.replace(C + 3, u"new"_s);
        QVERIFY(!after.isSharedWith(before));
        QVERIFY(RowListInternals::identity(after) != RowListInternals::identity(before));
        QVERIFY(countsUp(before, 3 * C)); // the held list did not change
        QCOMPARE(after.at(C + 3).toString(), u"new"_s);
        QVERIFY(&after.at(C) != &before.at(C)); // that chunk was copied
        QVERIFY(&after.at(0) == &before.at(0)); // the others are shared
        QVERIFY(&after.at(2 * C) == &before.at(2 * C));
        QVERIFY(after != before);
    }

    void replaceInPlaceWhenNotShared()
    {
        RowList rows = RowList::fromChunks(chunksOf({C, 3}));
        const void *identity = RowListInternals::identity(rows);
        const QVariant *row = &rows.at(C + 1);
        rows.replace(C + 1, 42);
        QCOMPARE(RowListInternals::identity(rows), identity);
        QCOMPARE(&rows.at(C + 1), row);
        QCOMPARE(rows.at(C + 1).toInt(), 42);

        RowList one(numbers(0, 3));
        one.replace(0, 7);
        QCOMPARE(one.at(0).toInt(), 7);
    }

    void structuralEditsMakeOneList()
    {
        const RowList held = RowList::fromChunks(chunksOf({C, C, 2}));
        RowList rows = held;
        rows.insert(C, u"inserted"_s);
        QCOMPARE(RowListInternals::chunkCount(rows), 1);
        QCOMPARE(rows.size(), 2 * C + 3);
        QCOMPARE(rows.at(C).toString(), u"inserted"_s);
        QCOMPARE(rows.at(C + 1).toLongLong(), C);
        rows.remove(C - 2, 5); // across the old chunk boundary
        QCOMPARE(rows.size(), 2 * C - 2);
        QCOMPARE(rows.at(C - 3).toLongLong(), C - 3);
        QCOMPARE(rows.at(C - 2).toLongLong(), C + 2);
        QVERIFY(countsUp(held, 2 * C + 2)); // the held list did not change
        rows.remove(0, rows.size());
        QVERIFY(rows.isEmpty());
        QCOMPARE(RowListInternals::chunkCount(rows), 0);
        rows.insert(0, 1);
        QCOMPARE(rows.toList(), (QVariantList {1}));
        rows.remove(0, 0); // nothing
        QCOMPARE(rows.size(), 1);
    }

    void editsOutsideTheListAreRefused_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<qsizetype>("at");
        QTest::addColumn<qsizetype>("count");
        QTest::addColumn<QString>("warning");
        const QString unchanged = u"; the list is unchanged"_s;
        QTest::newRow("replace past the end")
            << u"replace"_s << 2 * C + 2 << qsizetype(1)
            << u"RowList::replace: no row 2050 in a list of 2050 rows"_s + unchanged;
        QTest::newRow("replace before the start")
            << u"replace"_s << qsizetype(-1) << qsizetype(1)
            << u"RowList::replace: no row -1 in a list of 2050 rows"_s + unchanged;
        QTest::newRow("insert past the end")
            << u"insert"_s << 2 * C + 3 << qsizetype(0)
            << u"RowList::insert: position 2051 is not between 0 and the size, 2050"_s + unchanged;
        QTest::newRow("remove across the end")
            << u"remove"_s << 2 * C << qsizetype(5)
            << u"RowList::remove: 5 rows from row 2048 are not all in a list of 2050 rows"_s
                + unchanged;
        QTest::newRow("remove a negative count")
            << u"remove"_s << qsizetype(0) << qsizetype(-1)
            << u"RowList::remove: -1 rows from row 0 are not all in a list of 2050 rows"_s
                + unchanged;
    }

    void editsOutsideTheListAreRefused()
    {
        QFETCH(QString, edit);
        QFETCH(qsizetype, at);
        QFETCH(qsizetype, count);
        QFETCH(QString, warning);
        RowList rows = RowList::fromChunks(chunksOf({C, C, 2}));
        const void *identity = RowListInternals::identity(rows);
        QTest::ignoreMessage(QtWarningMsg, warning.toUtf8().constData());
        if (edit == u"replace"_s)
            rows.replace(at, u"x"_s);
        else if (edit == u"insert"_s)
            rows.insert(at, u"x"_s);
        else
            rows.remove(at, count);
        QVERIFY(countsUp(rows, 2 * C + 2)); // unchanged
        QCOMPARE(RowListInternals::chunkCount(rows), 3); // not even made one list
        QCOMPARE(RowListInternals::identity(rows), identity);
    }

    void mid_data()
    {
        QTest::addColumn<qsizetype>("pos");
        QTest::addColumn<qsizetype>("length");
        QTest::addColumn<qsizetype>("first");
        QTest::addColumn<qsizetype>("count");
        const qsizetype n = 2 * C + 10;
        QTest::newRow("all") << qsizetype(0) << qsizetype(-1) << qsizetype(0) << n;
        QTest::newRow("across a boundary") << C - 2 << qsizetype(5) << C - 2 << qsizetype(5);
        QTest::newRow("to the end") << 2 * C << qsizetype(-1) << 2 * C << qsizetype(10);
        QTest::newRow("longer than the rest") << 2 * C << qsizetype(100) << 2 * C << qsizetype(10);
        QTest::newRow("negative start")
            << qsizetype(-3) << qsizetype(5) << qsizetype(0) << qsizetype(2);
        QTest::newRow("past the end") << n << qsizetype(3) << qsizetype(0) << qsizetype(0);
        QTest::newRow("none") << qsizetype(4) << qsizetype(0) << qsizetype(0) << qsizetype(0);
    }

    void mid()
    {
        QFETCH(qsizetype, pos);
        QFETCH(qsizetype, length);
        QFETCH(qsizetype, first);
        QFETCH(qsizetype, count);
        const RowList chunked = RowList::fromChunks(chunksOf({C, C, 10}));
        const RowList one(numbers(0, 2 * C + 10));
        QCOMPARE(chunked.mid(pos, length), numbers(first, count));
        QCOMPARE(one.mid(pos, length), numbers(first, count));
    }

    void equalRowsAreEqualHoweverKept()
    {
        const RowList chunked = RowList::fromChunks(chunksOf({C, C, 10}));
        const RowList one(numbers(0, 2 * C + 10));
        QCOMPARE(chunked, one);
        RowList other = one;
        other.replace(5, -1);
        QVERIFY(chunked != other);
        QVERIFY(RowList(numbers(0, 3)) != RowList(numbers(0, 4)));
    }

    void iteration()
    {
        const RowList rows = RowList::fromChunks(chunksOf({C, 3}));
        qsizetype expected = 0;
        for (const QVariant &row : rows)
            QCOMPARE(row.toLongLong(), expected++);
        QCOMPARE(expected, C + 3);
        QCOMPARE(std::distance(rows.begin(), rows.end()), C + 3);
        QCOMPARE(rows.begin()[C].toLongLong(), C);
        QCOMPARE((rows.end() - 1)->toLongLong(), C + 2);
    }

    void aVariantOfRowsConvertsToAList()
    {
        const RowList rows = RowList::fromChunks(chunksOf({C, 3}));
        const QVariant value = QVariant::fromValue(rows);
        QVERIFY(value.canConvert<QVariantList>());
        QCOMPARE(value.toList(), numbers(0, C + 3));
        QCOMPARE(value.value<QVariantList>().size(), C + 3);
        QCOMPARE(qvariant_cast<QVariantList>(value).at(C).toLongLong(), C);
        QCOMPARE(value, QVariant::fromValue(RowList(numbers(0, C + 3)))); // equal rows
        // One list converts to itself: its identity survives the QVariant.
        const QVariantList list = numbers(0, 3);
        QVERIFY(QVariant::fromValue(RowList(list)).toList().isSharedWith(list));
    }

    void rowsOfAVariant()
    {
        bool isList = false;
        const QVariantList list = numbers(0, 3);
        QCOMPARE(RowListInternals::identity(rowsOf(QVariant(list), &isList)),
                 static_cast<const void *>(list.constData()));
        QVERIFY(isList);
        const RowList rows = RowList::fromChunks(chunksOf({C, 1}));
        QVERIFY(rowsOf(QVariant::fromValue(rows), &isList).isSharedWith(rows));
        QVERIFY(isList);
        QVERIFY(rowsOf(QVariantMap {{u"a"_s, 1}}, &isList).isEmpty());
        QVERIFY(!isList);
        QVERIFY(rowsOf(QVariant(), &isList).isEmpty());
        QVERIFY(!isList);
        QVERIFY(rowsOf(QVariant(u"text"_s)).isEmpty()); // isList is optional
    }
};

QTEST_GUILESS_MAIN(tst_RowList)
#include "tst_rowlist.moc"
