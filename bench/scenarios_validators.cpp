// HTTP validators: a stored 10k list, shown by a model, refetched from an in-process
// server on its own thread.
//  n.refetch304.10k  the server answers 304 Not Modified to the If-None-Match sent back:
//                    "ms_per_op" = GUI-thread CPU time of the whole refetch (sending it and
//                    handling the 304), "signals" = model signals + Controller::changed() per
//                    refetch (0 expected), "total_ms" = wall time from fetch() to its result.
//  n.refetch200.10k  the same list answered 200 with the whole body (the endpoint's validators
//                    are off): what the 304 saves.
#include "benchdata.h"
#include "benchmark.h"
#include "modelsignals.h"
#include "serverthread.h"
#include "threadtime.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

constexpr QByteArrayView ETag = "\"todos-10k-v1\"";

bool settle(const QFuture<QVariant> &future)
{
    QElapsedTimer timeout;
    timeout.start();
    while (!future.isFinished() && timeout.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return future.isFinished() && future.resultCount() > 0;
}

void refetch(Bench::Runner &bench, const QString &name, bool validators)
{
    if (!bench.wanted(name))
        return;
    const QByteArray body = bench.file(u"todos-10k.json"_s);
    auto notModified = std::make_shared<std::atomic<int>>(0);
    // Runs on the server's thread: reads its copies only.
    Bench::ServerThread server([body, notModified](const Testing::RecordedRequest &request) {
        if (request.header("if-none-match") == ETag) {
            ++*notModified;
            Testing::ServerResponse answer;
            answer.status = 304;
            return answer.withHeader("ETag", ETag.toByteArray());
        }
        return Testing::ServerResponse::raw(body, "application/json")
            .withHeader("ETag", ETag.toByteArray());
    });
    const EndpointPtr getList = RestEndpoint::create({.name = u"getList"_s,
                                                      .path = u"/todos"_s,
                                                      .urlPrefix = server.url(),
                                                      .schema = Bench::todoCollection(),
                                                      .validators = validators});
    Controller controller;
    if (!settle(controller.fetch(getList, {})))
        return bench.fail(name, u"the first fetch failed"_s);
    CollectionModel model(&controller, getList, {});
    if (model.rowCount() != 10000)
        return bench.fail(name, u"the model shows %1 rows"_s.arg(model.rowCount()));
    Bench::SignalCount modelSignals(&model);
    int storeChanges = 0;
    QObject::connect(&controller, &Controller::changed, [&] { ++storeChanges; });

    int maxSignals = 0;
    double wall = 0;
    const auto once = [&]() -> double {
        const int before = modelSignals.total + storeChanges;
        QElapsedTimer clock;
        clock.start();
        const double start = Bench::threadCpuMs();
        const bool ok = settle(controller.fetch(getList, {}));
        const double spent = Bench::threadCpuMs() - start;
        wall = double(clock.nsecsElapsed()) / 1e6;
        maxSignals = std::max(maxSignals, modelSignals.total + storeChanges - before);
        if (!ok)
            bench.fail(name, u"a refetch failed"_s);
        return spent;
    };
    const int warmUp = 3;
    const int rounds = 11;
    for (int i = 0; i < warmUp; ++i)
        once();
    std::vector<double> cpu;
    std::vector<double> walls;
    for (int r = 0; r < rounds; ++r) {
        cpu.push_back(once());
        walls.push_back(wall);
    }
    Bench::printLine({{u"name"_s, name},
                      {u"ms_per_op"_s, Bench::median(cpu)},
                      {u"min_ms"_s, *std::min_element(cpu.begin(), cpu.end())},
                      {u"max_ms"_s, *std::max_element(cpu.begin(), cpu.end())},
                      {u"total_ms"_s, Bench::median(walls)},
                      {u"signals"_s, maxSignals},
                      {u"not_modified"_s, notModified->load()},
                      {u"rounds"_s, rounds}});
    if (validators && notModified->load() != warmUp + rounds)
        bench.fail(
            name,
            u"%1 answers were 304, expected %2"_s.arg(notModified->load()).arg(warmUp + rounds));
    if (validators && maxSignals != 0)
        bench.fail(name, u"a 304 gave %1 signals, expected 0"_s.arg(maxSignals));
    if (model.rowCount() != 10000)
        bench.fail(name, u"the model shows %1 rows after"_s.arg(model.rowCount()));
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(validatorScenarios)
{
    refetch(bench, u"n.refetch304.10k"_s, true);
    refetch(bench, u"n.refetch200.10k"_s, false);
}
