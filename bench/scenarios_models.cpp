// Models layer scenarios, an editable CollectionModel as a Widgets table uses it:
//  q.model.edit1.10k   ms from setData() on one cell of a 10k-row model (title, optimistic
//                      partialUpdate) until the row shows the new value (its dataChanged has
//                      been delivered); "signals" = model signals per edit (1 expected). The
//                      PATCH goes to an in-process server on its own thread; each edit waits,
//                      untimed, for the previous answer.
#include "benchdata.h"
#include "benchmark.h"
#include "modelsignals.h"
#include "oprounds.h"
#include "serverthread.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <algorithm>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

void modelEdit(Bench::Runner &bench)
{
    const QString name = u"q.model.edit1.10k"_s;
    if (!bench.wanted(name))
        return;
    const QJsonArray todos = QJsonDocument::fromJson(bench.file(u"todos-10k.json"_s)).array();
    // The server answers a PATCH with the id and the fields it was sent.
    Bench::ServerThread server([](Testing::TestServer &http) {
        http.route("PATCH", u"/todos/:id"_s, [](const Testing::RecordedRequest &request) {
            QJsonObject answer = request.json().toObject();
            answer.insert(u"id"_s, request.pathParams.value(u"id"_s).toInt());
            return Testing::ServerResponse::json(answer);
        });
    });
    const Resource resource = createResource({.path = u"/todos/:id"_s,
                                              .schema = Bench::todoSchema(),
                                              .urlPrefix = server.url(),
                                              .optimistic = true});
    Controller controller;
    controller.setResponse(resource.getList, {}, todos); // stored: nothing is fetched
    CollectionModel model(&controller, resource.getList, {});
    model.setColumns({u"title"_s});
    model.setEditable(resource);
    if (model.rowCount() != todos.size()) {
        bench.fail(
            name,
            u"the model shows %1 rows, expected %2"_s.arg(model.rowCount()).arg(todos.size()));
        return;
    }

    QElapsedTimer clock;
    qint64 shownAt = 0;
    Bench::SignalCount signalCount(&model, [&] { shownAt = clock.nsecsElapsed(); });
    int edit = 0;
    int maxSignals = 0;
    qsizetype sent = 0;
    Params lastWrite;
    auto editOne = [&]() -> double {
        // Untimed: the previous answer is in, so each edit meets one optimistic layer at most.
        while (server.requestCount() < sent
               || controller.isLoading(resource.partialUpdate, lastWrite))
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        const int row = (edit * 7919) % int(todos.size());
        lastWrite = {{u"id"_s, todos.at(row).toObject().value(u"id"_s).toVariant()}};
        const QString title = u"edit %1"_s.arg(edit++);
        const int before = signalCount.total;
        shownAt = 0;
        clock.start();
        const bool accepted = model.setData(model.index(row, 0), title);
        const double ms = double(shownAt) / 1e6;
        ++sent;
        maxSignals = std::max(maxSignals, signalCount.total - before);
        if (!accepted || model.index(row, 0).data().toString() != title)
            bench.fail(name, u"edit %1 was not shown at once"_s.arg(edit));
        return ms;
    };
    QJsonObject line = Bench::timeOpRounds(name, 30, 11, 30, editOne);
    line.insert(u"signals"_s, maxSignals);
    Bench::printLine(line);
    if (maxSignals != 1)
        bench.fail(name, u"one edit gave %1 model signals, expected 1"_s.arg(maxSignals));
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(modelScenarios)
{
    modelEdit(bench);
}
