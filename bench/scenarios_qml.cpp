// QML layer scenarios, measured on the model C++ and QML views share (CollectionModel):
//  q.model.update1.10k              ms from the store commit of one changed todo (the Controller's
//                                    changed() signal) until the 10k-row model has delivered its
//                                    signals; "signals" = model signals per update (1 expected).
//  q.model.show.10k                 ms to open a model on a stored 10k list (memo warm): the
//                                    model's own cost of taking 10k rows.
//  q.response.10k.gui_block_max_ms  the longest single GUI-thread stall while todos-10k.json is
//                                    fetched from an in-process server (on its own thread),
//                                    committed, and shown by a model.
//  q.response.10k.qml.gui_block_max_ms  the same through a QML Resource and Suspense.
#include "benchdata.h"
#include "benchmark.h"
#include "modelsignals.h"
#include "oprounds.h"
#include "serverthread.h"
#include "stallmeter.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/qmlcontroller.h>
#include <DataClient/restendpoint.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFutureWatcher>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;
using Bench::printLine;
using Bench::ServerThread;
using Bench::SignalCount;

namespace {

struct Endpoints
{
    EndpointPtr getList;
    EndpointPtr get;
};

Endpoints endpoints(const QString &urlPrefix)
{
    return {RestEndpoint::create({.name = u"getList"_s,
                                  .path = u"/todos"_s,
                                  .urlPrefix = urlPrefix,
                                  .schema = Bench::todoCollection()}),
            RestEndpoint::create({.name = u"get"_s,
                                  .path = u"/todos/:id"_s,
                                  .urlPrefix = urlPrefix,
                                  .schema = Bench::todoSchema()})};
}

void modelUpdate(Bench::Runner &bench)
{
    const QString name = u"q.model.update1.10k"_s;
    if (!bench.wanted(name))
        return;
    const QJsonArray todos = QJsonDocument::fromJson(bench.file(u"todos-10k.json"_s)).array();
    // Nothing is fetched: the data is set directly; the prefix only forms the cache keys.
    const Endpoints api = endpoints(u"http://127.0.0.1:9"_s);
    Controller controller;
    controller.setResponse(api.getList, {}, todos);

    QElapsedTimer clock;
    qint64 committedAt = 0;
    qint64 deliveredAt = 0;
    // Connected before the model's own connection: runs first, right after the commit.
    QObject::connect(&controller, &Controller::changed,
                     [&] { committedAt = clock.nsecsElapsed(); });
    CollectionModel model(&controller, api.getList, {});
    if (model.rowCount() != todos.size()) {
        bench.fail(
            name,
            u"the model shows %1 rows, expected %2"_s.arg(model.rowCount()).arg(todos.size()));
        return;
    }
    SignalCount signalCount(&model, [&] { deliveredAt = clock.nsecsElapsed(); });

    int edit = 0;
    int maxSignals = 0;
    auto updateOne = [&]() -> double {
        const int index = (edit * 7919) % 2000; // cycle through 2000 different todos
        QJsonObject todo = todos.at(index).toObject();
        todo.insert(u"title"_s, u"edit %1"_s.arg(edit));
        todo.insert(u"completed"_s, edit % 2 == 0);
        ++edit;
        const int before = signalCount.total;
        clock.start();
        committedAt = deliveredAt = 0;
        controller.setResponse(api.get, {{u"id"_s, todo.value(u"id"_s)}}, todo);
        maxSignals = std::max(maxSignals, signalCount.total - before);
        return double(deliveredAt - committedAt) / 1e6;
    };
    QJsonObject line = Bench::timeOpRounds(name, 200, 11, 100, updateOne);
    line.insert(u"signals"_s, maxSignals);
    printLine(line);
    if (maxSignals != 1)
        bench.fail(name, u"one update gave %1 model signals, expected 1"_s.arg(maxSignals));
}

void modelShow(Bench::Runner &bench)
{
    const QJsonArray todos = QJsonDocument::fromJson(bench.file(u"todos-10k.json"_s)).array();
    const Endpoints api = endpoints(u"http://127.0.0.1:9"_s);
    Controller controller;
    controller.setResponse(api.getList, {}, todos);
    controller.getResponse(api.getList, {}); // memo warm
    bench.time(u"q.model.show.10k"_s, {}, [&] {
        CollectionModel model(&controller, api.getList, {});
        if (model.rowCount() != todos.size())
            bench.fail(u"q.model.show.10k"_s, u"wrong row count %1"_s.arg(model.rowCount()));
    });
}

// What one round of a stall scenario shows: a model that starts fetching when made.
using ModelMaker = std::function<CollectionModel *(Controller *controller)>;

// The longest GUI-thread stall while \a makeModel's model fetches todos-10k.json, commits it
// and shows it (median over rounds), with the total time and the model's share.
void measureStall(Bench::Runner &bench, const QString &name, const ModelMaker &makeModel)
{
    auto once = [&](double *totalMs, double *modelMs) -> double {
        Controller controller;
        qint64 committedAt = 0;
        qint64 shownAt = 0;
        Bench::StallMeter clock;
        QObject::connect(&controller, &Controller::changed, [&] { committedAt = clock.elapsed(); });
        CollectionModel *model = makeModel(&controller); // fetches: nothing is stored
        QObject::connect(model, &QAbstractItemModel::rowsInserted,
                         [&] { shownAt = clock.elapsed(); });
        QEventLoop loop;
        QObject::connect(model, &CollectionModel::statusChanged, &loop, [&] {
            if (model->status() != CollectionModel::Loading)
                loop.quit();
        });
        if (model->status() == CollectionModel::Loading)
            loop.exec();
        const qint64 end = clock.elapsed();
        const double longest = clock.stop();
        *totalMs = double(end) / 1e6;
        *modelMs = double(shownAt - committedAt) / 1e6;
        if (model->rowCount() != 10000)
            bench.fail(name, u"the model shows %1 rows, expected 10000"_s.arg(model->rowCount()));
        delete model;
        return longest;
    };
    const int rounds = 7;
    double total = 0;
    double modelPart = 0;
    once(&total, &modelPart); // warm-up (connections, caches)
    std::vector<double> stalls;
    std::vector<double> totals;
    std::vector<double> modelParts;
    for (int r = 0; r < rounds; ++r) {
        stalls.push_back(once(&total, &modelPart));
        totals.push_back(total);
        modelParts.push_back(modelPart);
    }
    std::sort(stalls.begin(), stalls.end());
    printLine({{u"name"_s, name},
               {u"ms_per_op"_s, Bench::medianOf(stalls)},
               {u"min_ms"_s, stalls.front()},
               {u"max_ms"_s, stalls.back()},
               {u"total_ms"_s, Bench::medianOf(totals)},
               // of the stall: from the commit (changed()) to the model's rowsInserted
               {u"model_ms"_s, Bench::medianOf(modelParts)},
               {u"rounds"_s, rounds}});
}

void responseStall(Bench::Runner &bench)
{
    const QString name = u"q.response.10k.gui_block_max_ms"_s;
    if (!bench.wanted(name))
        return;
    ServerThread server(bench.file(u"todos-10k.json"_s));
    const Endpoints api = endpoints(server.url());
    measureStall(bench, name, [&](Controller *controller) {
        auto *model = new CollectionModel;
        model->setController(controller);
        model->setEndpoint(api.getList);
        return model;
    });
}

// The same through QML: a Resource and a Suspense on Entities declared in QML, the way a QML
// application fetches (the Suspense is the model).
void qmlResponseStall(Bench::Runner &bench)
{
    const QString name = u"q.response.10k.qml.gui_block_max_ms"_s;
    if (!bench.wanted(name))
        return;
    ServerThread server(bench.file(u"todos-10k.json"_s));
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(DATACLIENT_QML_DIR));
    QQmlComponent component(&engine);
    const QByteArray qml = R"(
import QtQml
import DataClient
Suspense {
    property Entity user: Entity { key: "User"; primaryKey: "id" }
    property Entity todo: Entity { key: "Todo"; primaryKey: "id"
        fields: ({ createdAt: Deserialize.dateTime, author: user }) }
    property Resource todos: Resource { urlPrefix: "URL"; path: "/todos/:id"; schema: todo }
    endpoint: todos.getList
    params: ({})
}
)";
    component.setData(QByteArray(qml).replace("URL", server.url().toUtf8()), QUrl(u"bench.qml"_s));
    if (component.isError())
        return bench.fail(name, component.errorString());
    measureStall(bench, name, [&](Controller *controller) {
        setQmlController(&engine, controller);
        return qobject_cast<CollectionModel *>(component.create());
    });
    setQmlController(&engine, nullptr);
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(qmlScenarios)
{
    modelUpdate(bench);
    if (bench.wanted(u"q.model.show.10k"_s))
        modelShow(bench);
    responseStall(bench);
    qmlResponseStall(bench);
}
