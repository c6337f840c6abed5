// Scenarios f.controller.* and h.paginate.10x100: the same store work as the
// store scenarios, but through a Controller and the endpoints of a resource (keys, expiry,
// change sets, signals), with no network. Inputs are parsed into the store's CompactJson form
// before timing, as in scenarios_store.cpp.
#include "benchdata.h"
#include "benchmark.h"

#include <DataClient/compactjson.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/record.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>

#include <memory>
#include <vector>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

Resource todoResource()
{
    return createResource({.path = u"/todos/:id"_s,
                           .schema = Bench::todoSchema(),
                           .urlPrefix = u"http://bench.invalid"_s,
                           .paginationField = u"page"_s});
}

const void *identity(const QVariant &list)
{
    return static_cast<const QVariantList *>(list.constData())->constData();
}

//! The list result is complete: \a count items, in the order of \a firstId, firstId + 1, ...
//! (when firstId > 0), dates deserialized, authors resolved.
QString checkList(const QVariant &list, qsizetype count, int firstId)
{
    const QVariantList items = list.toList();
    if (items.size() != count)
        return u"%1 items, expected %2"_s.arg(items.size()).arg(count);
    for (qsizetype i = 0; firstId > 0 && i < items.size(); ++i) {
        if (items.at(i).value<Record>().value(u"id"_s).toInt() != firstId + i)
            return u"item %1 out of order"_s.arg(i);
    }
    const Record first = items.value(0).value<Record>();
    if (first.value(u"createdAt"_s).typeId() != QMetaType::QDateTime
        || first.value(u"author"_s).value<Record>().value(u"username"_s).toString().isEmpty())
        return u"incomplete items"_s;
    return {};
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(controllerScenarios)
{
    const Resource todos = todoResource();
    const Params all;
    QNetworkAccessManager network; // never used: no scenario sends a request
    std::unique_ptr<Controller> controller;
    const auto emptyController = [&] { controller = std::make_unique<Controller>(&network); };
    qsizetype checksum = 0;

    // f: setResponse(getList, {}, list) then getResponse(getList, {}) from an empty store; the
    // result is lazy (Records), so the op also reads every field of every item once, as b does
    for (const char *size : {"1k", "10k"}) {
        const QString name = u"f.controller.set+get.cold."_s + QString::fromLatin1(size);
        if (!bench.wanted(name))
            continue;
        const CompactJson parsed
            = CompactJson::parse(bench.file(u"todos-%1.json"_s.arg(QString::fromLatin1(size))));
        bench.time(name, emptyController, [&] {
            controller->setResponse(todos.getList, all, parsed);
            checksum += Bench::touchAll(controller->getResponse(todos.getList, all).data);
        });
        // ".lazy": the same without reading the fields (a view reads only the rows it shows)
        bench.time(name + u".lazy"_s, emptyController, [&] {
            controller->setResponse(todos.getList, all, parsed);
            checksum += controller->getResponse(todos.getList, all).data.toList().size();
        });
        emptyController();
        controller->setResponse(todos.getList, all, parsed);
        const QString problem
            = checkList(controller->getResponse(todos.getList, all).data, parsed.size(), 1);
        if (!problem.isEmpty())
            bench.fail(name, problem);
    }

    // getResponse on an unchanged 1k store: the same time as 10k (constant, see get.warm.10k)
    if (bench.wanted(u"f.controller.get.warm.1k"_s)) {
        emptyController();
        controller->setResponse(todos.getList, all,
                                CompactJson::parse(bench.file(u"todos-1k.json"_s)));
        controller->getResponse(todos.getList, all);
        bench.time(u"f.controller.get.warm.1k"_s, {},
                   [&] { checksum += controller->getResponse(todos.getList, all).found; });
    }

    if (bench.wanted(u"f.controller.set+get.refetch.10k"_s)
        || bench.wanted(u"f.controller.get.warm.10k"_s)
        || bench.wanted(u"f.controller.update1.10k"_s)) {
        const QByteArray bytes = bench.file(u"todos-10k.json"_s);
        const CompactJson parsed = CompactJson::parse(bytes);

        // the same list again over a store that holds it, then read (every field once)
        emptyController();
        controller->setResponse(todos.getList, all, parsed);
        controller->getResponse(todos.getList, all);
        bench.time(u"f.controller.set+get.refetch.10k"_s, {}, [&] {
            controller->setResponse(todos.getList, all, parsed);
            checksum += Bench::touchAll(controller->getResponse(todos.getList, all).data);
        });

        // getResponse on an unchanged store: the identical shared result, whatever the size
        emptyController();
        controller->setResponse(todos.getList, all, parsed);
        const QVariant warm = controller->getResponse(todos.getList, all).data;
        bench.time(u"f.controller.get.warm.10k"_s, {},
                   [&] { checksum += controller->getResponse(todos.getList, all).found; });
        if (identity(controller->getResponse(todos.getList, all).data) != identity(warm))
            bench.fail(u"f.controller.get.warm.10k"_s, u"not the identical shared result"_s);

        // setResponse(get, {id}, changedTodo) on the 10k store, then getResponse(getList, {});
        // 2000 different edits (title and completed) in turn, as e.update does
        const QJsonArray items = QJsonDocument::fromJson(bytes).array();
        struct Edit
        {
            Params params;
            CompactJson value;
            QString title;
        };
        std::vector<Edit> edits;
        for (int variant = 0; variant < 2; ++variant) {
            for (int i = 0; i < 2000; ++i) {
                QJsonObject todo = items.at(i * 5).toObject();
                const QString title = u"edited %1 v%2"_s.arg(i).arg(variant);
                todo.insert(u"title"_s, title);
                todo.insert(u"completed"_s, !todo.value(u"completed"_s).toBool());
                edits.push_back(
                    {{{u"id"_s, todo.value(u"id"_s).toInt()}},
                     CompactJson::parse(QJsonDocument(todo).toJson(QJsonDocument::Compact)),
                     title});
            }
        }
        emptyController();
        controller->setResponse(todos.getList, all, parsed);
        const QVariant before = controller->getResponse(todos.getList, all).data;
        size_t next = 0;
        QVariant list;
        bench.time(u"f.controller.update1.10k"_s, {}, [&] {
            const Edit &edit = edits[next++ % edits.size()];
            controller->setResponse(todos.get, edit.params, edit.value);
            list = controller->getResponse(todos.getList, all).data;
        });
        if (next > 0) { // it ran (--only may have left it out)
            const size_t last = (next - 1) % edits.size();
            const QVariantList rows = list.toList();
            if (rows.value(int(last % 2000) * 5).value<Record>().value(u"title"_s).toString()
                != edits[last].title)
                bench.fail(u"f.controller.update1.10k"_s, u"the list does not show the change"_s);
            if (!rows.value(3).value<Record>().isSharedWith(
                    before.toList().value(3).value<Record>()))
                bench.fail(u"f.controller.update1.10k"_s, u"an untouched row was recomputed"_s);
        }
    }

    // h: getList page 1, then getPage for pages 2..10, then the list: 1000 todos in page order
    if (bench.wanted(u"h.paginate.10x100"_s)) { // also selects h.paginate.10x100.lazy
        std::vector<CompactJson> pages;
        for (int page = 1; page <= 10; ++page)
            pages.push_back(CompactJson::parse(bench.file(u"page-%1.json"_s.arg(page))));
        std::vector<Params> pageParams;
        for (int page = 1; page <= 10; ++page)
            pageParams.push_back({{u"page"_s, page}});
        QVariant list;
        const auto paginate = [&] {
            controller->setResponse(todos.getList, all, pages[0]);
            for (int page = 2; page <= 10; ++page)
                controller->setResponse(todos.getList.getPage, pageParams[page - 1],
                                        pages[page - 1]);
            list = controller->getResponse(todos.getList, all).data;
        };
        bench.time(u"h.paginate.10x100"_s, emptyController, [&] {
            paginate();
            checksum += Bench::touchAll(list); // every field once, as b and f do
        });
        bench.time(u"h.paginate.10x100.lazy"_s, emptyController, paginate);
        const QString problem = checkList(list, 1000, 100001);
        if (!problem.isEmpty())
            bench.fail(u"h.paginate.10x100"_s, problem);
    }

    if (checksum == 42)
        std::puts(""); // keeps the checksum alive
}
