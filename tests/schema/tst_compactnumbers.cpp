// Numbers keep their value on both ways into the compact tree: whole
// numbers that fit in 64 bits stay exact (as QJsonDocument keeps them), whether the text went
// through our parser (CompactJson::parse) or through QJsonDocument and CompactJson::fromJsonValue.
#include <DataClient/compactjson.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {
enum class Path { Compact, QJsonDocument };

// The JSON array \a text in compact form, by one path.
CompactJson parsed(const QByteArray &text, Path path)
{
    return path == Path::Compact
        ? CompactJson::parse(text)
        : CompactJson::fromJsonValue(QJsonDocument::fromJson(text).array());
}
} // namespace

Q_DECLARE_METATYPE(Path)

class tst_CompactNumbers : public QObject
{
    Q_OBJECT

    static void addBothPaths(const char *label, const QByteArray &text, qint64 expected)
    {
        QTest::addRow("%s, compact", label) << text << Path::Compact << expected;
        QTest::addRow("%s, QJsonDocument", label) << text << Path::QJsonDocument << expected;
    }

private Q_SLOTS:
    void wholeNumbersStayExact_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<Path>("path");
        QTest::addColumn<qint64>("expected");
        addBothPaths("2^53", "[9007199254740992]", Q_INT64_C(9007199254740992));
        addBothPaths("2^53 + 1", "[9007199254740993]", Q_INT64_C(9007199254740993));
        addBothPaths("-(2^53 + 1)", "[-9007199254740993]", -Q_INT64_C(9007199254740993));
        addBothPaths("18 digits", "[123456789012345678]", Q_INT64_C(123456789012345678));
        addBothPaths("qint64 max", "[9223372036854775807]", std::numeric_limits<qint64>::max());
        addBothPaths("qint64 min", "[-9223372036854775808]", std::numeric_limits<qint64>::min());
        addBothPaths("small", "[42]", 42);
    }
    void wholeNumbersStayExact()
    {
        QFETCH(QByteArray, text);
        QFETCH(Path, path);
        QFETCH(qint64, expected);
        const CompactJson array = parsed(text, path);
        const QJsonValue json = array.toJsonValue().toArray().first();
        QCOMPARE(json.toInteger(), expected);
        QCOMPARE(json, QJsonDocument::fromJson(text).array().first());
        const QVariant variant = array.toVariant().toList().first();
        QCOMPARE(variant.typeId(), QMetaType::LongLong); // like QJsonValue::toVariant()
        QCOMPARE(variant.toLongLong(), expected);
    }

    void otherNumbersAreDoubles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<Path>("path");
        QTest::addColumn<double>("expected");
        QTest::addColumn<int>("variantType");
        for (const Path path : {Path::Compact, Path::QJsonDocument}) {
            const char *via = path == Path::Compact ? "compact" : "QJsonDocument";
            QTest::addRow("fraction, %s", via)
                << QByteArray("[2.5]") << path << 2.5 << int(QMetaType::Double);
            // QJsonDocument makes a whole double a qint64: so does the compact tree
            QTest::addRow("whole exponent, %s", via)
                << QByteArray("[1e3]") << path << 1000.0 << int(QMetaType::LongLong);
            QTest::addRow("beyond 64 bits, %s", via)
                << QByteArray("[12345678901234567890]") << path << 12345678901234567890.0
                << int(QMetaType::Double);
            QTest::addRow("negative zero, %s", via)
                << QByteArray("[-0]") << path << 0.0 << int(QMetaType::LongLong);
        }
    }
    void otherNumbersAreDoubles()
    {
        QFETCH(QByteArray, text);
        QFETCH(Path, path);
        QFETCH(double, expected);
        QFETCH(int, variantType);
        const CompactJson array = parsed(text, path);
        QCOMPARE(array.toJsonValue().toArray().first().toDouble(), expected);
        const QVariant variant = array.toVariant().toList().first();
        QCOMPARE(variant.typeId(), variantType);
        QCOMPARE(variant.toDouble(), expected);
    }
};

QTEST_GUILESS_MAIN(tst_CompactNumbers)
#include "tst_compactnumbers.moc"
