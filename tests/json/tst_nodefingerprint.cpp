// nodeFingerprint() (node_p.h): what the normalizer recognises a repeated author by
// in a long list. Equal bytes give equal fingerprints, whichever way the node was made (a
// parse, another parse, a heap copy); any one change gives another; many look-alike objects
// give as many fingerprints.
#include <DataClient/private/jsonparser_p.h>
#include <DataClient/private/node_p.h>

#include <QTest>

#include <QtCore/QJsonDocument>
#include <QtCore/QSet>

#include <vector>

using namespace DataClient::detail;
using namespace Qt::StringLiterals;

namespace {
//! The value of \a text (an object or array), parsed; its holder kept alive by \a keep.
const Node *parsed(const QByteArray &text, NodeRef *keep)
{
    ParseResult result = parseJson(text);
    if (!result.error.isEmpty())
        qFatal("bad test text %s: %s", text.constData(), qPrintable(result.error));
    *keep = std::move(result.holder);
    return (*keep)->at(0).node;
}
// Every tree parsed by fingerprintOf(), alive to the end of the test function: fingerprints
// are compared among live nodes (a shape's address, which they hash, stands for its keys only
// while the shape lives; a freed one's address may be the next shape's).
std::vector<NodeRef> s_alive;
NodeFingerprint fingerprintOf(const QByteArray &text)
{
    return nodeFingerprint(parsed(text, &s_alive.emplace_back()));
}
} // namespace

namespace DataClient::detail {
// Found by argument-dependent lookup, for QSet.
size_t qHash(const NodeFingerprint &f, size_t seed = 0)
{
    return qHashMulti(seed, f.a, f.b);
}
// For QCOMPARE's message.
char *toString(const NodeFingerprint &f)
{
    return qstrdup(
        QByteArray::number(f.a, 16).append('/').append(QByteArray::number(f.b, 16)).constData());
}
} // namespace DataClient::detail

class tst_NodeFingerprint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { s_alive.clear(); }

    void sameBytesSameFingerprint_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("author") << QByteArray(
            R"({"id":363,"username":"trent363","email":"trent363@example.net","address":{"city":"Bristol","zip":"68033"}})");
        QTest::newRow("empty object") << QByteArray("{}");
        QTest::newRow("empty array") << QByteArray("[]");
        QTest::newRow("UTF-16 strings") << QByteArray(R"({"name":"Zoë","city":"東京"})");
        QTest::newRow("numbers") << QByteArray(
            R"({"a":1,"b":-0.5,"c":1e300,"d":123456789012345678901234})");
        QTest::newRow("literals") << QByteArray(R"({"a":true,"b":false,"c":null})");
        QTest::newRow("nested lists") << QByteArray(R"([[1,[2,[3]]],{"x":[{}]}])");
        QTest::newRow("a date") << QByteArray(R"({"at":"2024-11-20T00:51:09.031Z"})");
    }
    void sameBytesSameFingerprint()
    {
        QFETCH(QByteArray, text);
        NodeRef first, second;
        const Node *a = parsed(text, &first);
        const Node *b = parsed(text, &second); // another parse: other nodes, same bytes
        QVERIFY(a != b);
        QCOMPARE(nodeFingerprint(a), nodeFingerprint(b));
        const NodeRef copy = NodeRef::adopt(Node::copyOf(a, 0, true)); // what the store keeps
        QCOMPARE(nodeFingerprint(copy.get()), nodeFingerprint(a));
        QVERIFY(!nodeFingerprint(a).isNull());
    }

    void everyChangeChangesIt()
    {
        // One change each from the base: a character at every position of strings across the
        // 16-byte steps and the tail, a number, a nested value, a key, the key order, the kind.
        const QByteArray base
            = R"({"id":7,"name":"ann","mail":"ann@example.net","home":{"city":"Oslo"}})";
        QList<QByteArray> variants {
            R"({"id":8,"name":"ann","mail":"ann@example.net","home":{"city":"Oslo"}})",
            R"({"id":"7","name":"ann","mail":"ann@example.net","home":{"city":"Oslo"}})",
            R"({"id":7.5,"name":"ann","mail":"ann@example.net","home":{"city":"Oslo"}})",
            R"({"id":7,"name":"ann","mail":"ann@example.net","home":{"city":"Olso"}})",
            R"({"id":7,"name":"ann","mail":"ann@example.net","home":{"town":"Oslo"}})",
            R"({"id":7,"name":"ann","mail":"ann@example.net","home":["Oslo"]})",
            R"({"id":7,"name":"ann","mail":"ann@example.net","home":{"city":"Oslo","zip":null}})",
            R"({"id":7,"name":"ann","mail":"ann@example.net","home":null})",
            R"({"name":"ann","id":7,"mail":"ann@example.net","home":{"city":"Oslo"}})",
            R"({"id":7,"name":"ann","mail":"ann@example.net"})",
            R"({"id":7,"name":"ann\u0000","mail":"ann@example.net","home":{"city":"Oslo"}})",
            R"({"id":7,"name":"annë","mail":"ann@example.net","home":{"city":"Oslo"}})",
            R"([7,"ann","ann@example.net",{"city":"Oslo"}])",
        };
        const qsizetype mail = base.indexOf("ann@");
        for (qsizetype at = mail; at < mail + qsizetype(strlen("ann@example.net")); ++at) {
            QByteArray changed = base;
            changed[at] = changed.at(at) == 'x' ? 'y' : 'x';
            variants.append(changed);
        }
        QSet<NodeFingerprint> seen {fingerprintOf(base)};
        for (const QByteArray &variant : std::as_const(variants)) {
            const NodeFingerprint f = fingerprintOf(variant);
            QVERIFY2(!seen.contains(f), variant.constData());
            seen.insert(f);
        }
    }

    void stringsOfEveryLength()
    {
        // Blobs from 0 to 40 bytes, and each of their bytes changed: the 16-byte steps and the
        // tail (read in overlapping words) must reach every byte.
        QSet<NodeFingerprint> seen;
        for (int length = 0; length <= 40; ++length) {
            QByteArray letters;
            for (int i = 0; i < length; ++i)
                letters += char('a' + i % 26);
            const QByteArray text = "{\"s\":\"" + letters + "\"}";
            const NodeFingerprint unchanged = fingerprintOf(text);
            QCOMPARE(fingerprintOf(text), unchanged);
            QVERIFY(!seen.contains(unchanged));
            seen.insert(unchanged);
            for (int at = 0; at < length; ++at) {
                QByteArray changed = letters;
                changed[at] = '_';
                const NodeFingerprint f = fingerprintOf("{\"s\":\"" + changed + "\"}");
                QVERIFY2(f != unchanged, qPrintable(u"length %1, byte %2"_s.arg(length).arg(at)));
            }
        }
    }

    void manyLookAlikesAllDiffer()
    {
        // 30k authors that differ in their id and the digits of their name and zip, as in a
        // generated list of a million todos (three times its 10k authors).
        QSet<NodeFingerprint> seen;
        seen.reserve(30000);
        for (int id = 1; id <= 30000; ++id) {
            const QByteArray n = QByteArray::number(id);
            seen.insert(fingerprintOf(R"({"id":)" + n + R"(,"username":"user)" + n
                                      + R"(","address":{"zip":")" + n + R"("}})"));
        }
        QCOMPARE(seen.size(), 30000);
    }

    void nullNode()
    {
        QVERIFY(!nodeFingerprint(nullptr).isNull());
        QVERIFY(nodeFingerprint(nullptr) != fingerprintOf("{}"));
    }
};

QTEST_GUILESS_MAIN(tst_NodeFingerprint)
#include "tst_nodefingerprint.moc"
