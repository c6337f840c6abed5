// Bad input gets a clear SchemaError (entity key, where, what was expected and found) and leaves
// the store exactly as it was.
#include "normalizer_p.h"
#include "storefixtures.h"

#include <DataClient/compactjson.h>
#include <DataClient/rowlist.h>

#include <QTest>

#include <memory>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {
constexpr int LongList = 40; // read ahead: setReadAheadFromForTesting()
QByteArray longListText(int badAt, const QByteArray &bad)
{
    QByteArray text = "[";
    for (int i = 0; i < LongList; ++i) {
        if (i > 0)
            text += ',';
        if (i == badAt) {
            text += bad;
            continue;
        }
        text += "{\"id\":" + QByteArray::number(i + 10) + ",\"title\":\"todo "
            + QByteArray::number(i) + "\",\"author\":{\"id\":" + QByteArray::number(i % 7)
            + ",\"name\":\"user\"}}";
    }
    return text + ']';
}
} // namespace

class tst_StoreBadInput : public QObject
{
    Q_OBJECT

    std::unique_ptr<Store> current;
    QByteArray before;

    void expectRejected(const QString &key, const Schema &schema, const QJsonValue &value,
                        const QString &entityKey, const QString &path, const QString &expectedPart,
                        const QString &foundPart)
    {
        Store &store = *current;
        const StoreWrite write = store.setResponse(key, schema, {}, value, at(100));
        QVERIFY2(write.error.has_value(), "the write must fail");
        const SchemaError &error = *write.error;
        QCOMPARE(error.entityKey(), entityKey);
        QCOMPARE(error.path(), path);
        QVERIFY2(error.expected().contains(expectedPart), qPrintable(error.message()));
        QVERIFY2(error.found().contains(foundPart), qPrintable(error.message()));
        QVERIFY(error.message().contains(entityKey));
        QVERIFY(write.changes.isEmpty());
        QCOMPARE(snapshot(store, {u"list"_s}, todoList()), before); // nothing partially written
    }

private Q_SLOTS:
    void init()
    {
        current = std::make_unique<Store>();
        Store &store = *current;
        QVERIFY(store
                    .setResponse(
                        u"list"_s, todoList(), {},
                        json(R"([{"id": 1, "title": "one", "author": {"id": 2, "name": "ann"}}])"),
                        at(1))
                    .ok());
        before = snapshot(store, {u"list"_s}, todoList());
    }

    void objectWhereAListIsExpected()
    {
        expectRejected(u"list"_s, todoList(), json(R"({"id": 3})"), u"[Todo]"_s, QString(),
                       u"an array"_s, u"the object {\"id\":3}"_s);
    }

    void listWhereAnEntityIsExpected()
    {
        expectRejected(u"one"_s, todoSchema(), json(R"([{"id": 3}])"), u"Todo"_s, QString(),
                       u"an object"_s, u"an array of 1 items"_s);
    }

    void nonObjectEntityInAList()
    {
        // the first items are fine: they must not be written either
        expectRejected(u"list"_s, todoList(), json(R"([{"id": 7}, {"id": 8}, "nine"])"), u"Todo"_s,
                       u"[2]"_s, u"an object"_s, u"the string \"nine\""_s);
        QVERIFY(!current->entity({u"Todo"_s, u"7"_s}));
    }

    // A missing pk: the error names the entity key and the pk field; nothing is written.
    void missingPrimaryKey()
    {
        expectRejected(u"list"_s, todoList(), json(R"([{"id": 7}, {"title": "no id"}])"), u"Todo"_s,
                       u"[1].id"_s, u"primary key"_s, u"nothing"_s);
    }

    void emptyPrimaryKey()
    {
        expectRejected(u"one"_s, todoSchema(), json(R"({"id": ""})"), u"Todo"_s, u"id"_s,
                       u"primary key"_s, u"an empty string"_s);
    }

    void primaryKeyOfTheWrongType()
    {
        expectRejected(u"one"_s, todoSchema(), json(R"({"id": {"nested": 1}})"), u"Todo"_s, u"id"_s,
                       u"a string or a number"_s, u"the object"_s);
    }

    void missingPrimaryKeyInANestedEntity()
    {
        expectRejected(u"list"_s, todoList(), json(R"([{"id": 7, "author": {"name": "x"}}])"),
                       u"User"_s, u"[0].author.id"_s, u"primary key"_s, u"nothing"_s);
    }

    void badDateTime()
    {
        expectRejected(u"list"_s, todoList(), json(R"([{"id": 7, "createdAt": "yesterday"}])"),
                       u"Todo"_s, u"[0].createdAt"_s, u"ISO 8601"_s, u"\"yesterday\""_s);
        expectRejected(u"list"_s, todoList(),
                       json(R"([{"id": 7, "createdAt": "2023-02-30T00:00:00Z"}])"), u"Todo"_s,
                       u"[0].createdAt"_s, u"ISO 8601"_s, u"2023-02-30"_s);
        expectRejected(u"list"_s, todoList(), json(R"([{"id": 7, "createdAt": 5}])"), u"Todo"_s,
                       u"[0].createdAt"_s, u"ISO 8601"_s, u"the number 5"_s);
    }

    void badDateTimeAtEveryPosition()
    {
        // The common form "YYYY-MM-DDTHH:MM:SS.mmmZ" has a fast path: spoil each character.
        const QString good = u"2023-05-15T15:36:43.144Z"_s;
        for (qsizetype i = 0; i < good.size(); ++i) {
            for (const char16_t wrong : {u'x', u'/', u':', u'\xe9'}) {
                if (good[i] == QChar(wrong))
                    continue;
                QString spoiled = good;
                spoiled[i] = QChar(wrong);
                const QJsonValue list
                    = QJsonArray {QJsonObject {{u"id"_s, 7}, {u"createdAt"_s, spoiled}}};
                expectRejected(u"list"_s, todoList(), list, u"Todo"_s, u"[0].createdAt"_s,
                               u"ISO 8601"_s, spoiled);
            }
        }
    }

    void goodDateTimesReadBack_data()
    {
        QTest::addColumn<bool>("parsed");
        QTest::newRow("CompactJson (our parser)") << true;
        QTest::newRow("QJsonValue") << false;
    }
    void goodDateTimesReadBack()
    {
        // Strings in the common form carry their instant from the moment they are stored
        // (Value::instant()); the rest, and instants beyond its range, are read from the text.
        QFETCH(bool, parsed);
        Store &store = *current;
        const QStringList dates {u"2023-05-15T15:36:43.144Z"_s, u"2024-02-29T00:00:00.000Z"_s,
                                 u"1999-12-31T23:59:59.999Z"_s, u"1970-01-01T00:00:00.000Z"_s,
                                 u"1969-12-31T23:59:59.999Z"_s, u"0001-01-01T00:00:00.000Z"_s,
                                 u"6400-01-01T00:00:00.000Z"_s, u"9999-12-31T23:59:59.999Z"_s,
                                 u"2023-05-15T15:36:43Z"_s,     u"2023-05-15T17:36:43.144+02:00"_s};
        QJsonArray list;
        for (qsizetype i = 0; i < dates.size(); ++i) {
            list.append(QJsonObject {
                {u"id"_s, int(i + 10)}, {u"createdAt"_s, dates[i]}, {u"title"_s, dates[i]}});
        }
        const StoreWrite write = parsed
            ? store.setResponse(u"dates"_s, todoList(), {},
                                CompactJson::parse(QJsonDocument(list).toJson()), at(200))
            : store.setResponse(u"dates"_s, todoList(), {}, list, at(200));
        QVERIFY(write.ok());
        const QVariantList rows = store.denormalize(u"dates"_s, todoList(), {}).data.toList();
        QCOMPARE(rows.size(), dates.size());
        for (qsizetype i = 0; i < dates.size(); ++i) {
            const Record row = rows[i].value<Record>();
            const QDateTime expected = QDateTime::fromString(dates[i], Qt::ISODateWithMs);
            QVERIFY2(expected.isValid(), qPrintable(dates[i]));
            QCOMPARE(row.value(u"createdAt"_s).toDateTime(), expected);
            QCOMPARE(row.value(u"createdAt"_s).toDateTime().timeSpec(), Qt::UTC);
            // a field without a deserializer stays the text the server sent
            QCOMPARE(row.value(u"title"_s).typeId(), QMetaType::QString);
            QCOMPARE(row.value(u"title"_s).toString(), dates[i]);
        }
        QCOMPARE(store.entity({u"Todo"_s, u"10"_s})->value(u"createdAt"_s).toString(), dates[0]);
    }

    void badDecimal()
    {
        const Schema price = Schema::entity(
            EntitySchema(u"Price"_s).withField(u"amount"_s, Deserialize::decimal()));
        expectRejected(u"p"_s, price, json(R"({"id": 1, "amount": "12,50"})"), u"Price"_s,
                       u"amount"_s, u"decimal"_s, u"\"12,50\""_s);
    }

    void failingCustomDeserializer()
    {
        const Schema color = Schema::entity(
            EntitySchema(u"Color"_s)
                .withField(u"rgb"_s,
                           Deserialize::custom(u"a #rrggbb string"_s, [](const QJsonValue &value) {
                               const QString text = value.toString();
                               return text.startsWith(u'#') && text.size() == 7 ? QVariant(text)
                                                                                : QVariant();
                           })));
        expectRejected(u"c"_s, color, json(R"({"id": 1, "rgb": "red"})"), u"Color"_s, u"rgb"_s,
                       u"#rrggbb"_s, u"\"red\""_s);
    }

    void wrapperThatIsNotAnObject()
    {
        const Schema wrapper = Schema::object({{u"results"_s, todoList()}});
        expectRejected(u"w"_s, wrapper, json(R"([1, 2])"), u"[Todo]"_s, QString(), u"an object"_s,
                       u"an array"_s);
        expectRejected(u"w"_s, wrapper, json(R"({"results": {"id": 1}})"), u"[Todo]"_s,
                       u"results"_s, u"an array"_s, u"the object"_s);
    }

    void invalidateWithoutAPrimaryKey()
    {
        expectRejected(u"d"_s, Schema::invalidate(todoSchema()), json(R"({"title": "x"})"),
                       u"Todo"_s, QString(), u"primary key"_s, u"the object"_s);
        expectRejected(u"d"_s, Schema::invalidate(todoSchema()), QJsonValue(true), u"Todo"_s,
                       QString(), u"primary key"_s, u"true"_s);
    }

    void pushThatIsNotAnEntity()
    {
        expectRejected(u"push"_s, todoList().push(), QJsonValue(42), u"Todo"_s, QString(),
                       u"the created entity"_s, u"the number 42"_s);
    }

    void deeplyNestedPayload()
    {
        Store &store = *current;
        // A chain of nested entities deeper than the store accepts.
        static Schema chain;
        chain = Schema::entity(EntitySchema(u"Node"_s).withNested(u"next"_s, [] { return chain; }));
        QString text;
        for (int i = 0; i < 300; ++i)
            text += u"{\"id\": %1, \"next\": "_s.arg(i);
        text += u"null"_s + QString(300, u'}');
        const QJsonValue value = QJsonDocument::fromJson(text.toUtf8()).object();
        QVERIFY(value.isObject());
        const StoreWrite write = store.setResponse(u"deep"_s, chain, {}, value, at(100));
        QVERIFY(write.error);
        QVERIFY2(write.error->expected().contains(u"levels of nesting"_s),
                 qPrintable(write.error->message()));
        QVERIFY(write.error->path().startsWith(u"next.next.next"_s));
        QCOMPARE(snapshot(store, {u"list"_s}, todoList()), before);
        QCOMPARE(store.entityCount(u"Node"_s), 0);
        chain = Schema(); // break the self reference before exit
    }

    void cyclicPayloadIsFine()
    {
        Store &store = *current;
        // A payload whose entities refer back to each other is a finite tree: it normalizes, and
        // reading it back does not loop (the inner occurrence is cut).
        static Schema person;
        person = Schema::entity(
            EntitySchema(u"Person"_s).withNested(u"friend"_s, [] { return person; }));
        const auto value = json(
            R"({"id": 1, "name": "a", "friend": {"id": 2, "friend": {"id": 1, "friend": {"id": 2}}}})");
        QVERIFY(store.setResponse(u"p"_s, person, {}, value, at(100)).ok());
        const Record one = recordOf(store.denormalize(u"p"_s, person, {}).data);
        const Record two = recordOf(one.value(u"friend"_s));
        QCOMPARE(two.pk(), u"2"_s);
        const Record cut = recordOf(two.value(u"friend"_s));
        QCOMPARE(cut.pk(), u"1"_s);
        QCOMPARE(cut.value(u"name"_s), QVariant(u"a"_s));
        QVERIFY(cut.value(u"friend"_s).isNull()); // the cycle stops here
        person = Schema();
    }

    void objectWithTooManyKeys()
    {
        // A QJsonValue (our parser refuses the text: tst_compactjson) with an object wider than
        // 65536 keys, deep inside a plain field.
        QJsonObject wide;
        for (int i = 0; i <= 65536; ++i)
            wide.insert(u"k%1"_s.arg(i), i);
        const QJsonArray list {QJsonObject {{u"id"_s, 7}, {u"extra"_s, QJsonArray {0, wide}}}};
        expectRejected(u"list"_s, todoList(), list, u"[Todo]"_s, u"[0].extra[1]"_s,
                       u"an object with at most 65536 keys"_s, u"an object with 65537 keys"_s);
        QVERIFY(!current->entity({u"Todo"_s, u"7"_s}));
    }

    // A list of more than 131k todos has a pk index past the caches: the normalizer reads the
    // pk of the items a few places ahead of the one it normalizes (visitCollection(); lowered
    // here to every list). A bad item there is read ahead of time first and must still fail
    // where it is, with nothing written.
    void badItemInALongList_data()
    {
        QTest::addColumn<QByteArray>("bad");
        QTest::addColumn<QString>("entityKey");
        QTest::addColumn<QString>("pathEnd");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("found");
        QTest::newRow("a string") << QByteArray("\"nine\"") << u"Todo"_s << QString()
                                  << u"an object"_s << u"the string \"nine\""_s;
        QTest::newRow("no pk") << QByteArray("{\"title\":\"x\"}") << u"Todo"_s << u".id"_s
                               << u"primary key"_s << u"nothing"_s;
        QTest::newRow("an object as pk")
            << QByteArray("{\"id\":{\"a\":1}}") << u"Todo"_s << u".id"_s
            << u"a string or a number"_s << u"the object"_s;
        QTest::newRow("an author that is a number")
            << QByteArray("{\"id\":99999999,\"author\":5}") << u"User"_s << u".author"_s
            << u"an object"_s << u"the number 5"_s;
    }
    void badItemInALongList()
    {
        detail::setReadAheadFromForTesting(1);
        const auto restore = qScopeGuard([] { detail::setReadAheadFromForTesting(0); });
        QFETCH(QByteArray, bad);
        QFETCH(QString, entityKey);
        QFETCH(QString, pathEnd);
        QFETCH(QString, expected);
        QFETCH(QString, found);
        const int badAt = LongList - 3; // inside the read-ahead window of the items before it
        QString error;
        const CompactJson list = CompactJson::parse(longListText(badAt, bad), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const StoreWrite write = current->setResponse(u"list"_s, todoList(), {}, list, at(100));
        QVERIFY2(write.error.has_value(), "the write must fail");
        QCOMPARE(write.error->entityKey(), entityKey);
        QCOMPARE(write.error->path(), u"[%1]"_s.arg(badAt) + pathEnd);
        QVERIFY2(write.error->expected().contains(expected), qPrintable(write.error->message()));
        QVERIFY2(write.error->found().contains(found), qPrintable(write.error->message()));
        QVERIFY(write.changes.isEmpty());
        QCOMPARE(snapshot(*current, {u"list"_s}, todoList()), before);
        QVERIFY(!current->entity({u"Todo"_s, u"10"_s}));
        QVERIFY(!current->entity({u"User"_s, u"6"_s}));
    }
    void theLongListWithoutTheBadItemIsWrittenWhole()
    {
        detail::setReadAheadFromForTesting(1);
        const auto restore = qScopeGuard([] { detail::setReadAheadFromForTesting(0); });
        const CompactJson list = CompactJson::parse(longListText(-1, {}));
        QVERIFY(current->setResponse(u"list"_s, todoList(), {}, list, at(200)).ok());
        QCOMPARE(rowsOf(current->denormalize(u"list"_s, todoList(), {}).data).size(), LongList);
        const auto last = current->entity({u"Todo"_s, u"%1"_s.arg(LongList + 9)});
        QVERIFY(last.has_value());
        QCOMPARE(last->value(u"title"_s).toString(), u"todo %1"_s.arg(LongList - 1));
        const auto author = current->entity({u"User"_s, u"6"_s});
        QVERIFY(author.has_value());
        QCOMPARE(author->value(u"name"_s).toString(), u"user"_s);
    }

    void malformedJsonText()
    {
        QString error;
        qsizetype offset = -1;
        const CompactJson parsed = CompactJson::parse(R"([{"id": 1}, {"id": ])", &error, &offset);
        QVERIFY(parsed.isUndefined());
        QVERIFY(!error.isEmpty());
        QCOMPARE(offset, 19); // the ']' where a value should be
    }
};

QTEST_GUILESS_MAIN(tst_StoreBadInput)
#include "tst_storebadinput.moc"
