// Timing single operations measured by the scenario itself (from a call to a signal, say): a
// warm-up, then rounds of ops; the figure is the median of the rounds' medians (q.model.*).
#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QString>

#include <algorithm>
#include <functional>
#include <vector>

namespace Bench {

inline double medianOf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

//! Runs \a op (which returns its own ms) \a warmUp times, then \a rounds × \a perRound times.
//! Returns the JSON line's figures: name, ms_per_op, min_ms, max_ms (of the round medians),
//! worst_op_ms, rounds, ops_per_round.
inline QJsonObject timeOpRounds(const QString &name, int warmUp, int rounds, int perRound,
                                const std::function<double()> &op)
{
    for (int i = 0; i < warmUp; ++i)
        op();
    std::vector<double> roundMedians;
    double worst = 0;
    for (int r = 0; r < rounds; ++r) {
        std::vector<double> ops;
        for (int i = 0; i < perRound; ++i) {
            ops.push_back(op());
            worst = std::max(worst, ops.back());
        }
        roundMedians.push_back(medianOf(ops));
    }
    std::sort(roundMedians.begin(), roundMedians.end());
    return {{QStringLiteral("name"), name},
            {QStringLiteral("ms_per_op"), medianOf(roundMedians)},
            {QStringLiteral("min_ms"), roundMedians.front()},
            {QStringLiteral("max_ms"), roundMedians.back()},
            {QStringLiteral("worst_op_ms"), worst},
            {QStringLiteral("rounds"), rounds},
            {QStringLiteral("ops_per_round"), perRound}};
}

} // namespace Bench
