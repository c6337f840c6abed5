// The scale axis: the same operations at 1k, 10k, 100k and 1M
// todos, for the growth table of docs/performance.md. 1k and 10k are the data folder's files;
// 100k and 1M are read from `--scale DIR` (made by ../shared/bench-data/gen-scale.mjs, the same
// rules and author pool; not kept in the repository) and skipped without it; 200k, 500k, 2M and
// 4M too when DIR holds them (bench/gen-scale-more.mjs: the growth curve past 1M).
//  s.parse.N           CompactJson::parse() of the file
//  s.normalize.N       setResponse() of the parsed list into an empty store (Collection)
//  s.memory.store.N    heap the store retains after that ("bytes", "bytes_per_todo")
//  s.update1.N         one todo changed (setResponse of the todo), the list read back
//  s.get.warm.N        Controller::getResponse() of the stored list, unchanged store
//  s.model.update1.N   one todo changed under a CollectionModel: ms from the commit to the row's
//                      dataChanged ("total_ms" from the setResponse() call), "signals" per change
//  s.model.show.N      a CollectionModel opened on the stored list (memo warm) until it has its rows
#include "benchdata.h"
#include "benchmark.h"
#include "modelsignals.h"
#include "oprounds.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/compactjson.h>
#include <DataClient/controller.h>
#include <DataClient/restendpoint.h>
#include <DataClient/rowlist.h>
#include <DataClient/store.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <chrono>
#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

const QString listKey = u"GET http://bench/todos"_s;

double msOf(const std::function<void()> &op)
{
    const auto start = std::chrono::steady_clock::now();
    op();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// Ops of 10 ms to seconds: one warm-up, then \a runs timed ops (setup untimed); the median.
void timeRuns(Bench::Runner &bench, const QString &name, int runs,
              const std::function<void()> &setup, const std::function<void()> &op)
{
    if (!bench.wanted(name))
        return;
    std::vector<double> times;
    for (int i = 0; i <= runs; ++i) {
        if (setup)
            setup();
        const double ms = msOf(op);
        if (i > 0)
            times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    bench.report({{u"name"_s, name},
                  {u"ms_per_op"_s, Bench::medianOf(times)},
                  {u"min_ms"_s, times.front()},
                  {u"max_ms"_s, times.back()},
                  {u"rounds"_s, runs},
                  {u"ops_per_round"_s, 1}});
}

// Edits of todos 1..1000 (rows 0..999 of every size: ids are 1..N in order), taken from
// todos-1k.json (an author has the same content in every file). Each next() changes its todo's
// title to one never sent before, so that every op is a real change (an edit sent twice would
// change nothing and cost nothing).
class Edits
{
public:
    explicit Edits(Bench::Runner &bench)
        : m_todos(QJsonDocument::fromJson(bench.file(u"todos-1k.json"_s)).array())
    { }
    struct Edit
    {
        Params params;
        CompactJson todo;
        qsizetype row;
        QString title;
    };
    Edit next()
    {
        const qsizetype row = (m_count * 7919) % m_todos.size();
        QJsonObject todo = m_todos.at(row).toObject();
        const QString title = u"edit %1"_s.arg(m_count++);
        todo.insert(u"title"_s, title);
        todo.insert(u"completed"_s, m_count % 2 == 0);
        return {{{u"id"_s, todo.value(u"id"_s).toInteger()}},
                CompactJson::parse(QJsonDocument(todo).toJson(QJsonDocument::Compact)),
                row,
                title};
    }

private:
    QJsonArray m_todos;
    qsizetype m_count = 0;
};

struct Size
{
    QString suffix;
    QByteArray bytes;
    qsizetype todos = 0;
};

void storeAtScale(Bench::Runner &bench, const Size &size, const CompactJson &parsed)
{
    const QString s = size.suffix;
    const int runs = size.todos >= 100000 ? 5 : 11;
    const Meta meta {1, 1, 60001};
    timeRuns(bench, u"s.parse."_s + s, runs, {}, [&] { CompactJson::parse(size.bytes); });

    std::unique_ptr<Store> store;
    timeRuns(
        bench, u"s.normalize."_s + s, runs, [&] { store = std::make_unique<Store>(); },
        [&] { store->setResponse(listKey, Bench::todoCollection(), {}, parsed, meta); });

    if (bench.wanted(u"s.memory.store."_s + s)) {
        store.reset();
        const qint64 base = Bench::Runner::heapInUse();
        store = std::make_unique<Store>();
        {
            // parsed here, so that the input's nodes the store does not keep are released
            const CompactJson input = CompactJson::parse(size.bytes);
            store->setResponse(listKey, Bench::todoCollection(), {}, input, meta);
        }
        const qint64 bytes = Bench::Runner::heapInUse() - base;
        bench.report({{u"name"_s, u"s.memory.store."_s + s},
                      {u"bytes"_s, bytes},
                      {u"mb"_s, double(bytes) / 1e6},
                      {u"bytes_per_todo"_s, double(bytes) / double(size.todos)}});
    }

    // one changed todo (200 different edits of the first 2000 rows in turn), the list read back
    const QString update = u"s.update1."_s + s;
    if (bench.wanted(update)) {
        store = std::make_unique<Store>();
        store->setResponse(listKey, Bench::todoCollection(), {}, parsed, meta);
        store->denormalize(listKey, Bench::todoCollection(), {});
        Edits edits(bench);
        Edits::Edit edit;
        qint64 date = 2;
        QVariant list;
        bench.time(
            update, [&] { edit = edits.next(); },
            [&] {
                store->setResponse(u"GET http://bench/todos/x"_s, Bench::todoSchema(), {},
                                   edit.todo, Meta {date, date, date + 60000});
                ++date;
                list = store->denormalize(listKey, Bench::todoCollection(), {}).data;
            });
        const Record shown = rowsOf(list).value(edit.row).value<Record>();
        if (shown.value(u"title"_s).toString() != edit.title)
            bench.fail(update, u"the list does not show the change"_s);
    }
}

void controllerAtScale(Bench::Runner &bench, const Size &size, const CompactJson &parsed)
{
    const QString s = size.suffix;
    const QStringList names {u"s.get.warm."_s + s, u"s.model.update1."_s + s,
                             u"s.model.show."_s + s};
    if (std::none_of(names.cbegin(), names.cend(),
                     [&](const QString &n) { return bench.wanted(n); }))
        return;
    // Nothing is fetched: the data is set directly; the prefix only forms the cache keys.
    const EndpointPtr getList = RestEndpoint::create({.name = u"getList"_s,
                                                      .path = u"/todos"_s,
                                                      .urlPrefix = u"http://127.0.0.1:9"_s,
                                                      .schema = Bench::todoCollection()});
    const EndpointPtr get = RestEndpoint::create({.name = u"get"_s,
                                                  .path = u"/todos/:id"_s,
                                                  .urlPrefix = u"http://127.0.0.1:9"_s,
                                                  .schema = Bench::todoSchema()});
    Controller controller;
    controller.setResponse(getList, {}, parsed);
    controller.getResponse(getList, {}); // memo warm
    qsizetype checksum = 0;
    bench.time(names[0], {}, [&] { checksum += controller.getResponse(getList, {}).found; });

    const int runs = size.todos >= 1000000 ? 5 : 11;
    timeRuns(bench, names[2], runs, {}, [&] {
        CollectionModel model(&controller, getList, {});
        if (model.rowCount() != size.todos)
            bench.fail(names[2], u"wrong row count %1"_s.arg(model.rowCount()));
    });

    if (!bench.wanted(names[1]))
        return;
    QElapsedTimer clock;
    qint64 committedAt = 0;
    qint64 deliveredAt = 0;
    // Connected before the model's own connection: runs first, right after the commit.
    QObject::connect(&controller, &Controller::changed, &controller,
                     [&] { committedAt = clock.nsecsElapsed(); });
    CollectionModel model(&controller, getList, {});
    Bench::SignalCount signalCount(&model, [&] { deliveredAt = clock.nsecsElapsed(); });
    Edits edits(bench);
    int maxSignals = 0;
    std::vector<double> totals;
    const auto updateOne = [&]() -> double {
        const Edits::Edit change = edits.next();
        const int before = signalCount.total;
        committedAt = deliveredAt = 0;
        clock.start();
        controller.setResponse(get, change.params, change.todo);
        maxSignals = std::max(maxSignals, signalCount.total - before);
        totals.push_back(double(deliveredAt) / 1e6);
        return double(deliveredAt - committedAt) / 1e6;
    };
    QJsonObject line = Bench::timeOpRounds(names[1], 20, 5, 20, updateOne);
    line.insert(u"signals"_s, maxSignals);
    line.insert(u"total_ms"_s, Bench::medianOf(totals));
    bench.report(line);
    if (maxSignals != 1)
        bench.fail(names[1], u"one update gave %1 model signals, expected 1"_s.arg(maxSignals));
    if (checksum == 42)
        std::puts(""); // keeps the checksum alive
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(scaleScenarios)
{
    // Not part of a full run (minutes at 1M): only with --scale or --only s.something.
    if (bench.scaleDir().isEmpty() && !bench.askedFor(u"s."_s))
        return;
    // 100k and 1m from gen-scale.mjs; the sizes between and past them (the growth curve in
    // docs/performance.md) from bench/gen-scale-more.mjs, each only when its file is there.
    for (const char *suffix : {"1k", "10k", "100k", "200k", "500k", "1m", "2m", "4m"}) {
        Size size;
        size.suffix = QString::fromLatin1(suffix);
        const bool generated = size.suffix != u"1k"_s && size.suffix != u"10k"_s;
        const QString file = u"todos-%1.json"_s.arg(size.suffix);
        if (generated) {
            if (bench.scaleDir().isEmpty() || !QFileInfo::exists(bench.scaleDir() + u'/' + file))
                continue;
            size.bytes = bench.scaleFile(file);
        } else {
            size.bytes = bench.file(file);
        }
        const CompactJson parsed = CompactJson::parse(size.bytes);
        size.todos = parsed.size();
        storeAtScale(bench, size, parsed);
        controllerAtScale(bench, size, parsed);
    }
}
