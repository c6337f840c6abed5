// The cost of the application's managers (docs/managers.md), and of the lifecycle steps without
// any:
//  m.fetch.roundtrip.managers0  one GET of a small answer (one todo) from an in-process server on
//                               its own thread, fetch() to its result: "ms_per_op" = GUI-thread
//                               CPU time per request (what the client spends), "total_ms" = wall
//  m.fetch.roundtrip.managers3  the same with three application managers registered: a request
//                               logger with timings, a metrics counter per endpoint, an
//                               Authorization header from a token
//  m.set+get.cold.10k.managers3 f.controller.set+get.cold.10k with the same three managers
//  m.fetch.local.managers0/3    a fetch answered at once by the endpoint itself (no network):
//                               the client's whole path, so the managers' cost per request shows
//                               undiluted (the loopback round trip's spread hides a few µs)
// Built against a library without managers (an older build compared side by side), the
// ".managers3" rows are left out.
#include "benchdata.h"
#include "benchmark.h"
#include "serverthread.h"
#include "threadtime.h"

#include <DataClient/compactjson.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/restendpoint.h>

#if __has_include(<DataClient/manager.h>)
#    include <DataClient/manager.h>
#    define BENCH_HAS_MANAGERS 1
#endif

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFutureWatcher>
#include <QtCore/QHash>
#include <QtCore/QLoggingCategory>
#include <QtCore/QPromise>
#include <QtCore/QTimer>

#include <algorithm>
#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

#ifdef BENCH_HAS_MANAGERS
Q_LOGGING_CATEGORY(lcBenchRequests, "bench.requests", QtWarningMsg)

class Logger : public Manager
{
protected:
    void requestStarted(const ManagedRequest &request) override { m_started[request.id()].start(); }
    void committed(const ManagedRequest &request, const ChangeSet &) override
    {
        qCDebug(lcBenchRequests) << request.method() << request.url() << request.status()
                                 << m_started.take(request.id()).elapsed() << "ms";
    }
    void failed(const ManagedRequest &request, const NetworkError &) override
    {
        m_started.remove(request.id());
    }

private:
    QHash<quint64, QElapsedTimer> m_started;
};

class Metrics : public Manager
{
protected:
    void requestStarted(const ManagedRequest &request) override
    {
        ++m_counts[request.endpointName()].requests;
    }
    void answered(const ManagedRequest &request) override
    {
        m_counts[request.endpointName()].bytes += request.bytesReceived();
    }
    void failed(const ManagedRequest &request, const NetworkError &) override
    {
        ++m_counts[request.endpointName()].failures;
    }

private:
    struct Counts
    {
        qint64 requests = 0;
        qint64 failures = 0;
        qint64 bytes = 0;
    };
    QHash<QString, Counts> m_counts;
};

class Auth : public Manager
{
protected:
    void decorate(const ManagedRequest &, Headers *headers) override
    {
        headers->append({QByteArrayLiteral("Authorization"), m_token});
    }

private:
    QByteArray m_token = QByteArrayLiteral("Bearer bench-token");
};

struct ThreeManagers
{
    Logger logger;
    Metrics metrics;
    Auth auth;
    //! \a which: "all", "observers" (the logger and the metrics) or "auth".
    void addTo(Controller &controller, const char *which = "all")
    {
        const QByteArray kind(which);
        if (kind != "auth") {
            controller.addManager(&logger);
            controller.addManager(&metrics);
        }
        if (kind != "observers")
            controller.addManager(&auth);
    }
};
#endif

// Waits for \a future in an event loop that sleeps until something happens, so that the thread's
// CPU time is what the client spent on the request (processEvents() with a time limit spins).
bool settle(const QFuture<QVariant> &future)
{
    if (!future.isFinished()) {
        QEventLoop loop;
        QFutureWatcher<QVariant> watcher;
        QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(10000, &loop, &QEventLoop::quit);
        watcher.setFuture(future);
        if (!future.isFinished())
            loop.exec();
    }
    return future.isFinished() && future.resultCount() > 0;
}

void roundTrip(Bench::Runner &bench, const QString &name, int managers, const char *which = "all")
{
    if (!bench.wanted(name))
        return;
    const QByteArray one = R"({"id":1,"userId":1,"title":"one","completed":false})";
    Bench::ServerThread server([one](DataClient::Testing::TestServer &routes) {
        routes.route("GET", u"/todos/1"_s, [one](const Testing::RecordedRequest &) {
            return Testing::ServerResponse::raw(one, "application/json");
        });
    });
    const EndpointPtr get = RestEndpoint::create({.name = u"get"_s,
                                                  .path = u"/todos/1"_s,
                                                  .urlPrefix = server.url(),
                                                  .schema = Bench::todoSchema()});
#ifdef BENCH_HAS_MANAGERS
    ThreeManagers three; // outlives the Controller: never destroyed while registered
    Controller controller;
    if (managers > 0)
        three.addTo(controller, which);
#else
    Controller controller;
    Q_UNUSED(managers);
#endif
    double wall = 0;
    const auto once = [&]() -> double {
        QElapsedTimer clock;
        clock.start();
        const double start = Bench::threadCpuMs();
        if (!settle(controller.fetch(get, {})))
            bench.fail(name, u"a fetch failed"_s);
        wall = double(clock.nsecsElapsed()) / 1e6;
        return Bench::threadCpuMs() - start;
    };
    for (int i = 0; i < 50; ++i)
        once();
    std::vector<double> cpu;
    std::vector<double> walls;
    const int rounds = 11;
    const int perRound = 200;
    for (int r = 0; r < rounds; ++r) {
        double total = 0;
        double totalWall = 0;
        for (int i = 0; i < perRound; ++i) {
            total += once();
            totalWall += wall;
        }
        cpu.push_back(total / perRound);
        walls.push_back(totalWall / perRound);
    }
    Bench::printLine({{u"name"_s, name},
                      {u"ms_per_op"_s, Bench::median(cpu)},
                      {u"min_ms"_s, *std::min_element(cpu.begin(), cpu.end())},
                      {u"max_ms"_s, *std::max_element(cpu.begin(), cpu.end())},
                      {u"total_ms"_s, Bench::median(walls)},
                      {u"rounds"_s, rounds},
                      {u"ops_per_round"_s, perRound}});
}

//! An endpoint that answers at once, without the network: every step but the exchange runs.
class LocalEndpoint : public EndpointBase<LocalEndpoint>
{
public:
    using EndpointBase::EndpointBase;
#if __has_include(<DataClient/requestcontext.h>)
    QFuture<QJsonValue> fetch(QNetworkAccessManager *, const Params &, const QJsonValue &,
                              const RequestContext &) const override
#else // an older build, compared side by side
    QFuture<QJsonValue> fetch(QNetworkAccessManager *, const Params &,
                              const QJsonValue &) const override
#endif
    {
        const QJsonObject one {{u"id"_s, 1}, {u"userId"_s, 1}, {u"title"_s, u"one"_s}};
        QPromise<QJsonValue> promise;
        promise.start();
        promise.addResult(QJsonValue(one));
        promise.finish();
        return promise.future();
    }
};

void local(Bench::Runner &bench, const QString &name, int managers)
{
    if (!bench.wanted(name))
        return;
    const EndpointPtr get
        = std::make_shared<LocalEndpoint>(EndpointOptions {.name = u"get"_s,
                                                           .path = u"/todos/1"_s,
                                                           .urlPrefix = u"http://bench.invalid"_s,
                                                           .schema = Bench::todoSchema()});
#ifdef BENCH_HAS_MANAGERS
    ThreeManagers three;
    Controller controller;
    if (managers > 0)
        three.addTo(controller);
#else
    Controller controller;
    Q_UNUSED(managers);
#endif
    bench.time(name, {}, [&] {
        if (!settle(controller.fetch(get, {})))
            bench.fail(name, u"a fetch failed"_s);
    });
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(managerScenarios)
{
    roundTrip(bench, u"m.fetch.roundtrip.managers0"_s, 0);
    local(bench, u"m.fetch.local.managers0"_s, 0);
#ifdef BENCH_HAS_MANAGERS
    roundTrip(bench, u"m.fetch.roundtrip.managers3"_s, 3);
    local(bench, u"m.fetch.local.managers3"_s, 3);
    roundTrip(bench, u"m.fetch.roundtrip.observers2"_s, 2, "observers");
    roundTrip(bench, u"m.fetch.roundtrip.auth1"_s, 1, "auth");
    const QString cold = u"m.set+get.cold.10k.managers3"_s;
    if (bench.wanted(cold)) {
        const Resource todos = createResource({.path = u"/todos/:id"_s,
                                               .schema = Bench::todoSchema(),
                                               .urlPrefix = u"http://bench.invalid"_s});
        const CompactJson parsed = CompactJson::parse(bench.file(u"todos-10k.json"_s));
        QNetworkAccessManager network;
        std::unique_ptr<ThreeManagers> three;
        std::unique_ptr<Controller> controller;
        qsizetype checksum = 0;
        bench.time(
            cold,
            [&] {
                controller.reset();
                three = std::make_unique<ThreeManagers>();
                controller = std::make_unique<Controller>(&network);
                three->addTo(*controller);
            },
            [&] {
                controller->setResponse(todos.getList, {}, parsed);
                checksum += Bench::touchAll(controller->getResponse(todos.getList, {}).data);
            });
        Q_UNUSED(checksum);
    }
#endif
}
