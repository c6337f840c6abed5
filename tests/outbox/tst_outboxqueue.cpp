// The outbox's pure parts: the queue keeps the order changes were made in, and the
// file format reads back exactly what it wrote, refusing anything else with a reason.
#include "outboxfile_p.h"
#include "outboxqueue_p.h"

#include <DataClient/placeholderkey.h>

#include <QtCore/QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using DataClient::detail::OutboxFile;
using DataClient::detail::OutboxItem;
using DataClient::detail::OutboxQueue;

namespace {

OutboxItem item(int n)
{
    return {u"PATCH /todos/:id partialUpdate"_s,
            "PATCH",
            QUrl(u"http://127.0.0.1:1/todos/%1"_s.arg(n)),
            {{u"id"_s, n}, {u"flag"_s, true}, {u"name"_s, u"é ü"_s}},
            QJsonObject {{u"title"_s, u"t%1"_s.arg(n)}, {u"done"_s, false}},
            1764056400000 + n,
            "key-" + QByteArray::number(n)};
}

} // namespace

class tst_OutboxQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keepsTheOrderChangesWereMadeIn()
    {
        OutboxQueue queue;
        queue.append(7, item(1));
        queue.append(3, item(2));
        queue.append(9, item(3));
        QCOMPARE(queue.idAt(0), 7u);
        QCOMPARE(queue.remove(3), 1);
        QCOMPARE(queue.remove(3), -1);
        QCOMPARE(queue.size(), 2);
        QCOMPARE(queue.idAt(1), 9u);
        QCOMPARE(queue.find(9)->url, item(3).url);
        QVERIFY(!queue.find(3));
        QCOMPARE(queue.items(), (QList<OutboxItem> {item(1), item(3)}));
    }

    void theFileReadsBackWhatItWrote()
    {
        OutboxItem noBody = item(2);
        noBody.body = QJsonValue(QJsonValue::Undefined);
        OutboxItem nullBody = item(3);
        nullBody.body = QJsonValue(QJsonValue::Null);
        OutboxItem create = item(4);
        create.placeholder = DataClient::placeholderKey(3);
        OutboxItem held = item(5);
        held.waitingFor = {DataClient::placeholderKey(3), DataClient::placeholderKey(4)};
        const QList<OutboxItem> items {item(1), noBody, nullBody, create, held};
        QString why;
        const std::optional<QList<OutboxItem>> read
            = OutboxFile::decode(OutboxFile::encode(items), &why);
        QVERIFY2(read, qPrintable(why));
        QCOMPARE(*read, items);
        QCOMPARE(OutboxFile::decode(OutboxFile::encode({}), &why)->size(), 0);
    }

    void anythingElseIsRefusedWithAReason_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        const QByteArray valid = OutboxFile::encode({item(1)});
        QTest::newRow("empty") << QByteArray() << u"not JSON"_s;
        QTest::newRow("cut") << valid.left(40) << u"not JSON"_s;
        QTest::newRow("array") << QByteArray("[]") << u"not an outbox file"_s;
        QTest::newRow("version") << QByteArray(valid).replace("\"version\":1", "\"version\":\"1\"")
                                 << u"version 1 is not supported (expected 1)"_s;
        QTest::newRow("items") << QByteArray(
            "{\"format\":\"DataClient outbox\",\"version\":1,\"items\":{}}")
                               << u"\"items\" must be an array"_s;
        QTest::newRow("no url") << QByteArray(valid).replace("\"url\"", "\"link\"")
                                << u"item 0: \"url\" must be a non-empty string"_s;
        QTest::newRow("bad url") << QByteArray(valid).replace("http://127.0.0.1:1", "http://[x")
                                 << u"item 0: \"url\" is not a valid URL"_s;
        QTest::newRow("params") << QByteArray(valid)
                                       .replace("\"params\":{", "\"params\":[{")
                                       .replace("},\"since\"", "}],\"since\"")
                                << u"item 0: \"params\" must be an object"_s;
        QTest::newRow("since") << QByteArray(valid).replace("\"since\":", "\"since\":-")
                               << u"item 0: \"since\" must be a time"_s;
        const QByteArray end = "\"since\":";
        QTest::newRow("placeholder not a key")
            << QByteArray(valid).replace(end, "\"placeholder\":\"new:1\"," + end)
            << u"item 0: \"placeholder\" must be a placeholder key"_s;
        QTest::newRow("placeholder a number")
            << QByteArray(valid).replace(end, "\"placeholder\":1," + end)
            << u"item 0: \"placeholder\" must be a placeholder key"_s;
        QTest::newRow("waitingFor empty")
            << QByteArray(valid).replace(end, "\"waitingFor\":[]," + end)
            << u"item 0: \"waitingFor\" must be a non-empty array of placeholder keys"_s;
        QTest::newRow("waitingFor a string")
            << QByteArray(valid).replace(end, "\"waitingFor\":\"\\u0001new:1\"," + end)
            << u"item 0: \"waitingFor\" must be a non-empty array of placeholder keys"_s;
        QTest::newRow("waitingFor a server key")
            << QByteArray(valid).replace(end, "\"waitingFor\":[\"\\u0001new:1\",\"7\"]," + end)
            << u"item 0: \"waitingFor\" must be a non-empty array of placeholder keys"_s;
    }
    void anythingElseIsRefusedWithAReason()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        QString why;
        QVERIFY(!OutboxFile::decode(bytes, &why));
        QVERIFY2(why.contains(reason), qPrintable(why));
    }
};

QTEST_MAIN(tst_OutboxQueue)
#include "tst_outboxqueue.moc"
