// Ids and fields beyond 2^53: whole numbers that fit in 64 bits are kept
// exactly, as pks and as field values, whether the answer was parsed by our parser (CompactJson)
// or by QJsonDocument (a QJsonValue); beyond 64 bits, a pk keeps the server's digits.
#include "storefixtures.h"

#include <DataClient/compactjson.h>

#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {
enum class Path { Compact, QJsonDocument };

StoreWrite write(Store &store, const QString &key, const Schema &schema, const QByteArray &text,
                 Path path)
{
    if (path == Path::Compact)
        return store.setResponse(key, schema, {}, CompactJson::parse(text), at(10));
    const QJsonDocument document = QJsonDocument::fromJson(text);
    return store.setResponse(
        key, schema, {},
        document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object()), at(10));
}

Schema plainTodos()
{
    static const Schema schema = Schema::array(Schema::entity(EntitySchema(u"Todo"_s)));
    return schema;
}
} // namespace

Q_DECLARE_METATYPE(Path)

class tst_StoreBigNumbers : public QObject
{
    Q_OBJECT

    static void paths()
    {
        QTest::addColumn<Path>("path");
        QTest::newRow("compact") << Path::Compact;
        QTest::newRow("QJsonDocument") << Path::QJsonDocument;
    }

private Q_SLOTS:
    void neighbouringIdsAreTwoEntities_data() { paths(); }
    void neighbouringIdsAreTwoEntities()
    {
        QFETCH(Path, path);
        Store store;
        QVERIFY(write(store, u"l"_s, plainTodos(),
                      R"([{"id": 9007199254740992, "n": 1}, {"id": 9007199254740993, "n": 2}])",
                      path)
                    .ok());
        QCOMPARE(store.entityCount(u"Todo"_s), 2);
        QCOMPARE(ids(store.denormalize(u"l"_s, plainTodos(), {}).data),
                 QStringList({u"9007199254740992"_s, u"9007199254740993"_s}));
        QCOMPARE(store.entity({u"Todo"_s, u"9007199254740993"_s})->value(u"n"_s).toInteger(), 2);
        // A read by pk finds it from a qint64 argument
        const Denormalized one = store.query(Schema::entity(EntitySchema(u"Todo"_s)),
                                             {{u"id"_s, Q_INT64_C(9007199254740993)}});
        QCOMPARE(recordOf(one.data).value(u"n"_s).toInt(), 2);
    }

    void fieldReadsBackExactly_data() { paths(); }
    void fieldReadsBackExactly()
    {
        QFETCH(Path, path);
        Store store;
        QVERIFY(write(store, u"l"_s, plainTodos(),
                      R"([{"id": 1, "big": 9007199254740993, "min": -9223372036854775808}])", path)
                    .ok());
        const Record todo = recordOf(store.denormalize(u"l"_s, plainTodos(), {}).data.toList()[0]);
        QCOMPARE(todo.value(u"big"_s).typeId(), QMetaType::LongLong);
        QCOMPARE(todo.value(u"big"_s).toLongLong(), Q_INT64_C(9007199254740993));
        QCOMPARE(todo.value(u"min"_s).toLongLong(), std::numeric_limits<qint64>::min());
        QCOMPARE(todo.toMap().value(u"big"_s).toLongLong(), Q_INT64_C(9007199254740993));
        const QJsonObject stored = *store.entity({u"Todo"_s, u"1"_s});
        QCOMPARE(stored.value(u"big"_s).toInteger(), Q_INT64_C(9007199254740993));
    }

    void sameValueByBothPathsIsNoChange()
    {
        // The compact tree holds one form per number: a refetch through the other path that
        // brings the same values changes nothing.
        Store store;
        const QByteArray text = R"([{"id": 9007199254740993, "n": 1.0, "x": 2.5}])";
        QVERIFY(write(store, u"l"_s, plainTodos(), text, Path::Compact).ok());
        const StoreWrite again = write(store, u"l"_s, plainTodos(), text, Path::QJsonDocument);
        QVERIFY(again.ok());
        QVERIFY(again.changes.entities.isEmpty());
    }

    void idsBeyond64BitsKeepTheirDigits()
    {
        // QJsonDocument keeps only a double there; our parser keeps the digits for the pk.
        Store store;
        QVERIFY(write(store, u"l"_s, plainTodos(),
                      R"([{"id": 12345678901234567890}, {"id": 12345678901234567891},
                          {"id": -98765432109876543210}])",
                      Path::Compact)
                    .ok());
        QCOMPARE(store.entityCount(u"Todo"_s), 3);
        const QVariantList todos = store.denormalize(u"l"_s, plainTodos(), {}).data.toList();
        QCOMPARE(ids(todos),
                 QStringList({u"12345678901234567890"_s, u"12345678901234567891"_s,
                              u"-98765432109876543210"_s}));
        // The field itself reads as a double.
        QCOMPARE(recordOf(todos[0]).value(u"id"_s).typeId(), QMetaType::Double);
        QCOMPARE(recordOf(todos[0]).value(u"id"_s).toDouble(), 12345678901234567890.0);
    }

    void invalidateFindsTheExactId_data() { paths(); }
    void invalidateFindsTheExactId()
    {
        QFETCH(Path, path);
        Store store;
        QVERIFY(write(store, u"l"_s, plainTodos(),
                      R"([{"id": 9007199254740992}, {"id": 9007199254740993}])", path)
                    .ok());
        const Schema invalidate = Schema::invalidate(Schema::entity(EntitySchema(u"Todo"_s)));
        QVERIFY(write(store, u"del"_s, invalidate, R"({"id": 9007199254740993})", path).ok());
        QVERIFY(!store.entity({u"Todo"_s, u"9007199254740993"_s}));
        QVERIFY(store.entity({u"Todo"_s, u"9007199254740992"_s}));
    }

    void pkOfAQJsonObjectIsExact()
    {
        const EntitySchema todo(u"Todo"_s);
        QCOMPARE(todo.pk(QJsonObject {{u"id"_s, Q_INT64_C(9007199254740993)}}),
                 u"9007199254740993"_s);
        QCOMPARE(todo.pk(QJsonObject {{u"id"_s, 1e20}}), u"100000000000000000000"_s);
        QCOMPARE(todo.pk(QJsonObject {{u"id"_s, 2.5}}), u"2.5"_s);
    }
};

QTEST_GUILESS_MAIN(tst_StoreBigNumbers)
#include "tst_storebignumbers.moc"
