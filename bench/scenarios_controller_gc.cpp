// Scenarios g.* (garbage collection, docs/memory.md), through a Controller on a
// clock the scenario moves itself (no network: a poll's answer is committed with setResponse(),
// exactly what the poll would commit), so 24 hours take seconds.
//   g.poll.day     a 1k-todo list whose content changes every poll, polled every 10 s for 24 h
//                  while views (a todo, a user's todos, a search) open every minute and close
//                  three minutes later: the store's size after the first and the last hour
//                  (growth = last / first; also the heap, mallinfo2, and the same day with
//                  garbage collection off for comparison)
//   g.collect.100k a pass over 100k todos of which 1k are shown: the pass that drops the other
//                  99k, and (.steady) a pass that finds nothing to drop
#include "benchdata.h"
#include "benchmark.h"

#include <DataClient/compactjson.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/store.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRandomGenerator>
#include <QtNetwork/QNetworkAccessManager>

#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Start = 1704067200000; // 2024-01-01T00:00:00Z
constexpr qint64 Minute = 60000;
constexpr qint64 Hour = 60 * Minute;

Resource gcResource()
{
    return createResource({.path = u"/todos/:id"_s,
                           .schema = Bench::todoSchema(),
                           .urlPrefix = u"http://bench.invalid"_s,
                           .searchParams = {u"userId"_s, u"search"_s}});
}

//! Moves \a now to \a target, running every wait due on the way at its due time (what
//! Testing::VirtualClock does).
void advanceTo(Controller &controller, qint64 &now, qint64 target)
{
    for (qint64 due = controller.nextTimerDue(); due >= 0 && due <= target;
         due = controller.nextTimerDue()) {
        now = std::max(now, due);
        controller.runDueTimers();
    }
    now = target;
    controller.runDueTimers();
}

struct DayFigures
{
    qint64 storeFirst = 0, storeLast = 0, heapFirst = 0, heapLast = 0;
    int polls = 0, views = 0;
    double seconds = 0;
};

DayFigures pollDay(const QJsonArray &base, bool gc)
{
    QNetworkAccessManager network;
    const Resource todos = gcResource();
    qint64 now = Start;
    const qint64 heapBase = Bench::Runner::heapInUse();
    auto controller = std::make_unique<Controller>(&network);
    controller->setClock([&now] { return now; });
    controller->setGcEnabled(gc);
    QRandomGenerator random(18);
    DayFigures figures;
    QElapsedTimer timer;
    timer.start();

    // The list stays shown all day; every poll changes every todo's title and completion.
    controller->watch(todos.getList);
    struct View
    {
        EndpointPtr endpoint;
        Params params;
        qint64 closesAt;
    };
    QList<View> open;
    for (qint64 t = Start; t <= Start + 24 * Hour; t += 10000) {
        advanceTo(*controller, now, t);
        const int poll = figures.polls++;
        QJsonArray list = base;
        for (qsizetype i = 0; i < list.size(); ++i) {
            QJsonObject item = list.at(i).toObject();
            item.insert(u"title"_s,
                        item.value(u"title"_s).toString() + u" #"_s + QString::number(poll));
            item.insert(u"completed"_s, (poll + i) % 2 == 0);
            list[i] = item;
        }
        controller->setResponse(todos.getList, {}, list);

        // Views: one opens every minute (a todo, a user's todos, a search in turn) and closes
        // three minutes later.
        for (qsizetype v = open.size() - 1; v >= 0; --v) {
            if (open.at(v).closesAt <= t) {
                controller->unwatch(open.at(v).endpoint, open.at(v).params);
                open.removeAt(v);
            }
        }
        if ((t - Start) % Minute == 0) {
            const int kind = int((t - Start) / Minute % 3);
            View view;
            view.closesAt = t + 3 * Minute;
            QJsonValue answer;
            if (kind == 0) {
                const QJsonObject item = list.at(random.bounded(int(list.size()))).toObject();
                view = {todos.get, {{u"id"_s, item.value(u"id"_s).toInt()}}, view.closesAt};
                answer = item;
            } else {
                const bool byUser = kind == 1;
                const int which = random.bounded(byUser ? 50 : 40);
                QJsonArray items;
                for (qsizetype i = 0; i < list.size(); ++i) {
                    const QJsonObject item = list.at(i).toObject();
                    if (byUser ? item.value(u"userId"_s).toInt() == which + 1 : i % 40 == which)
                        items.append(item);
                }
                view = {todos.getList,
                        byUser ? Params {{u"userId"_s, which + 1}}
                               : Params {{u"search"_s, u"term %1"_s.arg(which)}},
                        view.closesAt};
                answer = items;
            }
            controller->setResponse(view.endpoint, view.params, answer);
            controller->watch(view.endpoint, view.params);
            controller->getResponse(view.endpoint, view.params);
            open.append(view);
            ++figures.views;
        }
        if (t == Start + Hour) {
            figures.storeFirst = controller->store().memoryUsage();
            figures.heapFirst = Bench::Runner::heapInUse() - heapBase;
        }
    }
    figures.storeLast = controller->store().memoryUsage();
    figures.heapLast = Bench::Runner::heapInUse() - heapBase;
    figures.seconds = double(timer.elapsed()) / 1000;
    return figures;
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(gcScenarios)
{
    if (bench.wanted(u"g.poll.day"_s)) {
        const QJsonArray base = QJsonDocument::fromJson(bench.file(u"todos-1k.json"_s)).array();
        for (const bool gc : {true, false}) {
            const DayFigures day = pollDay(base, gc);
            const QString name = gc ? u"g.poll.day"_s : u"g.poll.day.nogc"_s;
            bench.report(
                QJsonObject {{u"name"_s, name},
                             {u"growth"_s, double(day.storeLast) / double(day.storeFirst)},
                             {u"store_first_hour"_s, day.storeFirst},
                             {u"store_last_hour"_s, day.storeLast},
                             {u"heap_growth"_s, double(day.heapLast) / double(day.heapFirst)},
                             {u"heap_first_hour"_s, day.heapFirst},
                             {u"heap_last_hour"_s, day.heapLast},
                             {u"polls"_s, day.polls},
                             {u"views"_s, day.views},
                             {u"wall_s"_s, day.seconds}});
            if (gc && double(day.storeLast) > 1.2 * double(day.storeFirst))
                bench.fail(name, u"the store grew more than 1.2x"_s);
        }
    }

    // Store::memoryUsage() against the heap it was measured like (memory.store.10k's method:
    // mallinfo2 before and after the write, the parsed input released).
    if (bench.wanted(u"g.memoryUsage.10k"_s)) {
        const QByteArray bytes = bench.file(u"todos-10k.json"_s);
        const qint64 base = Bench::Runner::heapInUse();
        auto store = std::make_unique<Store>();
        {
            const CompactJson parsed = CompactJson::parse(bytes);
            store->setResponse(u"GET http://bench.invalid/todos"_s, Bench::todoCollection(), {},
                               parsed, Meta {Start, Start, Start + Minute});
        }
        const qint64 heap = Bench::Runner::heapInUse() - base;
        const qint64 reported = store->memoryUsage();
        bench.report(QJsonObject {{u"name"_s, u"g.memoryUsage.10k"_s},
                                  {u"heap_bytes"_s, heap},
                                  {u"memoryUsage_bytes"_s, reported},
                                  {u"ratio"_s, double(reported) / double(heap)}});
    }

    if (bench.wanted(u"g.collect.100k"_s)) {
        // 100k todos in ten results written at Start, of which a list of 1k stays shown.
        const QJsonArray page = QJsonDocument::fromJson(bench.file(u"todos-10k.json"_s)).array();
        QList<QJsonArray> pages;
        for (int p = 0; p < 10; ++p) {
            QJsonArray items = page;
            for (qsizetype i = 0; i < items.size(); ++i) {
                QJsonObject item = items.at(i).toObject();
                item.insert(u"id"_s, p * 10000 + item.value(u"id"_s).toInt());
                items[i] = item;
            }
            pages.append(items);
        }
        QJsonArray shown;
        for (qsizetype i = 0; i < 1000; ++i)
            shown.append(page.at(i));
        QNetworkAccessManager network;
        const Resource todos = gcResource();
        qint64 now = Start;
        std::unique_ptr<Controller> controller;
        const auto load = [&] {
            controller.reset();
            now = Start;
            controller = std::make_unique<Controller>(&network);
            controller->setClock([&now] { return now; });
            for (int p = 0; p < 10; ++p) {
                controller->setResponse(todos.getList, {{u"search"_s, u"page %1"_s.arg(p)}},
                                        pages.at(p));
            }
            controller->setResponse(todos.getList, {}, shown);
            controller->watch(todos.getList);
            controller->getResponse(todos.getList); // shown: read into the memo as a view does
        };
        int dropped = 0;
        bench.time(
            u"g.collect.100k"_s,
            [&] {
                load();
                now = Start + controller->gcGracePeriodMs(); // everything else is due
            },
            [&] { dropped = controller->collectGarbage(); });
        if (bench.wanted(u"g.collect.100k"_s)
            && (controller->store().entityCount(u"Todo"_s) != 1000 || dropped < 99000))
            bench.fail(
                u"g.collect.100k"_s,
                u"%1 todos stay, %2 dropped"_s.arg(controller->store().entityCount(u"Todo"_s))
                    .arg(dropped));
        if (bench.wanted(u"g.collect.100k.steady"_s)) {
            load();
            now = Start + 1000; // within the grace period: the pass marks and sweeps, drops none
            bench.time(u"g.collect.100k.steady"_s, {},
                       [&] { dropped = controller->collectGarbage(); });
            if (dropped != 0 || controller->store().entityCount(u"Todo"_s) != 100000)
                bench.fail(u"g.collect.100k.steady"_s, u"the pass dropped something"_s);
        }
        if (bench.wanted(u"g.collect.100k"_s)) {
            load();
            bench.memory(u"g.collect.100k.memoryUsage"_s, controller->store().memoryUsage());
        }
    }
}
