// Scenarios o.* of the persisted store (docs/offline.md), todos-10k:
//   o.persist.10k  GUI-thread time of one commit (update1, as f.controller.update1.10k) with
//                  persistence on, every commit's write run at once (persistIntervalMs 0: the
//                  worst case, a snapshot taken per commit), beside the same op in memory
//   o.hydrate.10k  a new Controller given the file -> the 10k rows read (every field), no network
//   o.file.10k     the file's size (bytes) beside the JSON's
//   o.*.cbor       the other candidate: the list as Qt CBOR (what a denormalized cache would keep)
//                  and its hydration (CBOR decoded, then normalized like an answer)
#include "benchdata.h"
#include "benchmark.h"

#include <DataClient/compactjson.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>

#include <QtCore/QCborValue>
#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>

#include <algorithm>
#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

DATACLIENT_BENCH_SCENARIOS(persistScenarios)
{
    const bool any = bench.wanted(u"o.persist.10k"_s) || bench.wanted(u"o.hydrate.10k"_s)
        || bench.wanted(u"o.file.10k"_s);
    if (!any)
        return;
    const Resource todos = createResource({.path = u"/todos/:id"_s,
                                           .schema = Bench::todoSchema(),
                                           .urlPrefix = u"http://bench.invalid"_s});
    const Params all;
    QNetworkAccessManager network; // never used
    QTemporaryDir dir;
    const QString file = dir.filePath(u"store.dcstore"_s);
    const QByteArray bytes = bench.file(u"todos-10k.json"_s);
    const CompactJson parsed = CompactJson::parse(bytes);
    const QJsonArray items = QJsonDocument::fromJson(bytes).array();

    // The edits of f.controller.update1.10k.
    struct Edit
    {
        Params params;
        CompactJson value;
    };
    std::vector<Edit> edits;
    for (int i = 0; i < 2000; ++i) {
        QJsonObject todo = items.at(i * 5).toObject();
        todo.insert(u"title"_s, u"edited %1"_s.arg(i));
        edits.push_back({{{u"id"_s, todo.value(u"id"_s).toInt()}},
                         CompactJson::parse(QJsonDocument(todo).toJson(QJsonDocument::Compact))});
    }
    const auto updateTimes = [&](bool persisted) {
        QFile::remove(file);
        qint64 now = 1704067200000;
        Controller controller(&network);
        controller.setClock([&now] { return now; });
        if (persisted) {
            controller.setPersistence(file);
            controller.setPersistIntervalMs(0);
        }
        controller.setResponse(todos.getList, all, parsed);
        size_t next = 0;
        std::vector<double> times;
        QElapsedTimer timer;
        for (int i = 0; i < 400; ++i) {
            const Edit &edit = edits[next++ % edits.size()];
            timer.start();
            controller.setResponse(todos.get, edit.params, edit.value);
            (void)controller.getResponse(todos.getList, all).data;
            now += 1;
            controller.runDueTimers(); // the write-behind's GUI-thread part: the snapshot
            times.push_back(double(timer.nsecsElapsed()) / 1e6);
            QCoreApplication::processEvents(); // a write that ended lets the next one start
        }
        times.erase(times.begin(), times.begin() + 50); // warm-up
        std::sort(times.begin(), times.end());
        double sum = 0;
        for (const double t : times)
            sum += t;
        return QJsonObject {{u"median_ms"_s, times[times.size() / 2]},
                            {u"mean_ms"_s, sum / double(times.size())},
                            {u"worst_ms"_s, times.back()}};
    };

    if (bench.wanted(u"o.persist.10k"_s)) {
        const QJsonObject memory = updateTimes(false);
        const QJsonObject persisted = updateTimes(true);
        const double over
            = persisted.value(u"mean_ms"_s).toDouble() - memory.value(u"mean_ms"_s).toDouble();
        bench.report({{u"name"_s, u"o.persist.10k"_s},
                      {u"ms_per_op"_s, persisted.value(u"mean_ms"_s)},
                      {u"persisted"_s, persisted},
                      {u"in_memory"_s, memory},
                      {u"over_in_memory_ms"_s, over},
                      {u"interval_ms"_s, 0}});
    }

    // The file of todos-10k, written on the way out.
    QFile::remove(file);
    {
        Controller controller(&network);
        controller.setPersistence(file);
        controller.setResponse(todos.getList, all, parsed);
    }
    const qint64 fileBytes = QFileInfo(file).size();
    const QByteArray cbor = QCborValue::fromJsonValue(items).toCbor();
    if (bench.wanted(u"o.file.10k"_s)) {
        bench.report({{u"name"_s, u"o.file.10k"_s},
                      {u"bytes"_s, fileBytes},
                      {u"json_bytes"_s, bytes.size()},
                      {u"cbor_bytes"_s, cbor.size()}});
    }
    if (bench.wanted(u"o.hydrate.10k"_s)) {
        qsizetype checksum = 0;
        std::unique_ptr<Controller> controller;
        bench.time(
            u"o.hydrate.10k"_s, [&] { controller.reset(); },
            [&] {
                controller = std::make_unique<Controller>(&network);
                controller->setPersistence(file);
                checksum += Bench::touchAll(controller->getResponse(todos.getList, all).data);
            });
        bench.time(
            u"o.hydrate.10k.cbor"_s, [&] { controller.reset(); },
            [&] {
                controller = std::make_unique<Controller>(&network);
                const QJsonValue value = QCborValue::fromCbor(cbor).toJsonValue();
                controller->setResponse(todos.getList, all, value);
                checksum += Bench::touchAll(controller->getResponse(todos.getList, all).data);
            });
        controller.reset();
        if (checksum == 0)
            bench.fail(u"o.hydrate.10k"_s, u"no rows shown"_s);
    }
}
