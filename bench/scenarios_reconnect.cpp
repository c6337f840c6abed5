// n.reconnect.100keys: 100 keys that views show, stale, refetched when connectivity
// returns. The server (on its own thread) counts the requests: exactly 100, one per key. The
// figure is the GUI stall: the longest time the event loop did not get control, from going
// online until every answer is stored.
#include "benchmark.h"
#include "serverthread.h"
#include "stallmeter.h"

#include <DataClient/connectivity.h>
#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>

#include <QtCore/QEventLoop>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>

#include <algorithm>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

constexpr int Keys = 100;

struct Round
{
    double stallMs = 0;
    double totalMs = 0;
    double reconnectMs = 0; // the setOnline(true) call alone: sending 100 requests
    qsizetype requests = 0;
};

Round reconnectOnce(const QString &url, Bench::ServerThread &server)
{
    Controller controller;
    Connectivity connectivity;
    controller.setConnectivity(&connectivity);
    const EndpointPtr item = RestEndpoint::create({.path = u"/todos/:id"_s, .urlPrefix = url});
    for (int id = 1; id <= Keys; ++id) {
        const Params params {{u"id"_s, id}};
        controller.setResponse(item, params, QJsonObject {{u"id"_s, id}, {u"title"_s, u"old"_s}});
        controller.watch(item, params);
    }
    controller.expireAll([](const QString &) { return true; });
    connectivity.setOnline(false);
    server.clearRequests();

    int answered = 0;
    QEventLoop loop;
    QObject::connect(&controller, &Controller::changed, &loop, [&] {
        if (++answered == Keys)
            loop.quit();
    });
    QTimer::singleShot(10000, &loop, &QEventLoop::quit); // a broken round ends, and shows
    Bench::StallMeter clock;
    connectivity.setOnline(true); // the reconnect's own turn counts too
    const qint64 reconnected = clock.elapsed();
    loop.exec();
    const qint64 end = clock.elapsed();
    const double longest = clock.stop();
    return {longest, double(end) / 1e6, double(reconnected) / 1e6, server.requestCount()};
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(reconnectScenarios)
{
    const QString name = u"n.reconnect.100keys"_s;
    if (!bench.wanted(name))
        return;
    Bench::ServerThread server([](Testing::TestServer &testServer) {
        testServer.route("GET", u"/todos/:id"_s, [](const Testing::RecordedRequest &request) {
            return Testing::ServerResponse::json(QJsonObject {
                {u"id"_s, request.pathParams.value(u"id"_s).toInt()}, {u"title"_s, u"new"_s}});
        });
    });
    const QString url = server.url();
    reconnectOnce(url, server); // warm-up (connections, caches)
    const int rounds = 7;
    std::vector<double> stalls;
    std::vector<double> totals;
    std::vector<double> reconnects;
    qsizetype requests = 0;
    for (int r = 0; r < rounds; ++r) {
        const Round round = reconnectOnce(url, server);
        stalls.push_back(round.stallMs);
        totals.push_back(round.totalMs);
        reconnects.push_back(round.reconnectMs);
        if (round.requests != Keys)
            bench.fail(
                name, u"round %1: %2 requests, expected %3"_s.arg(r).arg(round.requests).arg(Keys));
        requests = round.requests;
    }
    std::sort(stalls.begin(), stalls.end());
    std::sort(totals.begin(), totals.end());
    std::sort(reconnects.begin(), reconnects.end());
    bench.report({{u"name"_s, name},
                  {u"ms_per_op"_s, stalls[stalls.size() / 2]},
                  {u"min_ms"_s, stalls.front()},
                  {u"max_ms"_s, stalls.back()},
                  {u"total_ms"_s, totals[totals.size() / 2]},
                  {u"reconnect_ms"_s, reconnects[reconnects.size() / 2]},
                  {u"requests"_s, qint64(requests)},
                  {u"rounds"_s, rounds}});
}
