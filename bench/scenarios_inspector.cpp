// The store inspector's cost (docs/inspector.md):
//  i.open.10k                 attach a StoreInspector to a Controller holding 10k todos (and their
//                             authors) and read what a view shows on opening: the first 40 rows
//                             of every model, the Todo type expanded; "ms_per_op" = GUI-thread CPU
//                             time (median of 15), the budget one frame (16 ms)
//  i.set+get.cold.10k.none    f.controller.set+get.cold.10k, then the event loop's turn (where the
//                             inspector's models catch up), no inspector
//  i.set+get.cold.10k.inspector the same with an inspector attached (its recorder registered, its
//                             models following): within 10 % of .none, same run
//  i.preview.huge             what a view shows of an entity of 100k fields and of one holding a
//                             50 MB string: their rows in the entities model, the answer's row in
//                             the results model and the two writes in the timeline; GUI-thread
//                             CPU time (median of 15), the budget one frame (16 ms)
#include "benchdata.h"
#include "benchmark.h"
#include "threadtime.h"

#include <DataClient/compactjson.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/entityschema.h>
#include <DataClient/inspectorentitiesmodel.h>
#include <DataClient/store.h>
#include <DataClient/storeinspector.h>

#include <QtCore/QAbstractItemModel>
#include <QtCore/QCoreApplication>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>

#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

//! Reads the display data of the first \a rows rows (every column) under \a parent.
qsizetype readFirstRows(const QAbstractItemModel *model, int rows, const QModelIndex &parent = {})
{
    qsizetype chars = 0;
    const int shown = qMin(rows, model->rowCount(parent));
    for (int row = 0; row < shown; ++row) {
        for (int column = 0; column < model->columnCount(parent); ++column)
            chars += model->index(row, column, parent).data().toString().size();
    }
    return chars;
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(inspectorScenarios)
{
    const Resource todos = createResource({.path = u"/todos/:id"_s,
                                           .schema = Bench::todoSchema(),
                                           .urlPrefix = u"http://bench.invalid"_s});
    QNetworkAccessManager network; // never used: nothing is sent
    const QString open = u"i.open.10k"_s;
    if (bench.wanted(open)) {
        Controller controller(&network);
        controller.setResponse(todos.getList, {},
                               CompactJson::parse(bench.file(u"todos-10k.json"_s)));
        std::vector<double> times;
        qsizetype checksum = 0;
        for (int round = 0; round < 15; ++round) {
            const double start = Bench::threadCpuMs();
            StoreInspector inspector;
            inspector.setController(&controller);
            for (QAbstractItemModel *model :
                 {inspector.entities(), inspector.results(), inspector.requests(),
                  inspector.status(), inspector.outbox(), inspector.timeline()})
                checksum += readFirstRows(model, 40);
            const int todoType = inspector.entitiesModel()->typeRow(u"Todo"_s);
            checksum += readFirstRows(inspector.entities(), 40,
                                      inspector.entities()->index(todoType, 0));
            times.push_back(Bench::threadCpuMs() - start);
        }
        if (checksum == 0)
            bench.fail(open, u"the models showed nothing"_s);
        bench.report(QJsonObject {{u"name"_s, open},
                                  {u"ms_per_op"_s, Bench::median(times)},
                                  {u"entities"_s, qint64(controller.store().entityCount())},
                                  {u"budget_ms"_s, 16}});
    }

    const QString huge = u"i.preview.huge"_s;
    if (bench.wanted(huge)) {
        Controller controller(&network);
        QJsonObject half; // 100k fields: two nested objects (at most 65536 in one)
        for (int field = 0; field < 50000; ++field)
            half.insert(u"f%1"_s.arg(field, 5, 10, QChar(u'0')), field); // in key order: appended
        controller.set(Schema::entity(EntitySchema(u"Wide"_s)),
                       QJsonObject {{u"id"_s, 1}, {u"a"_s, half}, {u"b"_s, half}});
        const Resource big = createResource({.path = u"/big/:id"_s,
                                             .schema = Schema::entity(EntitySchema(u"Big"_s)),
                                             .urlPrefix = u"http://bench.invalid"_s});
        StoreInspector inspector;
        inspector.setController(&controller);
        controller.setResponse(
            big.get, {{u"id"_s, 7}},
            QJsonObject {{u"id"_s, 7}, {u"blob"_s, QString(50 * 1024 * 1024, u'x')}});
        QCoreApplication::processEvents(); // the models catch up
        std::vector<double> times;
        qsizetype checksum = 0;
        for (int round = 0; round < 15; ++round) {
            const double start = Bench::threadCpuMs();
            const QAbstractItemModel *entities = inspector.entities();
            for (int type = 0; type < entities->rowCount(); ++type)
                checksum += readFirstRows(entities, 1, entities->index(type, 0));
            checksum += readFirstRows(inspector.results(), 1);
            checksum += readFirstRows(inspector.timeline(), 2);
            times.push_back(Bench::threadCpuMs() - start);
        }
        if (checksum == 0)
            bench.fail(huge, u"the models showed nothing"_s);
        bench.report(QJsonObject {
            {u"name"_s, huge}, {u"ms_per_op"_s, Bench::median(times)}, {u"budget_ms"_s, 16}});
    }

    const CompactJson parsed = CompactJson::parse(bench.file(u"todos-10k.json"_s));
    for (const bool attached : {false, true}) {
        const QString name = u"i.set+get.cold.10k."_s + (attached ? u"inspector"_s : u"none"_s);
        if (!bench.wanted(name))
            continue;
        std::unique_ptr<StoreInspector> inspector;
        std::unique_ptr<Controller> controller;
        qsizetype checksum = 0;
        bench.time(
            name,
            [&] {
                inspector.reset();
                controller = std::make_unique<Controller>(&network);
                if (attached) {
                    inspector = std::make_unique<StoreInspector>();
                    inspector->setController(controller.get());
                }
            },
            [&] {
                controller->setResponse(todos.getList, {}, parsed);
                checksum += Bench::touchAll(controller->getResponse(todos.getList, {}).data);
                QCoreApplication::processEvents(); // the inspector's models catch up here
            });
        if (attached && inspector->entities()->rowCount() == 0)
            bench.fail(name, u"the inspector did not follow the write"_s);
        Q_UNUSED(checksum);
    }
}
