// Scenarios parse.*, a.*, b.*, c.*, e.* and memory.* on the Store alone, and j.tojson.*: the
// list result (a RowList of Records) converted to a QJsonArray, against building a QJsonDocument
// of the same data from its text (j.tojson.*.qjson).
// The input is what the store consumes: CompactJson (parsed by our parser). The ".qjson"
// variants measure the QJsonDocument/QJsonValue path for comparison.
#include "benchdata.h"
#include "benchmark.h"

#include <DataClient/compactjson.h>
#include <DataClient/store.h>
#include <DataClient/tojson.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

const QString listKey = u"GET http://bench/todos"_s;
const Meta meta {1, 1, 60001};

std::unique_ptr<Store> storeWithList(const CompactJson &list)
{
    auto store = std::make_unique<Store>();
    store->setResponse(listKey, Bench::todoCollection(), {}, list, meta);
    return store;
}

const void *identity(const QVariant &value)
{
    return static_cast<const QVariantList *>(value.constData())->constData();
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(storeScenarios)
{
    for (const char *size : {"1k", "10k"}) {
        const QString suffix = QString::fromLatin1(size);
        const QByteArray bytes = bench.file(u"todos-%1.json"_s.arg(suffix));
        const CompactJson parsed = CompactJson::parse(bytes);
        const QJsonValue qjson = QJsonDocument::fromJson(bytes).array();

        // parse
        bench.time(u"parse."_s + suffix, {}, [&] { CompactJson::parse(bytes); });
        bench.time(u"parse.%1.qjson"_s.arg(suffix), {}, [&] { QJsonDocument::fromJson(bytes); });

        // a: normalize into an empty store (the previous store is destroyed outside the timing)
        std::unique_ptr<Store> store;
        const auto freshStore = [&] { store = std::make_unique<Store>(); };
        bench.time(u"a.normalize.collection."_s + suffix, freshStore,
                   [&] { store->setResponse(listKey, Bench::todoCollection(), {}, parsed, meta); });
        bench.time(u"a.normalize.array."_s + suffix, freshStore,
                   [&] { store->setResponse(listKey, Bench::todoArray(), {}, parsed, meta); });
        bench.time(u"a.normalize.collection.%1.qjson"_s.arg(suffix), freshStore,
                   [&] { store->setResponse(listKey, Bench::todoCollection(), {}, qjson, meta); });

        // b: complete result from a store with empty memo caches; the result is lazy (Records),
        // so the op also reads every field of every item (author included) once
        const auto coldStore = [&] { store = storeWithList(parsed); };
        qsizetype checksum = 0;
        bench.time(u"b.denormalize.collection.coldmemo."_s + suffix, coldStore, [&] {
            checksum
                += Bench::touchAll(store->denormalize(listKey, Bench::todoCollection(), {}).data);
        });
        if (bench.wanted(u"b.denormalize.collection.coldmemo."_s + suffix)) {
            store = storeWithList(parsed);
            const QVariantList items
                = store->denormalize(listKey, Bench::todoCollection(), {}).data.toList();
            const Record first = items.value(0).value<Record>();
            if (items.size() != parsed.size()
                || first.value(u"createdAt"_s).typeId() != QMetaType::QDateTime
                || first.value(u"author"_s)
                       .value<Record>()
                       .value(u"username"_s)
                       .toString()
                       .isEmpty())
                bench.fail(u"b.denormalize.collection.coldmemo."_s + suffix,
                           u"incomplete result"_s);
        }

        // c: the same on an unchanged store with a warm memo: the identical shared result
        store = storeWithList(parsed);
        const QVariant warm = store->denormalize(listKey, Bench::todoCollection(), {}).data;
        bench.time(u"c.denormalize.collection.warmmemo."_s + suffix, {}, [&] {
            const QVariant again = store->denormalize(listKey, Bench::todoCollection(), {}).data;
            checksum += again.isValid();
        });
        if (identity(store->denormalize(listKey, Bench::todoCollection(), {}).data)
            != identity(warm))
            bench.fail(u"c.denormalize.collection.warmmemo."_s + suffix,
                       u"not the identical shared result"_s);

        // j: the list result as JSON (toJsonValue()), against QJsonDocument::fromJson() of the
        // same todos; both give a QJsonArray of 1k/10k objects with the author nested
        const QString toJson = u"j.tojson.collection."_s + suffix;
        bench.time(toJson, {}, [&] { checksum += toJsonValue(warm).toArray().size(); });
        bench.time(toJson + u".qjson"_s, {},
                   [&] { checksum += QJsonDocument::fromJson(bytes).array().size(); });
        if (bench.wanted(toJson) && toJsonValue(warm).toArray() != qjson.toArray())
            bench.fail(toJson, u"not the JSON the server sent"_s);
        if (checksum == 42)
            std::puts(""); // keeps the checksum alive
    }

    // e: one changed todo (title and completed; 2000 different edits in turn) into the 10k store
    if (bench.wanted(u"e.update.mergeonly.10k"_s) || bench.wanted(u"e.update.collection.10k"_s)) {
        const QByteArray bytes = bench.file(u"todos-10k.json"_s);
        const CompactJson parsed = CompactJson::parse(bytes);
        const QJsonArray todos = QJsonDocument::fromJson(bytes).array();
        std::vector<CompactJson> edits;
        for (int variant = 0; variant < 2; ++variant) {
            for (int i = 0; i < 2000; ++i) {
                QJsonObject todo = todos.at(i * 5).toObject();
                todo.insert(u"title"_s, u"edited %1 v%2"_s.arg(i).arg(variant));
                todo.insert(u"completed"_s, !todo.value(u"completed"_s).toBool());
                edits.push_back(
                    CompactJson::parse(QJsonDocument(todo).toJson(QJsonDocument::Compact)));
            }
        }
        std::unique_ptr<Store> store = storeWithList(parsed);
        const QVariant before = store->denormalize(listKey, Bench::todoCollection(), {}).data;
        qint64 date = 2;
        size_t next = 0;
        const auto update = [&] {
            const CompactJson &edit = edits[next++ % edits.size()];
            store->setResponse(u"GET http://bench/todos/x"_s, Bench::todoSchema(), {}, edit,
                               Meta {date, date, date + 60000});
            ++date;
        };
        bench.time(u"e.update.mergeonly.10k"_s, {}, update);
        QVariant list;
        bench.time(u"e.update.collection.10k"_s, {}, [&] {
            update();
            list = store->denormalize(listKey, Bench::todoCollection(), {}).data;
        });
        // sanity: the list shows the last edit, untouched rows keep their identity
        if (bench.wanted(u"e.update.collection.10k"_s)) {
            const size_t last = (next - 1) % edits.size();
            const int row = int(last % 2000) * 5;
            const QVariantList rows = list.toList();
            const Record shown = rows.value(row).value<Record>();
            if (shown.value(u"title"_s).toString()
                != edits[last].toVariant().toMap().value(u"title"_s).toString())
                bench.fail(u"e.update.collection.10k"_s, u"the list does not show the change"_s);
            const QVariantList old = before.toList();
            const int untouched = 3; // never edited (edits touch rows 0, 5, 10, ...)
            if (!rows.value(untouched).value<Record>().isSharedWith(
                    old.value(untouched).value<Record>()))
                bench.fail(u"e.update.collection.10k"_s, u"an untouched row was recomputed"_s);
        }
    }

    // memory: bytes the store retains after setResponse (parsed input released), then with the
    // list result read and held (store + memo + result)
    if (bench.wanted(u"memory.store.10k"_s) || bench.wanted(u"memory.store+views.10k"_s)
        || bench.wanted(u"memory.store.10k.qjson"_s)) {
        const QByteArray bytes = bench.file(u"todos-10k.json"_s);
        const qint64 base = Bench::Runner::heapInUse();
        auto store = std::make_unique<Store>();
        {
            const CompactJson parsed = CompactJson::parse(bytes);
            store->setResponse(listKey, Bench::todoCollection(), {}, parsed, meta);
        }
        const qint64 afterStore = Bench::Runner::heapInUse();
        bench.memory(u"memory.store.10k"_s, afterStore - base);
        QVariant views = store->denormalize(listKey, Bench::todoCollection(), {}).data;
        const qint64 afterViews = Bench::Runner::heapInUse();
        bench.memory(u"memory.store+views.10k"_s, afterViews - base);
        if (views.toList().size() != 10000)
            bench.fail(u"memory.store+views.10k"_s, u"incomplete result"_s);
        // the QJsonValue path retains the same (the store keeps its own compact form)
        views = QVariant();
        store.reset();
        const qint64 base2 = Bench::Runner::heapInUse();
        store = std::make_unique<Store>();
        store->setResponse(listKey, Bench::todoCollection(), {},
                           QJsonDocument::fromJson(bytes).array(), meta);
        bench.memory(u"memory.store.10k.qjson"_s, Bench::Runner::heapInUse() - base2);
    }
}
