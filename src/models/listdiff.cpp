#include "listdiff_p.h"

#include <QtCore/QHash>

#include <algorithm>
#include <vector>

namespace DataClient::Models {

namespace {

// Marks the members of one longest strictly increasing subsequence of `values` (patience sorting,
// O(n log n)). Rows in it keep their place; only the others move, so a single moved row gives a
// single one-row move however long the list is.
std::vector<bool> longestIncreasing(const QList<int> &values)
{
    const qsizetype n = values.size();
    std::vector<qsizetype> tailIndex; // tailIndex[len-1]: index ending the best run of length len
    std::vector<qsizetype> previous(size_t(n), -1);
    for (qsizetype i = 0; i < n; ++i) {
        const auto pos
            = std::lower_bound(tailIndex.begin(), tailIndex.end(), values[i],
                               [&](qsizetype index, int v) { return values[index] < v; });
        if (pos != tailIndex.begin())
            previous[size_t(i)] = *(pos - 1);
        if (pos == tailIndex.end())
            tailIndex.push_back(i);
        else
            *pos = i;
    }
    std::vector<bool> member(size_t(n), false);
    for (qsizetype i = tailIndex.empty() ? -1 : tailIndex.back(); i >= 0; i = previous[size_t(i)])
        member[size_t(i)] = true;
    return member;
}

void appendRemovals(QList<ListDiffStep> &steps, const QStringList &oldKeys,
                    const QHash<QString, int> &newIndex, QList<int> &survivors)
{
    // From the end, so earlier row numbers stay valid while the steps are applied.
    int runLast = -1;
    for (int i = int(oldKeys.size()) - 1; i >= -1; --i) {
        const bool removed = i >= 0 && !newIndex.contains(oldKeys.at(i));
        if (removed) {
            if (runLast < 0)
                runLast = i;
            continue;
        }
        if (runLast >= 0) {
            steps.append({ListDiffStep::Remove, i + 1, runLast, 0});
            runLast = -1;
        }
        if (i >= 0)
            survivors.prepend(newIndex.value(oldKeys.at(i)));
    }
}

void appendMoves(QList<ListDiffStep> &steps, QList<int> current, int newCount)
{
    // current: the new positions of the surviving rows, in their present order. Each row outside
    // the increasing subsequence moves to just after the row that precedes it in the new order;
    // such placements never separate a pair placed earlier, so the end order is the new order.
    const std::vector<bool> inRun = longestIncreasing(current);
    std::vector<bool> stays(size_t(newCount), false);
    for (qsizetype i = 0; i < current.size(); ++i)
        stays[size_t(current.at(i))] = inRun[size_t(i)];
    QList<int> target = current;
    std::sort(target.begin(), target.end());

    for (qsizetype t = 0; t < target.size(); ++t) {
        if (stays[size_t(target.at(t))])
            continue;
        const int from = int(current.indexOf(target.at(t)));
        const int to = t == 0 ? 0 : int(current.indexOf(target.at(t - 1))) + 1;
        // Following rows that also move and already sit right behind this one go along.
        int count = 1;
        while (t + count < target.size() && !stays[size_t(target.at(t + count))]
               && from + count < current.size() && current.at(from + count) == target.at(t + count))
            ++count;
        t += count - 1;
        if (to >= from && to <= from + count)
            continue; // already in place
        steps.append({ListDiffStep::Move, from, from + count - 1, to});
        const QList<int> block = current.mid(from, count);
        current.remove(from, count);
        const int insertAt = to > from ? to - count : to;
        for (int k = 0; k < count; ++k)
            current.insert(insertAt + k, block.at(k));
    }
}

void appendInsertions(QList<ListDiffStep> &steps, const QStringList &newKeys,
                      const QHash<QString, int> &oldIndex)
{
    int runFirst = -1;
    for (int j = 0; j <= int(newKeys.size()); ++j) {
        const bool inserted = j < newKeys.size() && !oldIndex.contains(newKeys.at(j));
        if (inserted) {
            if (runFirst < 0)
                runFirst = j;
        } else if (runFirst >= 0) {
            steps.append({ListDiffStep::Insert, runFirst, j - 1, 0});
            runFirst = -1;
        }
    }
}

} // namespace

QList<ListDiffStep> diffListKeys(const QStringList &oldKeys, const QStringList &newKeys)
{
    QList<ListDiffStep> steps;
    if (oldKeys == newKeys)
        return steps;
    QHash<QString, int> newIndex;
    newIndex.reserve(newKeys.size());
    for (int j = 0; j < newKeys.size(); ++j)
        newIndex.insert(newKeys.at(j), j);
    QHash<QString, int> oldIndex;
    oldIndex.reserve(oldKeys.size());
    for (int i = 0; i < oldKeys.size(); ++i)
        oldIndex.insert(oldKeys.at(i), i);

    QList<int> survivors;
    survivors.reserve(oldKeys.size());
    appendRemovals(steps, oldKeys, newIndex, survivors);
    appendMoves(steps, survivors, int(newKeys.size()));
    appendInsertions(steps, newKeys, oldIndex);
    return steps;
}

QStringList applyListDiff(QStringList keys, const QList<ListDiffStep> &steps,
                          const QStringList &newKeys)
{
    for (const ListDiffStep &step : steps) {
        const int count = step.last - step.first + 1;
        switch (step.kind) {
        case ListDiffStep::Remove:
            keys.remove(step.first, count);
            break;
        case ListDiffStep::Insert:
            for (int k = 0; k < count; ++k)
                keys.insert(step.first + k, newKeys.at(step.first + k));
            break;
        case ListDiffStep::Move: {
            const QStringList block = keys.mid(step.first, count);
            keys.remove(step.first, count);
            const int insertAt
                = step.destination > step.first ? step.destination - count : step.destination;
            for (int k = 0; k < count; ++k)
                keys.insert(insertAt + k, block.at(k));
            break;
        }
        }
    }
    return keys;
}

void uniqueRowKeys(QStringList &keys)
{
    // Usually there are no repeats: find them by sorting hashes (integers) rather than by
    // inserting every key into a hash table, which costs allocations and cache misses on 10k rows.
    const qsizetype n = keys.size();
    std::vector<std::pair<size_t, qsizetype>> order(static_cast<size_t>(n));
    for (qsizetype i = 0; i < n; ++i)
        order[size_t(i)] = {qHash(keys.at(i)), i};
    std::sort(order.begin(), order.end());
    std::vector<qsizetype> repeats; // indices of keys equal to an earlier key
    for (size_t a = 0; a < order.size();) {
        size_t b = a + 1;
        while (b < order.size() && order[b].first == order[a].first)
            ++b;
        // [a, b) share a hash, in index order: any key equal to an earlier one is a repeat.
        for (size_t i = a + 1; i < b; ++i) {
            for (size_t j = a; j < i; ++j) {
                if (keys.at(order[i].second) == keys.at(order[j].second)) {
                    repeats.push_back(order[i].second);
                    break;
                }
            }
        }
        a = b;
    }
    if (repeats.empty())
        return;
    std::sort(repeats.begin(), repeats.end());
    QHash<QString, int> seen;
    for (qsizetype index : repeats) {
        QString &key = keys[index];
        const int occurrence = ++seen[key];
        key += QChar(0x1f) + QString::number(occurrence);
    }
}

} // namespace DataClient::Models
