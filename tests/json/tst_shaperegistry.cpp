// The registry of object shapes (interned key lists, src/json/shape.cpp) gives back what is no
// longer used and stays within its byte bound: a server that invents key
// names pins nothing once its answers are gone from the store.
#include "storefixtures.h"

#include <DataClient/compactjson.h>

#include <DataClient/private/shape_p.h>

#include <QtCore/QDateTime>
#include <QTest>

#include <atomic>
#include <thread>

using namespace DataClient;
using namespace DataClient::detail;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {
// \a count todos, each with a key name of its own: as many shapes as todos.
QByteArray inventedKeys(int count, const char *salt)
{
    QByteArray text = "[";
    for (int i = 0; i < count; ++i) {
        text += (i ? "," : "") + QByteArray(R"({"id": )") + QByteArray::number(i) + R"(, "k_)"
            + salt + "_" + QByteArray::number(i) + R"(": true})";
    }
    return text + "]";
}

Schema plainTodos()
{
    static const Schema schema = Schema::array(Schema::entity(EntitySchema(u"Todo"_s)));
    return schema;
}
} // namespace

class tst_ShapeRegistry : public QObject
{
    Q_OBJECT

    qsizetype baseline = 0;

private Q_SLOTS:
    void init() { baseline = Shape::internedBytes(); }

    void parsedShapesLeaveWithTheirNodes()
    {
        {
            const CompactJson parsed = CompactJson::parse(inventedKeys(2000, "parse"));
            QVERIFY(!parsed.isUndefined());
            QVERIFY(Shape::internedBytes() > baseline + 2000 * 64);
        }
        QCOMPARE(Shape::internedBytes(), baseline);
    }

    void convertedShapesLeaveWithTheirNodes()
    {
        {
            const CompactJson converted = CompactJson::fromJsonValue(
                QJsonDocument::fromJson(inventedKeys(2000, "convert")).array());
            QVERIFY(Shape::internedBytes() > baseline + 2000 * 64);
        }
        QCOMPARE(Shape::internedBytes(), baseline);
    }

    void storeResetAndDestructionGiveShapesBack()
    {
        auto store = std::make_unique<Store>();
        QVERIFY(store
                    ->setResponse(u"a"_s, plainTodos(), {},
                                  CompactJson::parse(inventedKeys(2000, "a")), at(1))
                    .ok());
        QVERIFY(store
                    ->setResponse(u"b"_s, plainTodos(), {},
                                  json(inventedKeys(500, "b").constData()), at(2))
                    .ok());
        QVERIFY(Shape::internedBytes() > baseline + 2000 * 64);
        store->reset();
        QCOMPARE(Shape::internedBytes(), baseline);

        QVERIFY(store
                    ->setResponse(u"c"_s, plainTodos(), {},
                                  CompactJson::parse(inventedKeys(1000, "c")),
                                  at(QDateTime::currentMSecsSinceEpoch() + 1)) // after reset()
                    .ok());
        QVERIFY(Shape::internedBytes() > baseline);
        store.reset();
        QCOMPARE(Shape::internedBytes(), baseline);
    }

    void sharedShapesAreOneEntry()
    {
        // The normal case: 1000 objects of one key list are one shape in the registry.
        const qsizetype count = Shape::internedCount();
        QByteArray text = "[";
        for (int i = 0; i < 1000; ++i)
            text += (i ? "," : "") + QByteArray(R"({"id": 1, "shared_key_list": 2})");
        const CompactJson parsed = CompactJson::parse(text + "]");
        const CompactJson again = CompactJson::fromJsonValue(parsed.toJsonValue());
        QCOMPARE(Shape::internedCount(), count + 1);
    }

    void boundedByBytes()
    {
        // Key lists of about 4 KB each, held, until well past the bound: the registry stops at
        // it; the shapes past it are private but still correct, and all go when released.
        std::vector<ShapeRef> held;
        QList<QString> keys;
        for (int k = 0; k < 40; ++k)
            keys.append(u"a_rather_long_field_name_%1"_s.arg(k));
        const qsizetype perShape = Shape::bytesFor(keys);
        const qsizetype needed = (Shape::MaxInternedBytes - baseline) / perShape + 100;
        for (qsizetype i = 0; i < needed; ++i) {
            keys[0] = u"distinct_%1"_s.arg(i);
            held.push_back(Shape::intern(keys));
            QCOMPARE(held.back().get()->key(0), keys[0]);
            QVERIFY(Shape::internedBytes() <= Shape::MaxInternedBytes);
        }
        QVERIFY(Shape::internedBytes() > Shape::MaxInternedBytes - perShape);
        // Past the bound, a known key list is still found (shared), a new one is private.
        keys[0] = u"distinct_0"_s;
        const ShapeRef known = Shape::intern(keys);
        QCOMPARE(known.get(), held.front().get());
        held.clear();
        QCOMPARE(Shape::internedBytes(), baseline + Shape::bytesFor(keys));
    }

    void parsingOnTwoThreads()
    {
        // Nodes are built and released on worker threads too (StoreLayers::prepare()): shapes dying
        // on one thread while the other interns the same key lists (run under ASan in CI).
        const QByteArray shared = inventedKeys(50, "shared");
        std::atomic<int> parsed = 0;
        auto work = [&shared, &parsed](const char *salt) {
            for (int round = 0; round < 200; ++round) {
                const CompactJson a = CompactJson::parse(shared);
                const CompactJson b = CompactJson::parse(inventedKeys(5, salt));
                parsed += int(a.size() + b.size());
            }
        };
        std::thread first(work, "one");
        std::thread second(work, "two");
        first.join();
        second.join();
        QCOMPARE(parsed.load(), 2 * 200 * 55);
        QCOMPARE(Shape::internedBytes(), baseline);
    }
};

QTEST_GUILESS_MAIN(tst_ShapeRegistry)
#include "tst_shaperegistry.moc"
