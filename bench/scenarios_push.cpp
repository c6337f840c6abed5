// Push scenarios (docs/realtime.md): a 10k-todo list shown by a CollectionModel, kept current by
// a LiveFeed on a WebSocket whose server runs on its own thread. Each line carries the floor
// measured in the same run: a bare QWebSocket receiving the same frames and parsing each with
// QJsonDocument, nothing stored, nothing shown ("floor_*", and "ratio" = ours / floor).
//  p.push.update1.10k  one pushed update of one row at a time: "ms_per_op" = GUI-thread CPU time
//                      per message, from the frame's arrival to the model's one dataChanged
//                      ("signals" = model signals per message, expected 1)
//  p.push.flood.10k    10k updates (each row once) sent as fast as loopback takes them:
//                      GUI-thread CPU "total_ms", "wall_ms", "messages_per_s", the longest
//                      GUI-thread stall "stall_max_ms", heap before and after ("memory_ratio")
//  p.push.latency      server send to row changed, one message at a time: "median_ms",
//                      "p99_ms" (steady clock shared by both threads)
#include "benchdata.h"
#include "benchmark.h"
#include "modelsignals.h"
#include "pushserverthread.h"
#include "stallmeter.h"
#include "threadtime.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/livefeed.h>
#include <DataClient/restendpoint.h>
#include <DataClient/websocketsource.h>

#include <QtCore/QEventLoop>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTimer>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

constexpr int Rounds = 300;
constexpr int WarmUp = 50;
constexpr int FloodSize = 10000;

//! Spins the event loop until \a done() (checked after each event), at most 30 s.
bool waitUntil(const std::function<bool()> &done)
{
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(0);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    if (!done())
        loop.exec();
    return done();
}

//! The frames: an update of todo ids[i % size] with a new title.
struct Frames
{
    QStringList ids; // each todo's id as JSON text
    int edit = 0;
    QString next(int i)
    {
        return uR"({"type":"updated","entity":"Todo","data":{"id":%1,"title":"edit %2"}})"_s.arg(
            ids.at(i % ids.size()), QString::number(edit++));
    }
};

//! The client under test: the shown list, or the bare socket.
struct Client
{
    virtual ~Client() = default;
    //! Messages fully handled (shown / parsed) so far.
    virtual qint64 handled() const = 0;
    //! When the last message was handled (ns on the shared clock).
    qint64 handledAtNs = 0;
};

struct ShownList : Client
{
    ShownList(const QJsonArray &todos, const QUrl &url, const QElapsedTimer &clock)
    {
        list = RestEndpoint::create({.name = u"getList"_s,
                                     .path = u"/todos"_s,
                                     .urlPrefix = u"http://127.0.0.1:9"_s,
                                     .schema = Bench::todoCollection()});
        controller.setResponse(list, {}, todos);
        model = std::make_unique<CollectionModel>(&controller, list, Params {});
        signalCount = std::make_unique<Bench::SignalCount>(
            model.get(), [this, &clock] { handledAtNs = clock.nsecsElapsed(); });
        LiveMapping mapping;
        mapping.addEntity(u"Todo"_s, Bench::todoSchema());
        source.setUrl(url);
        feed = std::make_unique<LiveFeed>(&controller, &source, mapping);
    }
    qint64 handled() const override { return feed->appliedCount(); }

    Controller controller;
    EndpointPtr list;
    std::unique_ptr<CollectionModel> model;
    std::unique_ptr<Bench::SignalCount> signalCount;
    WebSocketSource source;
    std::unique_ptr<LiveFeed> feed;
};

struct BareSocket : Client
{
    BareSocket(const QUrl &url, const QElapsedTimer &clock)
    {
        QObject::connect(&socket, &QWebSocket::textMessageReceived, &socket,
                         [this, &clock](const QString &text) {
                             const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8());
                             parsed += document.isObject();
                             handledAtNs = clock.nsecsElapsed();
                         });
        socket.open(url);
    }
    qint64 handled() const override { return parsed; }
    QWebSocket socket;
    qint64 parsed = 0;
};

struct OneByOne
{
    double cpuMsPerMessage = 0;
    std::vector<double> latencyMs;
};

//! Sends one frame at a time and waits until \a client handled it.
OneByOne oneByOne(Bench::PushServerThread &server, Client &client, Frames &frames)
{
    OneByOne result;
    auto once = [&](int i) {
        const qint64 before = client.handled();
        server.send(1, [&frames, i](int) { return frames.next(i); });
        waitUntil([&] { return client.handled() > before; });
    };
    for (int i = 0; i < WarmUp; ++i)
        once(i);
    const double cpu = Bench::threadCpuMs();
    for (int i = 0; i < Rounds; ++i) {
        once(WarmUp + i);
        result.latencyMs.push_back(double(client.handledAtNs - server.lastSentNs()) / 1e6);
    }
    result.cpuMsPerMessage = (Bench::threadCpuMs() - cpu) / Rounds;
    return result;
}

struct Flood
{
    double cpuMs = 0;
    double wallMs = 0;
    double stallMs = 0;
};

Flood flood(Bench::PushServerThread &server, Client &client, Frames &frames)
{
    const qint64 target = client.handled() + FloodSize;
    Bench::StallMeter stalls;
    const double cpu = Bench::threadCpuMs();
    QElapsedTimer wall;
    wall.start();
    server.send(FloodSize, [&frames](int i) { return frames.next(i); });
    waitUntil([&] { return client.handled() >= target; });
    return {Bench::threadCpuMs() - cpu, double(wall.nsecsElapsed()) / 1e6, stalls.stop()};
}

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[std::min(values.size() - 1, size_t(p * values.size()))];
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(push)
{
    const QStringList names {u"p.push.update1.10k"_s, u"p.push.flood.10k"_s, u"p.push.latency"_s};
    if (std::none_of(names.cbegin(), names.cend(),
                     [&](const QString &name) { return bench.wanted(name); }))
        return;
    const QJsonArray todos = QJsonDocument::fromJson(bench.file(u"todos-10k.json"_s)).array();
    Frames frames;
    for (const QJsonValue &todo : todos) {
        frames.ids.append(
            QString::fromUtf8(QJsonDocument(QJsonArray {todo.toObject().value(u"id"_s)})
                                  .toJson(QJsonDocument::Compact)
                                  .mid(1)
                                  .chopped(1)));
    }
    QElapsedTimer clock;
    clock.start();
    Bench::PushServerThread server(&clock);

    // The floor first, then the shown list, each alone on the server.
    OneByOne floorOne;
    Flood floorFlood;
    {
        BareSocket bare(server.url(), clock);
        if (!waitUntil([&] { return server.clients() == 1; })) {
            bench.fail(u"p.push.update1.10k"_s, u"the bare socket did not connect"_s);
            return;
        }
        floorOne = oneByOne(server, bare, frames);
        flood(server, bare, frames); // warm-up
        floorFlood = flood(server, bare, frames);
    }
    server.dropClients();

    ShownList shown(todos, server.url(), clock);
    if (shown.model->rowCount() != todos.size()
        || !waitUntil([&] { return server.clients() == 1; })) {
        bench.fail(u"p.push.update1.10k"_s, u"the shown list is not set up"_s);
        return;
    }
    const int signalsBefore = shown.signalCount->total;
    const OneByOne ours = oneByOne(server, shown, frames);
    const double signalsPerMessage
        = double(shown.signalCount->total - signalsBefore) / double(WarmUp + Rounds);
    flood(server, shown, frames); // warm-up: every row's title replaced once
    const qint64 heapBefore = Bench::Runner::heapInUse();
    const int floodSignalsBefore = shown.signalCount->total;
    const Flood oursFlood = flood(server, shown, frames);
    const qint64 heapAfter = Bench::Runner::heapInUse();

    bench.report({{u"name"_s, u"p.push.update1.10k"_s},
                  {u"ms_per_op"_s, ours.cpuMsPerMessage},
                  {u"floor_ms_per_op"_s, floorOne.cpuMsPerMessage},
                  {u"ratio"_s, ours.cpuMsPerMessage / floorOne.cpuMsPerMessage},
                  {u"signals"_s, signalsPerMessage},
                  {u"rounds"_s, Rounds}});
    if (signalsPerMessage != 1.0) {
        bench.fail(u"p.push.update1.10k"_s,
                   u"%1 model signals per message, expected 1"_s.arg(signalsPerMessage));
    }
    bench.report({{u"name"_s, u"p.push.flood.10k"_s},
                  {u"total_ms"_s, oursFlood.cpuMs},
                  {u"wall_ms"_s, oursFlood.wallMs},
                  {u"messages_per_s"_s, FloodSize / (oursFlood.wallMs / 1000)},
                  {u"stall_max_ms"_s, oursFlood.stallMs},
                  {u"signals"_s, shown.signalCount->total - floodSignalsBefore},
                  {u"heap_before"_s, heapBefore},
                  {u"heap_after"_s, heapAfter},
                  {u"memory_ratio"_s, double(heapAfter) / double(heapBefore)},
                  {u"floor_total_ms"_s, floorFlood.cpuMs},
                  {u"floor_wall_ms"_s, floorFlood.wallMs},
                  {u"floor_messages_per_s"_s, FloodSize / (floorFlood.wallMs / 1000)},
                  {u"ratio"_s, oursFlood.cpuMs / floorFlood.cpuMs}});
    bench.report({{u"name"_s, u"p.push.latency"_s},
                  {u"median_ms"_s, percentile(ours.latencyMs, 0.5)},
                  {u"p99_ms"_s, percentile(ours.latencyMs, 0.99)},
                  {u"floor_median_ms"_s, percentile(floorOne.latencyMs, 0.5)},
                  {u"floor_p99_ms"_s, percentile(floorOne.latencyMs, 0.99)},
                  {u"samples"_s, Rounds}});
}
