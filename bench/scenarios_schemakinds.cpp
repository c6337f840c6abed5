// Scenarios u.*, v.* and q.*: a feed of four entity types under a Union, a users
// map under Values, and a count over All(Todo) as a Query (plus q.query.toggle1.10k: one todo
// toggled, the count read again).
#include "benchdata.h"
#include "benchmark.h"

#include <DataClient/compactjson.h>
#include <DataClient/store.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <memory>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

const QString feedKey = u"GET http://bench/feed"_s;
const Meta meta {1, 1, 60001};

Schema feedUser()
{
    static const Schema schema = Schema::entity(EntitySchema(u"FeedUser"_s));
    return schema;
}

Schema feedMember(const QString &key)
{
    return Schema::entity(EntitySchema(key)
                              .withField(u"createdAt"_s, Deserialize::dateTime())
                              .withNested(u"actor"_s, feedUser()));
}

Schema feedList()
{
    static const Schema schema = Schema::collection(
        Schema::array(Schema::unionOf({{u"comment"_s, feedMember(u"Comment"_s)},
                                       {u"like"_s, feedMember(u"Like"_s)},
                                       {u"follow"_s, feedMember(u"Follow"_s)},
                                       {u"release"_s, feedMember(u"Release"_s)}},
                                      u"type"_s)));
    return schema;
}

Schema usersMap()
{
    static const Schema schema = Schema::values(feedUser());
    return schema;
}

Schema completedCount()
{
    static const Schema schema
        = Schema::queryCount(Schema::all(Bench::todoSchema()), [](const Record &todo) {
              return todo.value(u"completed"_s).toBool();
          });
    return schema;
}

const void *identity(const QVariant &value)
{
    return static_cast<const QVariantList *>(value.constData())->constData();
}

} // namespace

DATACLIENT_BENCH_SCENARIOS(schemaKindScenarios)
{
    std::unique_ptr<Store> store;
    const auto freshStore = [&] { store = std::make_unique<Store>(); };
    qsizetype checksum = 0;

    if (bench.wanted(u"u."_s)) {
        const CompactJson feed = CompactJson::parse(bench.file(u"feed-10k.json"_s));
        bench.time(u"u.normalize.union.10k"_s, freshStore,
                   [&] { store->setResponse(feedKey, feedList(), {}, feed, meta); });
        const auto storedFeed = [&] {
            store = std::make_unique<Store>();
            store->setResponse(feedKey, feedList(), {}, feed, meta);
        };
        bench.time(u"u.denormalize.union.coldmemo.10k"_s, storedFeed, [&] {
            checksum += Bench::touchAll(store->denormalize(feedKey, feedList(), {}).data);
        });
        storedFeed();
        const QVariant warm = store->denormalize(feedKey, feedList(), {}).data;
        bench.time(u"u.denormalize.union.warmmemo.10k"_s, {},
                   [&] { checksum += store->denormalize(feedKey, feedList(), {}).data.isValid(); });
        const QVariantList items = warm.toList();
        const Record first = items.value(0).value<Record>();
        if (items.size() != 10000 || first.entityKey() != u"Comment"_s
            || first.value(u"createdAt"_s).typeId() != QMetaType::QDateTime
            || first.value(u"actor"_s).value<Record>().value(u"username"_s).toString().isEmpty())
            bench.fail(u"u.denormalize.union.coldmemo.10k"_s, u"incomplete result"_s);
        if (identity(store->denormalize(feedKey, feedList(), {}).data) != identity(warm))
            bench.fail(u"u.denormalize.union.warmmemo.10k"_s, u"not the identical result"_s);
    }

    if (bench.wanted(u"v."_s)) {
        const CompactJson users = CompactJson::parse(bench.file(u"users-map-10k.json"_s));
        bench.time(u"v.normalize.values.10k"_s, freshStore,
                   [&] { store->setResponse(feedKey, usersMap(), {}, users, meta); });
        const auto storedUsers = [&] {
            store = std::make_unique<Store>();
            store->setResponse(feedKey, usersMap(), {}, users, meta);
        };
        bench.time(u"v.denormalize.values.coldmemo.10k"_s, storedUsers, [&] {
            checksum += Bench::touchAll(store->denormalize(feedKey, usersMap(), {}).data);
        });
        if (store->denormalize(feedKey, usersMap(), {}).data.toMap().size() != 10000)
            bench.fail(u"v.denormalize.values.coldmemo.10k"_s, u"incomplete result"_s);
    }

    if (bench.wanted(u"q.all"_s) || bench.wanted(u"q.query"_s)) {
        const QByteArray bytes = bench.file(u"todos-10k.json"_s);
        const CompactJson todos = CompactJson::parse(bytes);
        const auto storedTodos = [&] {
            store = std::make_unique<Store>();
            store->setResponse(u"GET http://bench/todos"_s, Bench::todoCollection(), {}, todos,
                               meta);
        };
        qint64 count = 0;
        bench.time(u"q.all.count.coldmemo.10k"_s, storedTodos,
                   [&] { count = store->query(completedCount(), {}).data.toLongLong(); });
        if (bench.wanted(u"q.all.count.coldmemo.10k"_s) && count != 3961)
            bench.fail(u"q.all.count.coldmemo.10k"_s, u"count %1, not 3961"_s.arg(count));
        storedTodos();
        store->query(completedCount(), {});
        bench.time(u"q.all.count.warmmemo.10k"_s, {},
                   [&] { count = store->query(completedCount(), {}).data.toLongLong(); });
        if (bench.wanted(u"q.all.count.warmmemo.10k"_s) && count != 3961)
            bench.fail(u"q.all.count.warmmemo.10k"_s, u"count %1, not 3961"_s.arg(count));

        // one todo toggled (the first 2000 in turn, then each back), then the count read again
        const QJsonArray list = QJsonDocument::fromJson(bytes).array();
        std::vector<CompactJson> toggles;
        for (const bool back : {false, true}) {
            for (int i = 0; i < 2000; ++i) {
                const QJsonObject todo = list.at(i).toObject();
                const bool completed = todo.value(u"completed"_s).toBool();
                const QJsonObject edit {{u"id"_s, todo.value(u"id"_s)},
                                        {u"completed"_s, back ? completed : !completed}};
                toggles.push_back(
                    CompactJson::parse(QJsonDocument(edit).toJson(QJsonDocument::Compact)));
            }
        }
        qint64 date = 2;
        size_t next = 0;
        bench.time(u"q.query.toggle1.10k"_s, {}, [&] {
            store->setResponse(u"GET http://bench/todos/x"_s, Bench::todoSchema(), {},
                               toggles[next++ % toggles.size()], Meta {date, date, date + 60000});
            ++date;
            count = store->query(completedCount(), {}).data.toLongLong();
        });
        if (bench.wanted(u"q.query.toggle1.10k"_s) && (count < 3961 - 2000 || count > 3961 + 2000))
            bench.fail(u"q.query.toggle1.10k"_s, u"count %1 out of range"_s.arg(count));
    }
    if (checksum == 42)
        std::puts(""); // keeps the checksum alive
}
