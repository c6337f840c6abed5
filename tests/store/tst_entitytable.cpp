// EntityTable: the pk index. find() is exact; guess(), what a long list's repeated authors are
// looked up with (it does not wait for the slot's pk; a fingerprint checks the slot), names the
// same slot for nearly every pk and never a slot the table does not have. Released slots are
// forgotten by the index and taken by new pks, so a table whose pks churn stays the size of
// what it holds; reserve() grows the slots geometrically.
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

    void releasedSlotsAreForgottenAndTakenByNewPks()
    {
        EntityTable table(u"Todo"_s, 0);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(table.findOrAdd(QString::number(i)), quint32(i));
        std::vector<quint32> dead;
        for (quint32 slot = 10; slot < 60; ++slot)
            dead.push_back(slot);
        table.release(dead);
        QCOMPARE(table.liveSlots(), size_t(50));
        for (int i = 0; i < 100; ++i) {
            const bool released = i >= 10 && i < 60;
            QCOMPARE(table.find(QString::number(i)), released ? -1 : qint64(i));
        }
        // New pks take the released slots, lowest first; the table does not grow.
        for (int i = 0; i < 50; ++i) {
            const QString pk = u"new-"_s + QString::number(i);
            const quint32 slot = table.findOrAdd(pk);
            QCOMPARE(slot, quint32(10 + i));
            QVERIFY(table.slots[slot].pk.equals(pk));
            QVERIFY(!table.slots[slot].released);
        }
        QCOMPARE(table.slots.size(), size_t(100));
        // A released pk added again is a new entity like any other.
        const quint32 again = table.findOrAdd(u"20"_s);
        QCOMPARE(again, quint32(100));
        QCOMPARE(table.find(u"20"), qint64(100));
        for (int i = 0; i < 50; ++i)
            QCOMPARE(table.find(u"new-"_s + QString::number(i)), qint64(10 + i));
    }

    void releasedSlotsAtTheEndShortenTheTable()
    {
        EntityTable table(u"Todo"_s, 0);
        for (int i = 0; i < 1000; ++i)
            table.findOrAdd(QString::number(i));
        std::vector<quint32> dead;
        for (quint32 slot = 5; slot < 1000; ++slot)
            dead.push_back(slot);
        table.release(dead);
        QCOMPARE(table.slots.size(), size_t(5));
        QCOMPARE(table.releasedSlots(), size_t(0));
        QVERIFY2(table.indexBytes() <= 64 * sizeof(quint32),
                 qPrintable(u"an index of %1 bytes for 5 pks"_s.arg(table.indexBytes())));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(table.find(QString::number(i)), qint64(i));
        QCOMPARE(table.find(u"999"), -1);
        QCOMPARE(table.findOrAdd(u"999"), quint32(5));
    }

    void aTableOfChurningPksStaysTheSizeOfWhatItHolds()
    {
        // A feed: every round brings 50 new pks; those older than six rounds are released.
        EntityTable table(u"Todo"_s, 0);
        constexpr int PerRound = 50, Window = 6;
        std::vector<std::vector<quint32>> rounds;
        for (int round = 0; round < 2000; ++round) {
            table.reserve(PerRound);
            std::vector<quint32> added;
            for (int i = 0; i < PerRound; ++i)
                added.push_back(table.findOrAdd(QString::number(round * PerRound + i)));
            rounds.push_back(added);
            if (round >= Window)
                table.release(rounds[size_t(round - Window)]);
        }
        const size_t live = size_t(Window * PerRound);
        QCOMPARE(table.liveSlots(), live);
        QVERIFY2(table.slots.size() <= 2 * live,
                 qPrintable(u"%1 slots for %2 pks"_s.arg(table.slots.size()).arg(live)));
        QVERIFY2(
            table.indexBytes() <= 8 * live * sizeof(quint32),
            qPrintable(u"an index of %1 bytes for %2 pks"_s.arg(table.indexBytes()).arg(live)));
        for (int pk = 0; pk < 2000 * PerRound; ++pk) {
            const bool held = pk >= (2000 - Window) * PerRound;
            QCOMPARE(table.find(QString::number(pk)) >= 0, held);
        }
    }

    void reserveGrowsTheSlotsGeometrically()
    {
        // 2000 writes of 50 new entities each: a reserve of exactly size() + 50 copied the whole
        // table on every write.
        EntityTable table(u"Todo"_s, 0);
        int reallocations = 0;
        for (int write = 0; write < 2000; ++write) {
            const size_t capacity = table.slots.capacity();
            table.reserve(50);
            for (int i = 0; i < 50; ++i)
                table.findOrAdd(QString::number(write * 50 + i));
            reallocations += table.slots.capacity() != capacity ? 1 : 0;
        }
        QVERIFY2(
            reallocations <= 30, // 20 at 1.5x
            qPrintable(u"the slots were reallocated %1 times in 2000 writes"_s.arg(reallocations)));
    }
};

QTEST_GUILESS_MAIN(tst_EntityTable)
#include "tst_entitytable.moc"
