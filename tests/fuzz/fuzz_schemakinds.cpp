// Fuzz target: arbitrary JSON normalized into a Store against the Union and Values schema kinds
// (in arrays, collections, maps, object and entity fields; a type field and a pick function),
// an entity with a validate hook, then read back with All, a counting Query and a unique-field
// lookup (docs/reliability.md). Input: two selector bytes (the schemas of a first and a second
// write), then the JSON of both writes.
#include "fuzzsupport.h"

#include <DataClient/compactjson.h>
#include <DataClient/record.h>
#include <DataClient/schema.h>
#include <DataClient/store.h>

#include <QtCore/QByteArrayView>
#include <QtCore/QList>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

Schema actor()
{
    static const Schema schema
        = Schema::entity(EntitySchema(u"Actor"_s).withIndexes({u"username"_s}));
    return schema;
}
Schema member(const QString &key)
{
    return Schema::entity(EntitySchema(key)
                              .withField(u"createdAt"_s, Deserialize::dateTime())
                              .withNested(u"actor"_s, actor()));
}
Schema comment()
{
    static const Schema schema = member(u"Comment"_s);
    return schema;
}
Schema like()
{
    static const Schema schema = member(u"Like"_s);
    return schema;
}
Schema byType()
{
    static const Schema schema
        = Schema::unionOf({{u"comment"_s, comment()}, {u"like"_s, like()}}, u"type"_s);
    return schema;
}
Schema picked()
{
    static const Schema schema
        = Schema::unionOf({{u"comment"_s, comment()}, {u"like"_s, like()}},
                          [](const QJsonObject &value, const QJsonValue &) {
                              return value.contains(u"text"_s) ? u"comment"_s : u"like"_s;
                          });
    return schema;
}
Schema validated()
{
    static const Schema schema
        = Schema::entity(EntitySchema(u"Post"_s).withValidate([](const QJsonObject &value) {
              return value.value(u"title"_s).isString() ? QString() : u"title"_s;
          }));
    return schema;
}

const QList<Schema> &schemas()
{
    static const QList<Schema> all = [] {
        const Schema feed = Schema::collection(Schema::array(byType()));
        const Schema thread = Schema::entity(EntitySchema(u"Thread"_s)
                                                 .withNested(u"latest"_s, byType())
                                                 .withNested(u"items"_s, Schema::values(picked())));
        return QList<Schema> {
            byType(),
            Schema::array(byType()),
            feed,
            feed.push(),
            Schema::collection(Schema::array(picked())),
            Schema::values(actor()),
            Schema::values(byType()),
            Schema::values(Schema()),
            Schema::object({{u"latest"_s, picked()}, {u"users"_s, Schema::values(actor())}}),
            thread,
            Schema::array(validated())};
    }();
    return all;
}

void readAll(const QVariant &value, int depth = 0)
{
    if (depth > 64)
        return;
    if (value.metaType() == QMetaType::fromType<Record>()) {
        const Record record = value.value<Record>();
        (void)record.pk();
        (void)record.entityKey();
        for (const QString &key : record.keys())
            readAll(record.value(key), depth + 1);
    } else if (value.metaType() == QMetaType::fromType<QVariantList>()) {
        for (const QVariant &item : value.toList())
            readAll(item, depth + 1);
    } else if (value.metaType() == QMetaType::fromType<QVariantMap>()) {
        for (const QVariant &item : value.toMap())
            readAll(item, depth + 1);
    }
}

void readTables(Store &store)
{
    static const Schema allComments = Schema::all(comment());
    static const Schema counted = Schema::queryCount(
        Schema::all(actor()), [](const Record &a) { return a.value(u"name"_s).isValid(); });
    const QVariant comments = store.query(allComments, {}).data;
    readAll(comments);
    FUZZ_CHECK(comments.toList().size() == store.entityCount(u"Comment"_s));
    const qint64 count = store.query(counted, {}).data.toLongLong();
    FUZZ_CHECK(count >= 0 && count <= store.entityCount(u"Actor"_s));
    readAll(store.query(actor(), {{u"username"_s, u"a"_s}}).data);
}

void write(Store &store, const QString &key, const Schema &schema, const CompactJson &value,
           qint64 date)
{
    const qsizetype entitiesBefore = store.entityCount();
    const QStringList keysBefore = store.resultKeys();
    const StoreWrite result = store.setResponse(key, schema, {}, value, Meta {date, date, date});
    if (!result.ok()) {
        // A value that does not fit (an unknown type, a refused record) writes nothing.
        FUZZ_CHECK(result.changes.isEmpty());
        FUZZ_CHECK(store.entityCount() == entitiesBefore);
        FUZZ_CHECK(store.resultKeys() == keysBefore);
        FUZZ_CHECK(!result.error->message().isEmpty());
        return;
    }
    readAll(store.denormalize(key, schema, {}).data);
    readTables(store);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    FuzzSupport::silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const Schema &first = schemas().at(data[0] % schemas().size());
    const Schema &second = schemas().at(data[1] % schemas().size());
    const CompactJson value = CompactJson::parse(QByteArrayView(data + 2, qsizetype(size - 2)));
    if (value.isUndefined())
        return 0;
    Store store;
    readTables(store); // the views made before anything is stored follow what comes
    write(store, u"a"_s, first, value, 100);
    // The same JSON again under another schema: merges into what the first write left.
    write(store, u"b"_s, second, value, 200);
    readAll(store.denormalize(u"a"_s, first, {}).data);
    store.reset();
    readTables(store);
    return 0;
}
