// The values the store hands out (Record, RowList, the lists and maps around them) with Qt's
// own tools: QVariant's conversions to QVariantList/QVariantMap and to the QJson types,
// DataClient::toJsonValue() on any of them, and qDebug(). And the library's value types are
// shared as qtbase's are (swap, noexcept moves, Q_DECLARE_SHARED's relocatable type info).
#include <DataClient/abortgroup.h>
#include <DataClient/conditionalrequest.h>
#include <DataClient/decimal.h>
#include <DataClient/networkerror.h>
#include <DataClient/pathtemplate.h>
#include <DataClient/record.h>
#include <DataClient/rowlist.h>
#include <DataClient/schema.h>
#include <DataClient/store.h>
#include <DataClient/tojson.h>
#include <DataClient/private/rowlist_p.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QTest>

#include "utcdatetime.h"

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {
const EntitySchema userSchema = EntitySchema(u"User"_s);
const EntitySchema tagSchema = EntitySchema(u"Tag"_s, u"name"_s);
const EntitySchema todoSchema = EntitySchema(u"Todo"_s)
                                    .withField(u"due"_s, Deserialize::dateTime())
                                    .withField(u"price"_s, Deserialize::decimal())
                                    .withNested(u"author"_s, Schema::entity(userSchema))
                                    .withNested(u"tags"_s, Schema::array(Schema::entity(tagSchema)))
                                    .withDefaults({{u"priority"_s, 3}});

QJsonObject user(int id, const QString &name)
{
    return {{u"id"_s, id}, {u"name"_s, name}};
}

// What the server sends: dates and decimals as text, entities nested.
QJsonArray serverTodos()
{
    return {QJsonObject {{u"id"_s, 1},
                         {u"title"_s, u"Buy \"milk\""_s},
                         {u"done"_s, false},
                         {u"due"_s, u"2024-05-01T10:00:00Z"_s},
                         {u"price"_s, u"12.50"_s},
                         {u"author"_s, user(7, u"Ann"_s)},
                         {u"tags"_s, QJsonArray {QJsonObject {{u"name"_s, u"home"_s}}}},
                         {u"meta"_s, QJsonObject {{u"source"_s, u"web"_s}}}},
            QJsonObject {{u"id"_s, 2},
                         {u"title"_s, u"Call Bob"_s},
                         {u"done"_s, true},
                         {u"due"_s, QJsonValue::Null},
                         {u"price"_s, u"0.10"_s},
                         {u"author"_s, user(8, u"Bob"_s)},
                         {u"tags"_s, QJsonArray {}},
                         {u"priority"_s, 1}}};
}

// The JSON of those rows as read: the server's fields, then the defaults it lacked.
QJsonArray expectedTodos()
{
    QJsonArray todos = serverTodos();
    QJsonObject first = todos.at(0).toObject();
    first.insert(u"priority"_s, 3);
    todos.replace(0, first);
    return todos;
}

QVariant readTodos(Store &store)
{
    const Schema list = Schema::collection(Schema::entity(todoSchema));
    if (!store.setResponse(u"todos"_s, list, {}, serverTodos(), Meta {1, 1, 1}).ok())
        return {};
    return store.denormalize(u"todos"_s, list, {}).data;
}

template<typename T> QString debugText(const T &value)
{
    QString text;
    QDebug(&text) << value;
    return text.trimmed();
}
} // namespace

class tst_ValueConversions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowListConvertsToJsonThroughQVariant()
    {
        Store store;
        const QVariant data = readTodos(store);
        QCOMPARE(data.metaType(), QMetaType::fromType<RowList>());
        const QJsonArray expected = expectedTodos();
        QCOMPARE(data.value<RowList>().toJsonArray(), expected);
        QCOMPARE(data.value<QJsonArray>(), expected);
        QCOMPARE(data.toJsonArray(), expected);
        QCOMPARE(data.toJsonValue(), QJsonValue(expected));
        QCOMPARE(data.value<QJsonDocument>(), QJsonDocument(expected));
        QCOMPARE(toJsonValue(data), QJsonValue(expected));
        // and to the plain list, the typeId() staying RowList's (the rows are not copied)
        QVERIFY(data.canConvert<QVariantList>());
        QVERIFY(data.typeId() != QMetaType::QVariantList);
        QCOMPARE(data.toList().size(), 2);
        QCOMPARE(rowsOf(data).size(), 2);
    }

    void recordConvertsToJsonThroughQVariant()
    {
        Store store;
        const QVariant row = readTodos(store).value<RowList>().at(0);
        QCOMPARE(row.metaType(), QMetaType::fromType<Record>());
        const QJsonObject expected = expectedTodos().at(0).toObject();
        QCOMPARE(row.value<Record>().toJsonObject(), expected);
        QCOMPARE(row.value<QJsonObject>(), expected);
        QCOMPARE(row.toJsonObject(), expected);
        QCOMPARE(row.toJsonValue(), QJsonValue(expected));
        QCOMPARE(row.value<QJsonDocument>(), QJsonDocument(expected));
        QCOMPARE(toJsonValue(row), QJsonValue(expected));
        // the server's date text, not the QDateTime the record reads; the decimal's exact text
        const Record record = row.value<Record>();
        QCOMPARE(record.value(u"due"_s).toDateTime(), utcDateTime(QDate(2024, 5, 1), QTime(10, 0)));
        QCOMPARE(record.toJsonObject().value(u"due"_s), u"2024-05-01T10:00:00Z"_s);
        QCOMPARE(record.toJsonObject().value(u"price"_s), u"12.50"_s);
        // and to the plain map (nested records as maps)
        const QVariantMap map = row.toMap();
        QCOMPARE(map.value(u"author"_s).toMap().value(u"name"_s), u"Ann"_s);
        QCOMPARE(map.value(u"priority"_s), QVariant(3));
        QCOMPARE(Record().toJsonObject(), QJsonObject());
        QCOMPARE(toJsonValue(QVariant::fromValue(Record())), QJsonValue());
    }

    void anyDenormalizedValueConvertsWithToJsonValue()
    {
        Store store;
        const QVariant data = readTodos(store);
        const QJsonArray expected = expectedTodos();
        // maps and lists around records (a gadget-free app's own containers, toMap()'s output)
        const QVariantMap wrapped {{u"todos"_s, data}, {u"count"_s, 2}};
        QCOMPARE(toJsonValue(wrapped),
                 QJsonValue(QJsonObject {{u"todos"_s, expected}, {u"count"_s, 2}}));
        QCOMPARE(toJsonValue(QVariantHash {{u"todos"_s, data}}),
                 QJsonValue(QJsonObject {{u"todos"_s, expected}}));
        QCOMPARE(toJsonValue(data.toList()), QJsonValue(expected));
        // toMap() reads the fields for the app: dates as QDateTime (ISO text with ms in JSON)
        QJsonObject fromMap = expected.at(0).toObject();
        fromMap.insert(u"due"_s, u"2024-05-01T10:00:00.000Z"_s);
        QCOMPARE(toJsonValue(data.toList().at(0).toMap()), QJsonValue(fromMap));
        // single fields
        const QDateTime due = utcDateTime(QDate(2024, 5, 1), QTime(10, 0, 0, 5));
        QCOMPARE(toJsonValue(due), QJsonValue(u"2024-05-01T10:00:00.005Z"_s));
        QCOMPARE(toJsonValue(QDateTime()), QJsonValue());
        QCOMPARE(toJsonValue(QDate(2024, 5, 1)), QJsonValue(u"2024-05-01"_s));
        QCOMPARE(toJsonValue(QTime(9, 30)), QJsonValue(u"09:30:00.000"_s));
        QCOMPARE(toJsonValue(QVariant::fromValue(*Decimal::fromString(u"0.10"_s))),
                 QJsonValue(u"0.10"_s));
        QCOMPARE(toJsonValue(QVariant()), QJsonValue());
        QCOMPARE(toJsonValue(QVariant::fromValue(nullptr)), QJsonValue());
        QCOMPARE(toJsonValue(QVariant(qlonglong(1) << 53)), QJsonValue(qint64(1) << 53));
        QCOMPARE(toJsonValue(u"text"_s), QJsonValue(u"text"_s));
        QCOMPARE(toJsonValue(QStringList {u"a"_s}), QJsonValue(QJsonArray {u"a"_s}));
    }

    void chunkedRowListConvertsInOrder()
    {
        QList<QVariantList> chunks(3);
        for (int i = 0; i < 2 * RowList::ChunkRows + 5; ++i)
            chunks[i / RowList::ChunkRows].append(QVariantMap {{u"id"_s, i}});
        const RowList rows = RowList::fromChunks(chunks);
        QCOMPARE(RowListInternals::chunkCount(rows), 3);
        const QJsonArray array = QVariant::fromValue(rows).value<QJsonArray>();
        QCOMPARE(array.size(), rows.size());
        for (int i = 0; i < array.size(); ++i)
            QCOMPARE(array.at(i).toObject().value(u"id"_s).toInt(), i);
    }

    void qDebugShowsTheContent()
    {
        Store store;
        const QVariant data = readTodos(store);
        const Record todo = data.value<RowList>().at(1).value<Record>();
        // (the fields in the order the server sent them: a QJsonObject's, sorted)
        const QString fields = uR"({"author": {"id": 8, "name": "Bob"}, "done": true, )"
                               uR"("due": null, "id": 2, "price": Decimal(0.10), "priority": 1, )"
                               uR"("tags": [], "title": "Call Bob"})"_s;
        QCOMPARE(debugText(todo), u"DataClient::Record(Todo "_s + fields + u')');
        // through QVariant as well (what `qDebug() << result.data` prints)
        QCOMPARE(debugText(QVariant::fromValue(todo)),
                 u"QVariant(DataClient::Record, DataClient::Record(Todo "_s + fields + u"))"_s);
        // strings escaped, dates as QDateTime prints them, lists of entities as arrays
        const QString rows = debugText(data);
        QVERIFY2(rows.startsWith(u"QVariant(DataClient::RowList, DataClient::RowList([{"_s),
                 qPrintable(rows));
        QVERIFY2(rows.contains(u"\"due\": QDateTime(2024-05-01 10:00:00.000 UTC Qt::UTC), "_s),
                 qPrintable(rows));
        QVERIFY2(rows.contains(u"\"title\": \"Buy \\\"milk\\\"\", \"priority\": 3}, {"_s),
                 qPrintable(rows));
        QVERIFY2(rows.contains(u"\"tags\": [{\"name\": \"home\"}]"_s), qPrintable(rows));
        QVERIFY2(rows.endsWith(fields + u"]))"_s), qPrintable(rows));
        QCOMPARE(debugText(Record()), u"DataClient::Record()"_s);
        QCOMPARE(debugText(RowList()), u"DataClient::RowList([])"_s);
    }

    void sharedValueTypesCopyMoveAndSwap()
    {
        // An error is a value: a modifier changes its copy only; a moved-from error is null.
        const NetworkError error(NetworkError::Kind::Http, 404, u"GET /x answered 404"_s);
        const NetworkError withBody = error.withBody("gone");
        QCOMPARE(error.body(), QByteArray());
        QCOMPARE(withBody.body(), "gone");
        QCOMPARE(withBody.message(), error.message());
        NetworkError moved = withBody;
        const NetworkError taken = std::move(moved);
        QCOMPARE(taken.status(), 404);
        QVERIFY(moved.isNull()); // NOLINT(bugprone-use-after-move): the documented state
        QCOMPARE(QByteArray(moved.what()), QByteArray());
        NetworkError a = error, b;
        a.swap(b);
        QVERIFY(a.isNull());
        QCOMPARE(b.status(), 404);

        // A template is immutable; listTemplate() of one without a parameter is a new value.
        const PathTemplate todo(u"/todos/:id"_s);
        PathTemplate other(u"/users"_s);
        PathTemplate invalid = other.listTemplate();
        QVERIFY(other.isValid());
        QVERIFY(!invalid.isValid());
        other.swap(invalid);
        QVERIFY(!other.isValid());
        QVERIFY(invalid.isValid());
        QCOMPARE(todo.listTemplate().pattern(), u"/todos"_s);

        // Copies of a group are the group: aborting one aborts the others.
        const AbortGroup group;
        AbortGroup copy = group;
        AbortGroup swapped;
        swapped.swap(copy);
        swapped.abort();
        QVERIFY(group.isAborted());
        QVERIFY(!copy.isAborted());
    }
};

// What Q_DECLARE_SHARED and the idiom give: containers move them with memmove, std::swap is
// the member swap, moves never throw.
template<typename T> constexpr bool isQtSharedValue()
{
    return QTypeInfo<T>::isRelocatable
        && std::is_nothrow_move_constructible_v<
               T> && std::is_nothrow_move_assignable_v<T> && std::is_nothrow_swappable_v<T>;
}
static_assert(isQtSharedValue<Record>());
static_assert(isQtSharedValue<RowList>());
static_assert(isQtSharedValue<Decimal>());
static_assert(isQtSharedValue<Schema>());
static_assert(isQtSharedValue<PathTemplate>());
static_assert(isQtSharedValue<NetworkError>());
static_assert(isQtSharedValue<AbortGroup>());
static_assert(isQtSharedValue<ConditionalRequest>());

QTEST_GUILESS_MAIN(tst_ValueConversions)
#include "tst_valueconversions.moc"
