// Fuzz target: arbitrary JSON normalized into a Store against the Todo/User/Collection/wrapper
// schemas of the tests, then read back (docs/reliability.md). Input: two selector bytes (the
// schemas of a first and a second write, '0'..'9' in the seeds), then the JSON of both writes.
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

// As tests/support/storefixtures.h: Todo (createdAt a date-time, author a User) and User
// (todos a nested Collection of Todo), plus a Decimal field for the number reader.
Schema todoSchema();
Schema userSchema()
{
    static const Schema schema = Schema::entity(EntitySchema(u"User"_s).withNested(
        u"todos"_s, [] { return Schema::collection(todoSchema()); }));
    return schema;
}
Schema todoSchema()
{
    static const Schema schema
        = Schema::entity(EntitySchema(u"Todo"_s)
                             .withField(u"createdAt"_s, Deserialize::dateTime())
                             .withField(u"price"_s, Deserialize::decimal())
                             .withNested(u"author"_s, [] { return userSchema(); }));
    return schema;
}

const QList<Schema> &schemas()
{
    static const QList<Schema> all = [] {
        const Schema list = Schema::collection(Schema::array(todoSchema()));
        const Schema wrapper = Schema::object({{u"results"_s, list}, {u"total"_s, Schema()}});
        return QList<Schema> {todoSchema(),
                              userSchema(),
                              list,
                              wrapper,
                              list.push(),
                              list.paginated(),
                              list.remove(),
                              wrapper.unshift(),
                              Schema::array(todoSchema()),
                              Schema::invalidate(todoSchema())};
    }();
    return all;
}

// Reads everything a view could: every field of every record, nested ones included.
void readAll(const QVariant &value, int depth = 0)
{
    if (depth > 64)
        return;
    if (value.metaType() == QMetaType::fromType<Record>()) {
        const Record record = value.value<Record>();
        (void)record.pk();
        for (const QString &key : record.keys())
            readAll(record.value(key), depth + 1);
        (void)record.toMap();
    } else if (value.metaType() == QMetaType::fromType<QVariantList>()) {
        for (const QVariant &item : value.toList())
            readAll(item, depth + 1);
    } else if (value.metaType() == QMetaType::fromType<QVariantMap>()) {
        for (const QVariant &item : value.toMap())
            readAll(item, depth + 1);
    }
}

void write(Store &store, const QString &key, const Schema &schema, const CompactJson &value,
           qint64 date)
{
    const Params args {{u"userId"_s, 1}};
    const qsizetype entitiesBefore = store.entityCount();
    const QStringList keysBefore = store.resultKeys();
    const StoreWrite result = store.setResponse(key, schema, args, value, Meta {date, date, date});
    if (!result.ok()) {
        // A value that does not fit writes nothing (docs/store.md).
        FUZZ_CHECK(result.changes.isEmpty());
        FUZZ_CHECK(store.entityCount() == entitiesBefore);
        FUZZ_CHECK(store.resultKeys() == keysBefore);
        FUZZ_CHECK(!result.error->message().isEmpty());
        return;
    }
    const Denormalized read = store.denormalize(key, schema, args);
    readAll(read.data);
    readAll(store.query(schema, {{u"id"_s, u"1"_s}, {u"userId"_s, 1}}).data);
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
    write(store, u"a"_s, first, value, 100);
    // The same JSON again under another schema: merges into what the first write left.
    write(store, u"b"_s, second, value, 200);
    readAll(store.denormalize(u"a"_s, first, {{u"userId"_s, 1}}).data);
    store.reset();
    return 0;
}
