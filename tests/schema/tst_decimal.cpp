// Decimal: exact arbitrary-precision arithmetic.
#include <DataClient/decimal.h>

#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

class tst_Decimal : public QObject
{
    Q_OBJECT

    static Decimal d(const char *text)
    {
        const auto value = Decimal::fromString(QString::fromLatin1(text));
        Q_ASSERT_X(value, "d()", text);
        return *value;
    }

private Q_SLOTS:
    void exactSums()
    {
        QCOMPARE(d("0.1") + d("0.2"), d("0.3"));
        QCOMPARE((d("0.1") + d("0.2")).toString(), u"0.3"_s);
        QVERIFY(0.1 + 0.2 != 0.3); // what doubles would have given
        QCOMPARE((d("1.10") - d("0.1")).toString(), u"1.00"_s);
        QCOMPARE((d("1.5") * d("-2.25")).toString(), u"-3.375"_s);
        QCOMPARE((d("123456789012345678901234567890.5") + d("1")).toString(),
                 u"123456789012345678901234567891.5"_s);
        Decimal sum;
        for (int i = 0; i < 10; ++i)
            sum += d("0.1");
        QCOMPARE(sum, Decimal(1));
    }

    void parsingAndFormatting_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("output");
        QTest::newRow("integer") << u"42"_s << u"42"_s;
        QTest::newRow("keeps scale") << u"12.340"_s << u"12.340"_s;
        QTest::newRow("negative") << u"-0.5"_s << u"-0.5"_s;
        QTest::newRow("plus") << u"+7"_s << u"7"_s;
        QTest::newRow("leading point") << u".25"_s << u"0.25"_s;
        QTest::newRow("exponent") << u"1e-3"_s << u"0.001"_s;
        QTest::newRow("positive exponent") << u"1.5E+2"_s << u"150"_s;
    }
    void parsingAndFormatting()
    {
        QFETCH(QString, input);
        QFETCH(QString, output);
        const auto value = Decimal::fromString(input);
        QVERIFY(value);
        QCOMPARE(value->toString(), output);
    }

    void rejectsBadText_data()
    {
        QTest::addColumn<QString>("input");
        for (const char *bad :
             {"", "abc", "1,5", "1.2.3", " 1", "1 ", "--1", "1e", "NaN", "1e99999", "0x10"})
            QTest::newRow(bad) << QString::fromLatin1(bad);
    }
    void rejectsBadText()
    {
        QFETCH(QString, input);
        QVERIFY(!Decimal::fromString(input));
    }

    void comparisons()
    {
        QCOMPARE(d("1.50"), d("1.5"));
        QVERIFY(d("-2") < d("1"));
        QVERIFY(d("0.10") > d("0.09"));
        QVERIFY(d("0").isZero());
        QVERIFY(d("-0.1").isNegative());
        QCOMPARE(d("2.50").scale(), 2);
        QCOMPARE(d("2.5").toDouble(), 2.5);
    }

    void inQVariant()
    {
        const QVariant value = QVariant::fromValue(d("9.99"));
        QCOMPARE(value.value<Decimal>(), d("9.990"));
        QCOMPARE(value.toString(), u"9.99"_s); // registered converter, for views and QML
        QCOMPARE(value, QVariant::fromValue(d("9.99")));
    }
};

QTEST_GUILESS_MAIN(tst_Decimal)
#include "tst_decimal.moc"
