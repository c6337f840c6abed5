// CompactKey: a pk stored inline (Latin-1, up to 15 characters) or on the heap hashes and
// compares the same as its UTF-16 text at every length, every character of a key reaches its
// hash, and ids spread over an index. (A hash reading four characters at a time was tried
// against these: it read back the characters pkView() had just stored one by one, and a list of
// 1M got slower; docs/performance.md.)
#include "compactkey_p.h"

#include <QTest>

#include <set>

using namespace DataClient::detail;
using namespace Qt::StringLiterals;

class tst_CompactKey : public QObject
{
    Q_OBJECT

    //! A key of \a length characters cycling through \a alphabet.
    static QString keyOf(qsizetype length, QStringView alphabet)
    {
        QString key;
        for (qsizetype i = 0; i < length; ++i)
            key.append(alphabet[(i * 7 + 3) % alphabet.size()]);
        return key;
    }

private Q_SLOTS:
    void sameHashAndTextHoweverStored_data()
    {
        QTest::addColumn<QString>("key");
        const QString digits = u"0123456789"_s;
        const QString latin1 = u"abcXYZ-_é\u00ff"_s;
        const QString wide = u"aβγ\u4e2d\u0100z"_s;
        for (int length = 0; length <= 40; ++length) {
            QTest::addRow("digits, %d", length) << keyOf(length, digits);
            QTest::addRow("Latin-1, %d", length) << keyOf(length, latin1);
            QTest::addRow("beyond Latin-1, %d", length) << keyOf(length, wide);
        }
    }
    void sameHashAndTextHoweverStored()
    {
        QFETCH(QString, key);
        const CompactKey stored(key);
        QCOMPARE(stored.hash(), CompactKey::hash(key));
        QCOMPARE(stored.toString(), key);
        QVERIFY(stored.equals(key));
        QVERIFY(!stored.equals(key + u'x'));
        const CompactKey copy(stored);
        QCOMPARE(copy.hash(), stored.hash());
        CompactKey source(key);
        const CompactKey moved(std::move(source));
        QCOMPARE(moved.hash(), stored.hash());
        QVERIFY(moved.equals(key));
    }

    void everyCharacterReachesTheHash_data()
    {
        QTest::addColumn<int>("length");
        for (int length : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 36, 40})
            QTest::addRow("%d characters", length) << length;
    }
    void everyCharacterReachesTheHash()
    {
        QFETCH(int, length);
        const QString key = keyOf(length, u"0123456789abcdef");
        const size_t hash = CompactKey::hash(key);
        for (int at = 0; at < length; ++at) {
            QString changed = key;
            changed[at] = QChar(changed[at].unicode() ^ 1);
            if (CompactKey::hash(changed) == hash)
                QFAIL(qPrintable(
                    u"changing character %1 of %2 left the hash as it was"_s.arg(at).arg(key)));
        }
        // the same characters, one more or one fewer
        QVERIFY(CompactKey::hash(key + u'0') != hash);
        QVERIFY(CompactKey::hash(key.left(length - 1)) != hash);
    }

    void idsSpreadOverTheIndex()
    {
        // What a table of 100k todos addresses: no two of the ids share a hash, and the low bits
        // an index of 2^18 entries is addressed with are spread (no bucket holds many).
        std::set<size_t> hashes;
        std::vector<int> buckets(1 << 18);
        int fullest = 0;
        for (int id = 1; id <= 100000; ++id) {
            const size_t hash = CompactKey::hash(QString::number(id));
            hashes.insert(hash);
            fullest = std::max(fullest, ++buckets[hash & (buckets.size() - 1)]);
        }
        QCOMPARE(hashes.size(), size_t(100000));
        QVERIFY2(fullest <= 8, qPrintable(u"a bucket holds %1 ids"_s.arg(fullest)));
    }
};

QTEST_APPLESS_MAIN(tst_CompactKey)
#include "tst_compactkey.moc"
