// The list diff that gives every DataClient model its precise signals (src/models/listdiff_p.h).
#include "listdiff_p.h"

#include <QtCore/QRandomGenerator>
#include <QTest>

using namespace DataClient::Models;
using namespace Qt::StringLiterals;

namespace {

QStringList keys(const char *letters)
{
    QStringList list;
    for (const char *c = letters; *c; ++c)
        list.append(QString(QChar::fromLatin1(*c)));
    return list;
}

int countKind(const QList<ListDiffStep> &steps, ListDiffStep::Kind kind)
{
    return int(std::count_if(steps.begin(), steps.end(),
                             [kind](const ListDiffStep &s) { return s.kind == kind; }));
}

// Every step must be one a QAbstractItemModel accepts for a list of the current size.
bool stepsAreValid(QStringList list, const QList<ListDiffStep> &steps, const QStringList &newKeys)
{
    for (const ListDiffStep &step : steps) {
        if (step.first < 0 || step.last < step.first)
            return false;
        switch (step.kind) {
        case ListDiffStep::Remove:
        case ListDiffStep::Move:
            if (step.last >= list.size())
                return false;
            if (step.kind == ListDiffStep::Move
                && ((step.destination >= step.first && step.destination <= step.last + 1)
                    || step.destination < 0 || step.destination > list.size()))
                return false;
            break;
        case ListDiffStep::Insert:
            if (step.first > list.size())
                return false;
            break;
        }
        list = applyListDiff(list, {step}, newKeys);
    }
    return true;
}

} // namespace

namespace DataClient::Models {
char *toString(const ListDiffStep &step)
{
    static const char *names[] = {"Remove", "Move", "Insert"};
    const QByteArray text = QByteArray(names[step.kind]) + '(' + QByteArray::number(step.first)
        + ".." + QByteArray::number(step.last) + " -> " + QByteArray::number(step.destination)
        + ')';
    return qstrdup(text.constData());
}
} // namespace DataClient::Models

class tst_ListDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void identicalListsGiveNoSteps()
    {
        QVERIFY(diffListKeys(keys("abcd"), keys("abcd")).isEmpty());
        QVERIFY(diffListKeys({}, {}).isEmpty());
    }

    void smallestSteps_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QList<ListDiffStep>>("expected");
        using S = ListDiffStep;
        QTest::newRow("one removed") << u"abcde"_s << u"abde"_s << QList<S> {{S::Remove, 2, 2, 0}};
        QTest::newRow("run removed") << u"abcde"_s << u"ae"_s << QList<S> {{S::Remove, 1, 3, 0}};
        QTest::newRow("two runs removed, last first")
            << u"abcde"_s << u"bd"_s
            << QList<S> {{S::Remove, 4, 4, 0}, {S::Remove, 2, 2, 0}, {S::Remove, 0, 0, 0}};
        QTest::newRow("pushed") << u"abc"_s << u"abcd"_s << QList<S> {{S::Insert, 3, 3, 0}};
        QTest::newRow("unshifted") << u"abc"_s << u"zabc"_s << QList<S> {{S::Insert, 0, 0, 0}};
        QTest::newRow("page appended")
            << u"abc"_s << u"abcdef"_s << QList<S> {{S::Insert, 3, 5, 0}};
        QTest::newRow("into empty") << u""_s << u"ab"_s << QList<S> {{S::Insert, 0, 1, 0}};
        QTest::newRow("all gone") << u"ab"_s << u""_s << QList<S> {{S::Remove, 0, 1, 0}};
        QTest::newRow("last to front") << u"abcde"_s << u"eabcd"_s << QList<S> {{S::Move, 4, 4, 0}};
        QTest::newRow("first to end") << u"abcde"_s << u"bcdea"_s << QList<S> {{S::Move, 0, 0, 5}};
        QTest::newRow("adjacent swap") << u"abcd"_s << u"acbd"_s << QList<S> {{S::Move, 1, 1, 3}};
        QTest::newRow("block moves together")
            << u"abcdef"_s << u"aefbcd"_s << QList<S> {{S::Move, 4, 5, 1}};
        QTest::newRow("replace one")
            << u"abc"_s << u"axc"_s << QList<S> {{S::Remove, 1, 1, 0}, {S::Insert, 1, 1, 0}};
    }
    void smallestSteps()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QList<ListDiffStep>, expected);
        const QStringList oldKeys = keys(before.toLatin1().constData());
        const QStringList newKeys = keys(after.toLatin1().constData());
        const QList<ListDiffStep> steps = diffListKeys(oldKeys, newKeys);
        QCOMPARE(steps, expected);
        QCOMPARE(applyListDiff(oldKeys, steps, newKeys), newKeys);
    }

    void reversalMovesAllButOne()
    {
        const QStringList oldKeys = keys("abcdefgh");
        QStringList newKeys = oldKeys;
        std::reverse(newKeys.begin(), newKeys.end());
        const auto steps = diffListKeys(oldKeys, newKeys);
        QCOMPARE(countKind(steps, ListDiffStep::Remove), 0);
        QCOMPARE(countKind(steps, ListDiffStep::Insert), 0);
        QCOMPARE(steps.size(), 7); // a longest increasing run of a reversal has length 1
        QVERIFY(stepsAreValid(oldKeys, steps, newKeys));
        QCOMPARE(applyListDiff(oldKeys, steps, newKeys), newKeys);
    }

    void mixedChangesApplyExactly()
    {
        const QStringList oldKeys = keys("abcdefghij");
        const QStringList newKeys = keys("xjbcyaehz");
        const auto steps = diffListKeys(oldKeys, newKeys);
        QVERIFY(stepsAreValid(oldKeys, steps, newKeys));
        QCOMPARE(applyListDiff(oldKeys, steps, newKeys), newKeys);
        // removals first, insertions last
        const auto firstMoveOrInsert = std::find_if(steps.begin(), steps.end(), [](const auto &s) {
            return s.kind != ListDiffStep::Remove;
        });
        QVERIFY(std::all_of(firstMoveOrInsert, steps.end(),
                            [](const auto &s) { return s.kind != ListDiffStep::Remove; }));
        QCOMPARE(countKind(steps, ListDiffStep::Insert), 3); // x, y and z: three separate runs
    }

    void randomListsApplyExactly()
    {
        // Seeded: every run checks the same 300 cases.
        QRandomGenerator random(42);
        for (int round = 0; round < 300; ++round) {
            QStringList pool;
            for (int i = 0; i < 40; ++i)
                pool.append(QString::number(i));
            QStringList oldKeys, newKeys;
            for (const QString &key : pool) {
                if (random.bounded(3) != 0)
                    oldKeys.append(key);
                if (random.bounded(3) != 0)
                    newKeys.append(key);
            }
            std::shuffle(oldKeys.begin(), oldKeys.end(), random);
            if (round % 2 == 0) // half the rounds: a nearly sorted new list
                std::shuffle(newKeys.begin(), newKeys.end(), random);
            const auto steps = diffListKeys(oldKeys, newKeys);
            QVERIFY2(stepsAreValid(oldKeys, steps, newKeys), qPrintable(QString::number(round)));
            QCOMPARE(applyListDiff(oldKeys, steps, newKeys), newKeys);
        }
    }

    void largeListOneMoveIsOneStep()
    {
        QStringList oldKeys;
        for (int i = 0; i < 10000; ++i)
            oldKeys.append(QString::number(i));
        QStringList newKeys = oldKeys;
        newKeys.move(9000, 10);
        const auto steps = diffListKeys(oldKeys, newKeys);
        QCOMPARE(steps, (QList<ListDiffStep> {{ListDiffStep::Move, 9000, 9000, 10}}));
    }

    void repeatsAreNumberedInListOrder()
    {
        QStringList list {u"a"_s, u"b"_s, u"a"_s, u"c"_s, u"b"_s, u"a"_s};
        uniqueRowKeys(list);
        const QChar mark(0x1f);
        QCOMPARE(list,
                 (QStringList {u"a"_s, u"b"_s, u"a"_s + mark + u"1"_s, u"c"_s,
                               u"b"_s + mark + u"1"_s, u"a"_s + mark + u"2"_s}));
        QStringList none {u"x"_s, u"y"_s, u"z"_s};
        uniqueRowKeys(none);
        QCOMPARE(none, (QStringList {u"x"_s, u"y"_s, u"z"_s}));
    }

    void repeatedKeysBecomeUnique()
    {
        QStringList list {u"5"_s, u"3"_s, u"5"_s, u"5"_s};
        uniqueRowKeys(list);
        QCOMPARE(QSet<QString>(list.begin(), list.end()).size(), 4);
        QCOMPARE(list.at(0), u"5"_s);
        QCOMPARE(list.at(1), u"3"_s);
        // Occurrences are told apart by their order, so the diff stays exact.
        QStringList after {u"3"_s, u"5"_s, u"5"_s};
        uniqueRowKeys(after);
        const auto steps = diffListKeys(list, after);
        QCOMPARE(applyListDiff(list, steps, after), after);
    }
};

QTEST_GUILESS_MAIN(tst_ListDiff)
#include "tst_listdiff.moc"
