// EntityTable: the pk index. find() is exact; guess(), what a long list's repeated authors are
// looked up with (it does not wait for the slot's pk; a fingerprint checks the slot), names the
// same slot for nearly every pk and never a slot the table does not have.
#include "tables_p.h"

#include <QTest>

using namespace DataClient::detail;
using namespace Qt::StringLiterals;

class tst_EntityTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emptyTableFindsAndGuessesNothing()
    {
        const EntityTable table(u"Todo"_s, 0);
        QCOMPARE(table.find(u"1"), -1);
        QCOMPARE(table.guess(u"1"), -1);
    }

    void guessIsTheSlotForNearlyEveryPk_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<int>("count");
        QTest::newRow("integer ids") << QString() << 10000;
        QTest::newRow("string ids") << u"user-"_s << 10000;
        QTest::newRow("a few") << QString() << 5;
    }
    void guessIsTheSlotForNearlyEveryPk()
    {
        QFETCH(QString, prefix);
        QFETCH(int, count);
        EntityTable table(u"Todo"_s, 0);
        for (int i = 1; i <= count; ++i)
            QCOMPARE(table.findOrAdd(prefix + QString::number(i)), quint32(i - 1));
        int same = 0;
        for (int i = 1; i <= count; ++i) {
            const QString pk = prefix + QString::number(i);
            QCOMPARE(table.find(pk), qint64(i - 1));
            const qint64 guessed = table.guess(pk);
            QVERIFY2(
                guessed >= 0 && guessed < count,
                qPrintable(u"guess(%1) gave %2 of %3 slots"_s.arg(pk).arg(guessed).arg(count)));
            same += guessed == i - 1 ? 1 : 0;
        }
        // A wrong guess needs another pk with the same six hash bits earlier on the probe path.
        QVERIFY2(
            same * 100 >= count * 97,
            qPrintable(u"guess() named the right slot for %1 of %2 pks"_s.arg(same).arg(count)));
    }

    void absentPkIsNotFoundAndItsGuessIsInRange()
    {
        EntityTable table(u"Todo"_s, 0);
        for (int i = 1; i <= 1000; ++i)
            table.findOrAdd(QString::number(i));
        int none = 0;
        for (int i = 1; i <= 1000; ++i) {
            const QString pk = u"absent-"_s + QString::number(i);
            QCOMPARE(table.find(pk), -1);
            const qint64 guessed = table.guess(pk);
            QVERIFY(guessed >= -1 && guessed < 1000);
            none += guessed == -1 ? 1 : 0;
        }
        QVERIFY2(none * 100 >= 1000 * 90,
                 qPrintable(u"%1 of 1000 absent pks guessed -1"_s.arg(none)));
    }
};

QTEST_GUILESS_MAIN(tst_EntityTable)
#include "tst_entitytable.moc"
