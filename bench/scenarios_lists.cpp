// Lists that follow their data (docs/collections.md):
//  l.move.10k   an answer of a partialUpdate (committed with Controller::setResponse, no network)
//               that moves one todo from a stored list of 10k ({completed: false}) to another of
//               10k ({completed: true}), each shown by a CollectionModel: GUI-thread CPU ms from
//               the commit until both models emitted their signals; "signals" = row signals per
//               move (2 expected: one rowsRemoved, one rowsInserted), checked.
#include "benchdata.h"
#include "benchmark.h"
#include "oprounds.h"
#include "threadtime.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

void move10k(Bench::Runner &bench)
{
    const QString name = u"l.move.10k"_s;
    if (!bench.wanted(name))
        return;
    const int size = 10'000;
    const Resource todos = createResource({.path = u"/todos/:id"_s,
                                           .schema = Bench::todoSchema(),
                                           .urlPrefix = u"http://bench.invalid"_s,
                                           .searchParams = {u"completed"_s}});
    Controller controller;
    for (const bool completed : {false, true}) {
        QJsonArray list;
        for (int i = 0; i < size; ++i) {
            const int id = completed ? size + i + 1 : i + 1;
            list.append(QJsonObject {{u"id"_s, id},
                                     {u"userId"_s, 1 + id % 10},
                                     {u"title"_s, u"todo %1"_s.arg(id)},
                                     {u"completed"_s, completed}});
        }
        controller.setResponse(todos.getList, {{u"completed"_s, completed}}, list);
    }
    CollectionModel open(&controller, todos.getList, {{u"completed"_s, false}});
    CollectionModel done(&controller, todos.getList, {{u"completed"_s, true}});
    if (open.rowCount() != size || done.rowCount() != size) {
        bench.fail(name,
                   u"the models show %1 and %2 rows, expected %3"_s.arg(open.rowCount())
                       .arg(done.rowCount())
                       .arg(size));
        return;
    }
    int rowSignals = 0;
    for (QAbstractItemModel *model :
         {static_cast<QAbstractItemModel *>(&open), static_cast<QAbstractItemModel *>(&done)}) {
        QObject::connect(model, &QAbstractItemModel::rowsInserted, [&] { ++rowSignals; });
        QObject::connect(model, &QAbstractItemModel::rowsRemoved, [&] { ++rowSignals; });
        QObject::connect(model, &QAbstractItemModel::rowsMoved, [&] { ++rowSignals; });
        QObject::connect(model, &QAbstractItemModel::modelReset, [&] { rowSignals += 1000; });
    }
    int moves = 0;
    int worstSignals = 0;
    auto moveOne = [&]() -> double {
        // Todo 1 goes back and forth between the lists: completed, then open again.
        const bool completed = moves++ % 2 == 0;
        const QJsonObject answer {{u"id"_s, 1}, {u"completed"_s, completed}};
        const int before = rowSignals;
        const double start = Bench::threadCpuMs();
        controller.setResponse(todos.partialUpdate, {{u"id"_s, 1}}, answer);
        const double ms = Bench::threadCpuMs() - start;
        worstSignals = std::max(worstSignals, rowSignals - before);
        if (rowSignals - before != 2 || open.rowCount() != (completed ? size - 1 : size))
            bench.fail(
                name,
                u"move %1 gave %2 row signals, expected 2"_s.arg(moves).arg(rowSignals - before));
        return ms;
    };
    QJsonObject line = Bench::timeOpRounds(name, 10, 11, 20, moveOne);
    line.insert(u"signals"_s, worstSignals);
    Bench::printLine(line);
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(listScenarios)
{
    move10k(bench);
}
