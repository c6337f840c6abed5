// Scenario g.feed.churn.day (docs/memory.md, docs/performance.md): a watched feed whose every
// poll brings ids never seen before (a log, an activity feed, search results), through a
// Controller on a clock the scenario moves itself (no network: a poll's answer is committed with
// setResponse(), exactly what the poll would commit).
//   g.feed.churn.day  one poll a second for 24 h (86 400 polls), each answer 50 new todos by 20
//                     authors; garbage collection on with its default grace period (five
//                     minutes: about 15 000 todos stay). Reported: the store's size
//                     (memoryUsage()) and the heap at the end of the first and of the last hour,
//                     and the median, mean and 99th percentile GUI-thread time per poll (the
//                     commit and every pass due) in the first and in the last hour; growth =
//                     last / first (of the median for the time).
//                     DATACLIENT_BENCH_FEED_HOURS shortens the day (a quick look; the figures
//                     of record are a whole day).
#include "benchmark.h"

#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/store.h>

#include "benchdata.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>

#include <algorithm>
#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Start = 1704067200000; // 2024-01-01T00:00:00Z
constexpr qint64 Second = 1000;
constexpr qint64 Hour = 3600 * Second;
constexpr int PerPoll = 50;

//! The poll \a poll's answer: 50 todos never seen before.
QJsonArray feedPage(qint64 poll)
{
    QJsonArray items;
    for (int i = 0; i < PerPoll; ++i) {
        const qint64 id = poll * PerPoll + i;
        items.append(QJsonObject {
            {u"id"_s, id},
            {u"userId"_s, int(1 + id % 20)},
            {u"title"_s, u"event %1: something happened somewhere"_s.arg(id)},
            {u"completed"_s, id % 3 == 0},
            {u"author"_s, QJsonObject {{u"id"_s, int(1 + id % 20)}, {u"name"_s, u"user"_s}}}});
    }
    return items;
}

struct HourFigures
{
    double meanMs = 0;
    double medianMs = 0;
    double p99Ms = 0;
    qint64 store = 0;
    qint64 heap = 0;
};

HourFigures hourOf(std::vector<qint64> &nanos, qint64 store, qint64 heap)
{
    HourFigures figures;
    if (nanos.empty())
        return figures;
    double sum = 0;
    for (const qint64 n : nanos)
        sum += double(n);
    figures.meanMs = sum / double(nanos.size()) / 1e6;
    std::sort(nanos.begin(), nanos.end());
    figures.medianMs = double(nanos[nanos.size() / 2]) / 1e6;
    figures.p99Ms = double(nanos[nanos.size() * 99 / 100]) / 1e6;
    figures.store = store;
    figures.heap = heap;
    return figures;
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(feedScenarios)
{
    const QString name = u"g.feed.churn.day"_s;
    if (!bench.wanted(name))
        return;
    const int hours
        = std::clamp(qEnvironmentVariableIntValue("DATACLIENT_BENCH_FEED_HOURS"), 0, 24);
    const qint64 day = (hours > 0 ? hours : 24) * Hour;

    QNetworkAccessManager network;
    const Resource todos = createResource({.path = u"/events/:id"_s,
                                           .schema = Bench::todoSchema(),
                                           .urlPrefix = u"http://bench.invalid"_s});
    qint64 now = Start;
    const qint64 heapBase = Bench::Runner::heapInUse();
    auto controller = std::make_unique<Controller>(&network);
    controller->setClock([&now] { return now; });
    controller->watch(todos.getList); // the feed stays shown all day

    std::vector<qint64> nanos;
    nanos.reserve(3600);
    HourFigures first, last;
    qint64 polls = 0;
    QElapsedTimer wall;
    wall.start();
    QElapsedTimer timer;
    for (qint64 t = Start + Second; t <= Start + day; t += Second, ++polls) {
        const QJsonArray page = feedPage(polls); // the answer arrives: not the library's time
        timer.start();
        // Every wait due until this poll runs at its due time (what Testing::VirtualClock does):
        // the passes of garbage collection.
        for (qint64 due = controller->nextTimerDue(); due >= 0 && due <= t;
             due = controller->nextTimerDue()) {
            now = std::max(now, due);
            controller->runDueTimers();
        }
        now = t;
        controller->setResponse(todos.getList, {}, page);
        controller->runDueTimers();
        nanos.push_back(timer.nsecsElapsed());
        const qint64 elapsed = t - Start;
        if (elapsed % Hour == 0) {
            const qint64 store = controller->store().memoryUsage();
            const qint64 heap = Bench::Runner::heapInUse() - heapBase;
            if (elapsed == Hour)
                first = hourOf(nanos, store, heap);
            if (elapsed == day)
                last = hourOf(nanos, store, heap);
            nanos.clear();
        }
    }
    const int liveTodos = int(controller->store().entityCount(u"Todo"_s));
    const double memoryGrowth = double(last.store) / double(first.store);
    // The median: on a shared machine other processes' bursts move the mean of an hour by 30 %.
    const double timeGrowth = last.medianMs / first.medianMs;
    bench.report(QJsonObject {{u"name"_s, name},
                              {u"hours"_s, double(day) / double(Hour)},
                              {u"polls"_s, polls},
                              {u"live_todos"_s, liveTodos},
                              {u"store_first_hour"_s, first.store},
                              {u"store_last_hour"_s, last.store},
                              {u"growth"_s, memoryGrowth},
                              {u"heap_first_hour"_s, first.heap},
                              {u"heap_last_hour"_s, last.heap},
                              {u"heap_growth"_s, double(last.heap) / double(first.heap)},
                              {u"poll_median_ms_first_hour"_s, first.medianMs},
                              {u"poll_median_ms_last_hour"_s, last.medianMs},
                              {u"poll_time_growth"_s, timeGrowth},
                              {u"poll_mean_ms_first_hour"_s, first.meanMs},
                              {u"poll_mean_ms_last_hour"_s, last.meanMs},
                              {u"poll_mean_growth"_s, last.meanMs / first.meanMs},
                              {u"poll_p99_ms_first_hour"_s, first.p99Ms},
                              {u"poll_p99_ms_last_hour"_s, last.p99Ms},
                              {u"wall_s"_s, double(wall.elapsed()) / 1000}});
    if (memoryGrowth > 1.2)
        bench.fail(name, u"the store grew %1x from the first hour to the last"_s.arg(memoryGrowth));
    if (timeGrowth > 1.2)
        bench.fail(name,
                   u"the time per poll grew %1x from the first hour to the last"_s.arg(timeGrowth));
}
