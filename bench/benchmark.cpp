#include "benchmark.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace Qt::StringLiterals;

namespace Bench {

namespace {
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<std::pair<const char *, ScenarioGroup>> &groups()
{
    static std::vector<std::pair<const char *, ScenarioGroup>> all;
    return all;
}
} // namespace

void printLine(const QJsonObject &object)
{
    const QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

bool registerGroup(const char *name, ScenarioGroup group)
{
    groups().emplace_back(name, group);
    return true;
}

void runAll(Runner &runner)
{
    // Registration order depends on link order; run groups by name for stable output.
    auto all = groups();
    std::sort(all.begin(), all.end(),
              [](const auto &a, const auto &b) { return qstrcmp(a.first, b.first) < 0; });
    for (const auto &[name, group] : all)
        group(runner);
}

bool Runner::wanted(const QString &name) const
{
    if (m_options.only.isEmpty())
        return true;
    return std::any_of(m_options.only.cbegin(), m_options.only.cend(),
                       [&](const QString &part) { return name.contains(part); });
}

bool Runner::askedFor(const QString &prefix) const
{
    return std::any_of(m_options.only.cbegin(), m_options.only.cend(),
                       [&](const QString &part) { return part.startsWith(prefix); });
}

QByteArray Runner::scaleFile(const QString &name) const
{
    QFile file(QDir(m_options.scaleDir).filePath(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("dataclient-bench: cannot read %s (make it with gen-scale.mjs)",
               qPrintable(file.fileName()));
    return file.readAll();
}

QByteArray Runner::file(const QString &name)
{
    auto it = m_files.find(name);
    if (it == m_files.end()) {
        QFile file(QDir(m_options.dataDir).filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("dataclient-bench: cannot read %s (use --data DIR)",
                   qPrintable(file.fileName()));
        it = m_files.insert(name, file.readAll());
    }
    return *it;
}

void Runner::time(const QString &name, const std::function<void()> &setup,
                  const std::function<void()> &op)
{
    if (!wanted(name))
        return;
    const double warmUpMs = m_options.quick ? 200 : 1000;
    const double roundMs = m_options.quick ? 100 : 300;
    const int rounds = m_options.quick ? 5 : 11;

    // One op, timed alone (setup excluded).
    const auto once = [&]() {
        if (setup)
            setup();
        const auto start = Clock::now();
        op();
        return msSince(start);
    };
    // Warm-up, which also tells how many ops fill a round.
    double spent = 0;
    double opMs = 0;
    int warmOps = 0;
    const auto warmStart = Clock::now();
    while (msSince(warmStart) < warmUpMs || warmOps < 3) {
        opMs = once();
        spent += opMs;
        ++warmOps;
    }
    const double typicalMs = std::max(spent / warmOps, 1e-6);
    const qint64 opsPerRound = std::max<qint64>(1, qint64(roundMs / typicalMs));

    std::vector<double> perOp;
    for (int r = 0; r < rounds; ++r) {
        double total = 0;
        if (setup) {
            for (qint64 i = 0; i < opsPerRound; ++i)
                total += once();
        } else {
            // No setup: time the whole round (clock overhead stays out of sub-microsecond ops).
            const auto start = Clock::now();
            for (qint64 i = 0; i < opsPerRound; ++i)
                op();
            total = msSince(start);
        }
        perOp.push_back(total / double(opsPerRound));
    }
    std::vector<double> sorted = perOp;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    printLine(QJsonObject {{u"name"_s, name},
                           {u"ms_per_op"_s, median},
                           {u"ops_per_s"_s, median > 0 ? 1000.0 / median : 0.0},
                           {u"min_ms"_s, sorted.front()},
                           {u"max_ms"_s, sorted.back()},
                           {u"rounds"_s, rounds},
                           {u"ops_per_round"_s, opsPerRound}});
}

void Runner::memory(const QString &name, qint64 bytes)
{
    if (!wanted(name))
        return;
    printLine(QJsonObject {{u"name"_s, name}, {u"bytes"_s, bytes}, {u"mb"_s, double(bytes) / 1e6}});
}

void Runner::report(const QJsonObject &line)
{
    if (wanted(line.value(u"name"_s).toString()))
        printLine(line);
}

void Runner::fail(const QString &name, const QString &what)
{
    ++m_failures;
    printLine(QJsonObject {{u"name"_s, name}, {u"error"_s, what}});
}

qint64 Runner::heapInUse()
{
    const struct mallinfo2 info = mallinfo2();
    return qint64(info.uordblks + info.hblkhd);
}

} // namespace Bench
