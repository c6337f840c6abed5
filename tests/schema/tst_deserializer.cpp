// Field deserializers: ISO 8601 date-times, decimals, custom functions.
#include <DataClient/decimal.h>
#include <DataClient/deserializer.h>

#include <QTest>

#include "utcdatetime.h"

using namespace DataClient;
using namespace Qt::StringLiterals;

class tst_Deserializer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void dateTimes_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QDateTime>("expected");
        const QDate day(2023, 5, 15);
        QTest::newRow("utc ms") << u"2023-05-15T15:36:43.144Z"_s
                                << utcDateTime(day, QTime(15, 36, 43, 144));
        QTest::newRow("no ms") << u"2023-05-15T15:36:43Z"_s << utcDateTime(day, QTime(15, 36, 43));
        QTest::newRow("offset") << u"2023-05-15T17:36:43+02:00"_s
                                << utcDateTime(day, QTime(15, 36, 43));
        QTest::newRow("negative offset")
            << u"2023-05-15T10:36-0500"_s << utcDateTime(day, QTime(15, 36));
        QTest::newRow("microseconds rounded")
            << u"2023-05-15T15:36:43.144599Z"_s << utcDateTime(day, QTime(15, 36, 43, 145));
        QTest::newRow("date only") << u"2023-05-15"_s << utcDateTime(day, QTime(0, 0));
        QTest::newRow("leap day") << u"2024-02-29T00:00:00Z"_s
                                  << utcDateTime(QDate(2024, 2, 29), QTime(0, 0));
        QTest::newRow("before 1970") << u"1969-12-31T23:59:59.999Z"_s
                                     << utcDateTime(QDate(1969, 12, 31), QTime(23, 59, 59, 999));
    }
    void dateTimes()
    {
        QFETCH(QString, input);
        QFETCH(QDateTime, expected);
        const QVariant value = Deserialize::dateTime()(QJsonValue(input));
        QCOMPARE(value.typeId(), QMetaType::QDateTime);
        QCOMPARE(value.toDateTime(), expected);
        QCOMPARE(value.toDateTime().toMSecsSinceEpoch(), expected.toMSecsSinceEpoch());
        // the same as Qt's own reader
        QCOMPARE(value.toDateTime(), QDateTime::fromString(input, Qt::ISODateWithMs).toUTC());
    }

    void badDateTimes_data()
    {
        QTest::addColumn<QJsonValue>("input");
        for (const char *bad :
             {"", "yesterday", "2023-13-01", "2023-02-29", "2023-05-15T25:00:00Z",
              "2023-05-15T15:36:43.Z", "2023-05-15T15:36:43Zjunk", "2023-02-30T00:00:00.000Z",
              "2023-05-15T15:36:43.1a4Z", "2023-05-15T24:00:00.000Z", "2023-05-15 15:36:43.144Y",
              "15/05/2023", "2023-5-15"})
            QTest::newRow(bad) << QJsonValue(QString::fromLatin1(bad));
        QTest::newRow("number") << QJsonValue(5);
        QTest::newRow("object") << QJsonValue(QJsonObject {{u"a"_s, 1}});
    }
    void badDateTimes()
    {
        QFETCH(QJsonValue, input);
        QVERIFY(!Deserialize::dateTime()(input).isValid());
        QVERIFY(!Deserialize::dateTime().accepts(input));
        QVERIFY(Deserialize::dateTime().expected().contains(u"ISO 8601"_s));
    }

    void decimals()
    {
        QCOMPARE(Deserialize::decimal()(QJsonValue(u"0.10"_s)).value<Decimal>().toString(),
                 u"0.10"_s);
        QCOMPARE(Deserialize::decimal()(QJsonValue(0.1)).value<Decimal>().toString(), u"0.1"_s);
        QVERIFY(!Deserialize::decimal()(QJsonValue(u"ten"_s)).isValid());
        QVERIFY(!Deserialize::decimal()(QJsonValue(true)).isValid());
    }

    void nullStaysNull()
    {
        for (const Deserializer &d :
             {Deserialize::dateTime(), Deserialize::decimal(), Deserializer()}) {
            const QVariant value = d(QJsonValue(QJsonValue::Null));
            QVERIFY(value.isValid());
            QVERIFY(value.isNull());
        }
    }

    // Built-in means library code, safe on a worker; the description does not make one built-in.
    void builtInIsKnownByIdentityNotByDescription()
    {
        QVERIFY(Deserialize::dateTime().isBuiltIn());
        QVERIFY(Deserialize::decimal().isBuiltIn());
        const Deserializer copy = Deserialize::dateTime();
        QVERIFY(copy.isBuiltIn());
        QVERIFY(!Deserializer().isBuiltIn());
        const Deserializer lookalike = Deserialize::custom(
            Deserialize::dateTime().expected(), [](const QJsonValue &v) { return v.toVariant(); });
        QVERIFY(!lookalike.isBuiltIn());
    }

    void customAndNone()
    {
        const Deserializer upper = Deserialize::custom(u"a string"_s, [](const QJsonValue &value) {
            return value.isString() ? QVariant(value.toString().toUpper()) : QVariant();
        });
        QCOMPARE(upper(QJsonValue(u"abc"_s)), QVariant(u"ABC"_s));
        QVERIFY(!upper.accepts(QJsonValue(1)));
        QCOMPARE(upper.expected(), u"a string"_s);
        const Deserializer none;
        QVERIFY(none.isNull());
        QCOMPARE(none(QJsonValue(u"2023-05-15"_s)),
                 QVariant(u"2023-05-15"_s)); // keeps the serialized form
    }
};

QTEST_GUILESS_MAIN(tst_Deserializer)
#include "tst_deserializer.moc"
