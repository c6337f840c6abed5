// The code of docs/schemas.md and docs/store.md, compiled and run with assertions around it
// (tst_docsnippets checks that the pages quote this file).
#include <DataClient/compactjson.h>
#include <DataClient/decimal.h>
#include <DataClient/deserializer.h>
#include <DataClient/entityschema.h>
#include <DataClient/record.h>
#include <DataClient/schema.h>
#include <DataClient/store.h>
#include <DataClient/private/storelayers_p.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QTest>

#include <thread>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

// clang-format off
struct Todo {
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(QString title MEMBER title)
    Q_PROPERTY(QDateTime createdAt MEMBER createdAt)     // gets Deserialize::dateTime()
    Q_PROPERTY(DataClient::Decimal price MEMBER price)   // gets Deserialize::decimal()
public:
    int id = 0; QString title; QDateTime createdAt; DataClient::Decimal price;
    QString pk() const { return QString::number(id); }  // or: static constexpr auto primaryKey = "id";
    static constexpr auto key = "Todo";
};
// clang-format on

const QByteArray todosJson = R"([
  {"id": 1, "title": "one", "createdAt": "2024-01-02T03:04:05.006Z", "price": "0.10",
   "author": {"id": 7, "name": "Ada"}},
  {"id": 2, "title": "two", "createdAt": "2024-02-03T04:05:06.007Z", "price": "0.20",
   "author": {"id": 7, "name": "Ada"}}
])";

} // namespace

class tst_SchemaDocs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void schemasComposition()
    {
        // clang-format off
        const EntitySchema user = EntitySchema(u"User"_s);                   // pk field "id"
        const EntitySchema todo = EntitySchema(u"Todo"_s)
                .withField(u"createdAt"_s, Deserialize::dateTime())         // ISO 8601 -> QDateTime
                .withField(u"price"_s, Deserialize::decimal())              // "0.10" -> Decimal
                .withNested(u"author"_s, Schema::entity(user));             // a nested entity

        const Schema get = Schema::entity(todo);                             // get, update, partialUpdate
        const Schema list = Schema::collection(Schema::array(get));          // getList: Collection([Todo])
        const Schema push = list.push();                                     // getList.push
        const Schema unshift = list.unshift();                               // getList.unshift
        const Schema page = list.paginated();                                // getList.getPage
        const Schema del = Schema::invalidate(get);                          // delete
        const Schema wrapped = Schema::object({{u"results"_s, list}, {u"total"_s, Schema()}});
        // clang-format on

        QCOMPARE(get.kind(), Schema::Kind::Entity);
        QCOMPARE(list.kind(), Schema::Kind::Collection);
        QCOMPARE(push.collectionMode(), Schema::CollectionMode::Push);
        QCOMPARE(unshift.collectionMode(), Schema::CollectionMode::Unshift);
        QCOMPARE(page.collectionMode(), Schema::CollectionMode::AddWith);
        QCOMPARE(del.kind(), Schema::Kind::Invalidate);
        QCOMPARE(wrapped.collectionField(), u"results"_s);

        Store store;
        const StoreWrite write = store.setResponse(u"GET /todos"_s, list, {},
                                                   QJsonDocument::fromJson(todosJson).array(), {});
        QVERIFY(write.ok());
        const QVariantList items = store.denormalize(u"GET /todos"_s, list, {}).data.toList();
        QCOMPARE(items.size(), 2);
        const Record first = items.first().value<Record>();
        QCOMPARE(first.value(u"createdAt"_s).toDateTime(),
                 QDateTime::fromString(u"2024-01-02T03:04:05.006Z"_s, Qt::ISODateWithMs));
        QCOMPARE(first.value(u"price"_s).value<Decimal>().toString(), u"0.10"_s);
        QCOMPARE(first.value(u"author"_s).value<Record>().value(u"name"_s).toString(), u"Ada"_s);
    }

    void gadgetEntities()
    {
        Store store;
        const QString key = u"GET /todos/1"_s;
        const Schema listSchema = Schema::collection(Schema::array(Schema::entity<Todo>()));
        const QJsonArray todos = QJsonDocument::fromJson(todosJson).array();
        QVERIFY(store.setResponse(key, Schema::entity<Todo>(), {}, todos.first(), {}).ok());
        QVERIFY(store.setResponse(u"GET /todos"_s, listSchema, {}, todos, {}).ok());
        const Denormalized listResult = store.denormalize(u"GET /todos"_s, listSchema, {});

        // clang-format off
        const Schema todo = Schema::entity<Todo>();
        Todo one = fromVariant<Todo>(store.denormalize(key, todo, {}).data);     // typed result
        QList<Todo> all = fromVariantList<Todo>(listResult.data);
        // clang-format on

        QCOMPARE(one.id, 1);
        QCOMPARE(one.title, u"one"_s);
        QCOMPARE(one.createdAt,
                 QDateTime::fromString(u"2024-01-02T03:04:05.006Z"_s, Qt::ISODateWithMs));
        QCOMPARE(one.price.toString(), u"0.10"_s);
        QCOMPARE(all.size(), 2);
        QCOMPARE(all.at(1).title, u"two"_s);
        QCOMPARE((all.at(0).price + all.at(1).price).toString(), u"0.30"_s);
    }

    void storeWriteAndRead()
    {
        const Schema list = Schema::collection(Schema::array(Schema::entity(
            EntitySchema(u"Todo"_s).withField(u"createdAt"_s, Deserialize::dateTime()))));
        const qint64 requestStart = QDateTime::currentMSecsSinceEpoch();
        const qint64 now = requestStart + 5;
        const QJsonValue responseJson = QJsonDocument::fromJson(todosJson).array();
        QStringList titles;

        // clang-format off
        Store store;
        const Meta meta{requestStart, now, now + 60000};
        StoreWrite w = store.setResponse(u"GET /todos"_s, list, {}, responseJson, meta);
        if (!w.ok()) qWarning() << w.error->message();          // nothing was written
        // w.changes: the entities, collections and result keys that changed
        Denormalized r = store.denormalize(u"GET /todos"_s, list, {});
        for (const QVariant &item : rowsOf(r.data)) { // a RowList; r.data.toList() works too
            const Record todo = item.value<Record>();
            qDebug() << todo.value(u"title"_s) << todo.value(u"createdAt"_s).toDateTime();
        }
        // clang-format on

        for (const QVariant &item : r.data.toList())
            titles.append(item.value<Record>().value(u"title"_s).toString());
        QVERIFY(w.ok());
        QVERIFY(w.changes.results.contains(u"GET /todos"_s));
        QCOMPARE(titles, (QStringList {u"one"_s, u"two"_s}));
        QCOMPARE(store.resultMeta(u"GET /todos"_s).expiresAt, now + 60000);
    }
    void prepareOnAWorkerCommitOnTheStoreThread()
    {
        const Schema schema
            = Schema::collection(Schema::array(Schema::entity(EntitySchema(u"Todo"_s))));
        const Params args;
        const QByteArray replyBody = todosJson;
        const QString resultKey = u"GET /todos"_s;
        const Meta meta {1, 2, 60002};
        Store store;
        std::optional<PreparedWrite> fromWorker;

        std::thread worker([&] {
            // clang-format off
            // worker (e.g. QtConcurrent::run): parse and normalize, touching no store
            PreparedWrite prepared = StoreLayers::prepare(schema, args, CompactJson::parse(replyBody));
            // clang-format on
            fromWorker.emplace(std::move(prepared));
        });
        worker.join();
        PreparedWrite prepared = std::move(*fromWorker);
        // clang-format off
        // GUI thread: resolve slots, merge, report
        StoreWrite write = StoreLayers::commit(store, resultKey, std::move(prepared), meta);
        // clang-format on

        QVERIFY(write.ok());
        QVERIFY(write.changes.results.contains(resultKey));
        QCOMPARE(store.denormalize(resultKey, schema, args).data.toList().size(), 2);
    }

    void unionsValuesAllQueries()
    {
        Store store;
        // clang-format off
        const Schema actor = Schema::entity(EntitySchema(u"FeedUser"_s));
        const Schema comment = Schema::entity(EntitySchema(u"Comment"_s).withNested(u"actor"_s, actor));
        const Schema like = Schema::entity(EntitySchema(u"Like"_s).withNested(u"actor"_s, actor));
        const Schema feedItem = Schema::unionOf({{u"comment"_s, comment}, {u"like"_s, like}}, u"type"_s);
        const Schema feed = Schema::collection(Schema::array(feedItem));    // a mixed list

        store.setResponse(u"feed"_s, feed, {}, QJsonDocument::fromJson(R"([
            {"id": 1, "type": "comment", "text": "Nice", "actor": {"id": 7}},
            {"id": 1, "type": "like", "actor": {"id": 8}}])").array(), {});
        const QVariantList items = store.denormalize(u"feed"_s, feed, {}).data.toList();
        const Record first = items.at(0).value<Record>();                  // first.entityKey() == "Comment"
        // clang-format on
        QCOMPARE(first.entityKey(), u"Comment"_s);
        QCOMPARE(items.at(1).value<Record>().entityKey(), u"Like"_s);
        QCOMPARE(feedItem.unionMemberName(u"Like"_s), u"like"_s);

        // clang-format off
        const Schema usersById = Schema::values(actor);                     // {"7": {...}, "8": {...}}
        store.setResponse(u"users"_s, usersById, {}, QJsonDocument::fromJson(
            R"({"7": {"id": 7, "name": "Ada"}, "8": {"id": 8, "name": "Bo"}})").object(), {});
        const QVariantMap users = store.denormalize(u"users"_s, usersById, {}).data.toMap();
        // clang-format on
        QCOMPARE(users.value(u"8"_s).value<Record>().value(u"name"), u"Bo"_s);

        // clang-format off
        const Schema todo = Schema::entity(EntitySchema(u"Todo"_s));
        const Schema allTodos = Schema::all(todo, [](const Record &a, const Record &b) {
            return a.value(u"title"_s).toString() < b.value(u"title"_s).toString(); });
        const Schema done = Schema::queryCount(Schema::all(todo), [](const Record &t) {
            return t.value(u"completed"_s).toBool(); });
        const Schema openTitles = Schema::query(allTodos, [](const QVariant &todos) {
            QStringList titles;
            for (const QVariant &t : todos.toList())
                if (!t.value<Record>().value(u"completed"_s).toBool())
                    titles.append(t.value<Record>().value(u"title"_s).toString());
            return QVariant(titles); });

        store.setResponse(u"todos"_s, Schema::array(todo), {}, QJsonDocument::fromJson(R"([
            {"id": 1, "title": "b", "completed": true}, {"id": 2, "title": "a"}])").array(), {});
        const qint64 count = store.query(done, {}).data.toLongLong();       // 1
        const QStringList open = store.query(openTitles, {}).data.toStringList(); // ["a"]
        // clang-format on
        QCOMPARE(count, 1);
        QCOMPARE(open, QStringList {u"a"_s});
        QCOMPARE(store.query(allTodos, {}).data.toList().size(), 2);

        // clang-format off
        const Schema member = Schema::entity(EntitySchema(u"Member"_s)
                .withIndexes({u"username"_s})                                  // found without its pk
                .withValidate([](const QJsonObject &m) {                       // refuse what the app cannot show
                    return m.value(u"username"_s).isString() ? QString() : u"username"_s; }));
        store.setResponse(u"m"_s, member, {}, QJsonObject {{u"id"_s, 3}, {u"username"_s, u"ada"_s}}, {});
        const Record ada = store.query(member, {{u"username"_s, u"ada"_s}}).data.value<Record>();
        const StoreWrite refused = store.setResponse(u"m"_s, member, {}, QJsonObject {{u"id"_s, 4}}, {});
        // refused.error->message(): ... at "username": expected a value of "username" that the
        // entity's validate hook accepts, found nothing
        // clang-format on
        QCOMPARE(ada.pk(), u"3"_s);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error->path(), u"username"_s);
        QVERIFY(refused.error->message().contains(u"validate hook"_s));
    }
};

QTEST_GUILESS_MAIN(tst_SchemaDocs)
#include "tst_schemadocs.moc"
