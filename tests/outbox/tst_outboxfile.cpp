// The durable outbox: the outbox file survives a restart and its changes are replayed
// to the server in order; a bad file is dropped with a warning naming it and why; an unwritable
// path warns once and the outbox keeps working in memory; an item whose endpoint is gone is
// dropped with a warning; credentials never reach the file, and only its owner can read it.
#include "outboxfixture.h"
#include "outboxfile_p.h"
#include "warningcounter.h"

#include <DataClient/placeholderkey.h>

#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;
using DataClient::detail::OutboxFile;
using DataClient::detail::OutboxItem;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_OutboxFile : public OutboxTest
{
    Q_OBJECT

    //! What the outbox file holds now (nothing when it cannot be read).
    QList<OutboxItem> keptItems() const
    {
        QString why;
        return OutboxFile::decode(readAll(outboxPath()), &why).value_or(QList<OutboxItem>());
    }

    //! Two offline changes written to the outbox file by a Controller that is then destroyed.
    QList<OutboxItem> leaveTwoChanges()
    {
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        connectivity->setOnline(false);
        controller->fetch(notes.partialUpdate, id(1), title(u"first"_s));
        controller->fetch(notes.getList.push, {}, title(u"second"_s));
        controller.reset(); // the app quits (or is killed: the file was written in fetch())
        QString why;
        const std::optional<QList<OutboxItem>> items
            = OutboxFile::decode(readAll(outboxPath()), &why);
        return items.value_or(QList<OutboxItem>());
    }

private Q_SLOTS:
    void aRestartReplaysTheChangesInOrder()
    {
        const QList<OutboxItem> kept = leaveTwoChanges();
        QCOMPARE(kept.size(), 2);
        QCOMPARE(kept[0].endpoint, u"PATCH /notes/:id partialUpdate"_s);
        QCOMPARE(kept[1].endpoint, u"POST /notes getList.push"_s);
        QCOMPARE(server->requestCount(), 0);

        newController(); // the next start, online
        connectivity->setOnline(true);
        notes = makeNotes();
        controller->outbox()->registerResource(notes);
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        QCOMPARE(outboxCount(), 2);
        DataClient::detail::setOutboxFile(controller.get(), outboxPath()); // not read twice
        QCOMPARE(outboxCount(), 2);
        QVERIFY(waitForMutations(2));
        QTRY_COMPARE(outboxCount(), 0);
        const auto sent = mutations();
        QCOMPARE(sent.size(), 2);
        QCOMPARE(sent[0].method, QByteArray("PATCH"));
        QCOMPARE(sent[0].path, u"/notes/1"_s);
        QCOMPARE(sent[0].json(), QJsonValue(title(u"first"_s)));
        QCOMPARE(sent[0].header("Idempotency-Key"), kept[0].idempotencyKey);
        QCOMPARE(sent[1].method, QByteArray("POST"));
        QCOMPARE(sent[1].json(), QJsonValue(title(u"second"_s)));
        QCOMPARE(sent[1].header("Idempotency-Key"), kept[1].idempotencyKey);
        QCOMPARE(shownTitle(1), u"first"_s); // the answer was committed as usual
        QString why;
        QCOMPARE(OutboxFile::decode(readAll(outboxPath()), &why)->size(), 0);
    }

    // An edit of a row whose create waits in the outbox names the row's placeholder key: it is
    // held (never sent with that key) and kept in the file beside the create, so that a restart
    // loses neither; the next start shows the edited row at once and sends the create, then the
    // edit with the server's key.
    void anEditOfARowNotCreatedYetSurvivesARestart_data()
    {
        QTest::addColumn<bool>("registeredFirst");
        QTest::newRow("endpoints registered, then the file read") << true;
        QTest::newRow("the file read, then the endpoints registered") << false;
    }
    void anEditOfARowNotCreatedYetSurvivesARestart()
    {
        QFETCH(bool, registeredFirst);
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        connectivity->setOnline(false);
        controller->fetch(notes.getList.push, {}, title(u"new"_s)); // no id: a placeholder row
        QCOMPARE(keptItems().size(), 1);
        const QString placeholder = keptItems().at(0).placeholder;
        QVERIFY(DataClient::isPlaceholderKey(placeholder));
        controller->fetch(notes.partialUpdate, {{u"id"_s, placeholder}}, title(u"edited"_s));
        QCOMPARE(outboxCount(), 1); // held, not queued: it has no key to be sent with yet
        QCOMPARE(keptItems().size(), 2);
        QCOMPARE(keptItems().at(1).endpoint, u"PATCH /notes/:id partialUpdate"_s);
        QCOMPARE(keptItems().at(1).waitingFor, QStringList {placeholder});
        controller.reset(); // the app quits: the file keeps both
        QCOMPARE(keptItems().size(), 2);

        newController(); // the next start, still offline
        connectivity->setOnline(false);
        notes = makeNotes();
        if (registeredFirst)
            controller->outbox()->registerResource(notes);
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        if (!registeredFirst) {
            QCOMPARE(keptItems().size(), 2); // nothing dropped while its endpoint is unknown
            QCOMPARE(keptItems().at(1).waitingFor, QStringList {placeholder});
            controller->outbox()->registerResource(notes);
        }
        QCOMPARE(outboxCount(), 1);
        const QList<OutboxItem> again = keptItems();
        QCOMPARE(again.size(), 2);
        const QString shownUnder = again.at(0).placeholder; // this run's key for the row
        QVERIFY(DataClient::isPlaceholderKey(shownUnder));
        QCOMPARE(again.at(1).waitingFor, QStringList {shownUnder});
        QCOMPARE(again.at(1).params.value(u"id"_s).toString(), shownUnder);
        const QVariantMap row = controller->get(noteSchema(), {{u"id"_s, shownUnder}}).data.toMap();
        QCOMPARE(row.value(u"title"_s).toString(), u"edited"_s); // shown at once, as before

        connectivity->setOnline(true);
        QVERIFY(waitForMutations(2));
        QTRY_COMPARE(outboxCount(), 0);
        const auto sent = mutations();
        QCOMPARE(sent.size(), 2);
        QCOMPARE(sent[0].method, QByteArray("POST"));
        QCOMPARE(sent[0].json(), QJsonValue(title(u"new"_s)));
        QCOMPARE(sent[1].method, QByteArray("PATCH"));
        const QString serverId = controller->confirmedKey(shownUnder);
        QVERIFY(!serverId.isEmpty());
        QCOMPARE(sent[1].path, u"/notes/"_s + serverId);
        QCOMPARE(sent[1].json(), QJsonValue(title(u"edited"_s)));
        QCOMPARE(shownTitle(serverId.toInt()), u"edited"_s);
        QTRY_COMPARE(keptItems().size(), 0);
    }

    // After a restart the create of the held edit's row fails: the edit is dropped unsent, with
    // a warning (nobody waits for its future any more), and leaves the file.
    void aHeldEditWhoseCreateFailsAfterARestartIsDroppedWithAWarning()
    {
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        connectivity->setOnline(false);
        controller->fetch(notes.getList.push, {}, title(u"doomed"_s));
        const QString placeholder = keptItems().at(0).placeholder;
        controller->fetch(notes.partialUpdate, {{u"id"_s, placeholder}}, title(u"edited"_s));
        controller.reset();

        newController();
        connectivity->setOnline(true);
        server->route("POST", u"/notes"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"error"_s, u"no"_s}}, 422);
        });
        notes = makeNotes();
        controller->outbox()->registerResource(notes);
        WarningCounter dropped(u"outbox: dropped .*partialUpdate was not sent"_s);
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        QTRY_COMPARE(outboxCount(), 0);
        QTRY_COMPARE(dropped.count, 1);
        QTRY_COMPARE(keptItems().size(), 0);
        const auto sent = mutations();
        QCOMPARE(sent.size(), 1); // the create; never the edit
        QCOMPARE(sent[0].method, QByteArray("POST"));
    }

    // With a persisted store the outbox is kept beside it, `<file>.outbox`, under the same lock:
    // Controller::setPersistence() alone makes the changes durable (docs/offline.md).
    void thePersistedStoreKeepsItsOutboxBesideIt()
    {
        const QString store = directory->filePath(u"store.dcs"_s);
        controller->setPersistence(store);
        QCOMPARE(controller->persistence(), store);
        connectivity->setOnline(false);
        controller->fetch(notes.partialUpdate, id(1), title(u"kept beside the store"_s));
        QString why;
        const std::optional<QList<OutboxItem>> written
            = OutboxFile::decode(readAll(store + u".outbox"_s), &why);
        QVERIFY2(written, qPrintable(why));
        QCOMPARE(written->size(), 1);
        controller.reset();

        newController(); // the next start, online
        connectivity->setOnline(true);
        notes = makeNotes();
        controller->outbox()->registerResource(notes);
        controller->setPersistence(store);
        QCOMPARE(outboxCount(), 1);
        QVERIFY(waitForMutations(1));
        QTRY_COMPARE(outboxCount(), 0);
        QCOMPARE(mutations().constFirst().path, u"/notes/1"_s);
        QCOMPARE(mutations().constFirst().header("Idempotency-Key"),
                 written->constFirst().idempotencyKey);
    }

    void theFileIsOwnerOnlyAndHoldsNoCredentials()
    {
        notes = makeNotes({{"Authorization", "Bearer s3cret-token"}, {"Cookie", "session=abc123"}});
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        connectivity->setOnline(false);
        QFuture<QVariant> change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        const QByteArray bytes = readAll(outboxPath());
        QVERIFY(bytes.contains("/notes/1"));
        QVERIFY(!bytes.contains("s3cret-token"));
        QVERIFY(!bytes.contains("session=abc123"));
        const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
            | QFileDevice::ReadOther | QFileDevice::WriteOther;
        QCOMPARE(QFileInfo(outboxPath()).permissions() & others, QFileDevice::Permissions());
        // The endpoint's headers are made again at replay.
        connectivity->setOnline(true);
        QVERIFY(await(change).value);
        QCOMPARE(mutations().value(0).header("Authorization"), QByteArray("Bearer s3cret-token"));
    }

    void aBadFileIsDroppedWithAWarning_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QByteArray valid = OutboxFile::encode({{u"PATCH /notes/:id partialUpdate"_s,
                                                "PATCH",
                                                QUrl(u"http://h/notes/1"_s),
                                                {{u"id"_s, 1}},
                                                QJsonObject {},
                                                1,
                                                "k"}});
        QTest::newRow("zero-length") << QByteArray() << u"not JSON"_s;
        QTest::newRow("truncated") << valid.left(valid.size() / 2) << u"not JSON"_s;
        QTest::newRow("garbage") << QByteArray("\x00\xff\x13garbage", 10) << u"not JSON"_s;
        QTest::newRow("foreign") << QByteArray("{\"hello\": 1}") << u"not an outbox file"_s;
        QTest::newRow("wrong version")
            << QByteArray(valid).replace("\"version\":1", "\"version\":9")
            << u"version 9 is not supported"_s;
        QTest::newRow("bad item") << QByteArray(valid).replace("\"method\":\"PATCH\"",
                                                               "\"method\":7")
                                  << u"item 0: \"method\" must be a non-empty string"_s;
    }
    void aBadFileIsDroppedWithAWarning()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        seed();
        QFile file(outboxPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        {
            WarningCounter warnings(u"outbox file"_s);
            DataClient::detail::setOutboxFile(controller.get(), outboxPath());
            QCOMPARE(warnings.count, 1);
            QVERIFY2(warnings.messages[0].contains(outboxPath()), qPrintable(warnings.messages[0]));
            QVERIFY2(warnings.messages[0].contains(reason), qPrintable(warnings.messages[0]));
        }
        QCOMPARE(outboxCount(), 0);
        QCOMPARE(shownTitle(1), u"one"_s); // the store is as it was
        // The outbox works and the file is valid again.
        QFuture<QVariant> change = controller->fetch(notes.partialUpdate, id(1), title(u"x"_s));
        QString why;
        QCOMPARE(
            OutboxFile::decode(readAll(outboxPath()), &why).value_or(QList<OutboxItem>()).size(),
            1);
        QVERIFY(await(change).value);
    }

    void anUnwritablePathWarnsOnceAndKeepsWorking()
    {
        const QString path = directory->filePath(u"missing-directory/store.outbox"_s);
        WarningCounter warnings(u"cannot write the outbox file"_s);
        DataClient::detail::setOutboxFile(controller.get(), path);
        connectivity->setOnline(false);
        QFuture<QVariant> first = controller->fetch(notes.partialUpdate, id(1), title(u"a"_s));
        QFuture<QVariant> second = controller->fetch(notes.partialUpdate, id(2), title(u"b"_s));
        QCOMPARE(warnings.count, 1);
        QVERIFY(warnings.messages[0].contains(path));
        QCOMPARE(outboxCount(), 2);
        connectivity->setOnline(true);
        QVERIFY(await(second).value);
        QCOMPARE(mutations().size(), 2);
        QCOMPARE(warnings.count, 1);
    }

    void anItemOfAnUnknownEndpointIsDropped()
    {
        QFile file(outboxPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(OutboxFile::encode({{u"PATCH /gone/:id partialUpdate"_s,
                                        "PATCH",
                                        QUrl(server->url(u"/gone/1"_s)),
                                        {{u"id"_s, 1}},
                                        title(u"x"_s),
                                        1,
                                        "k1"},
                                       {u"PATCH /notes/:id partialUpdate"_s,
                                        "PATCH",
                                        QUrl(server->url(u"/notes/2"_s)),
                                        {{u"id"_s, 2}},
                                        title(u"y"_s),
                                        2,
                                        "k2"}}));
        file.close();
        controller->outbox()->registerResource(notes);
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(u"outbox: dropped PATCH .*/gone/1: its endpoint "
                                                u"\"PATCH /gone/:id partialUpdate\" is unknown"_s));
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        QCOMPARE(outboxCount(), 2);
        QTRY_COMPARE(outboxCount(), 0);
        const auto sent = mutations();
        QCOMPARE(sent.size(), 1); // only the known one
        QCOMPARE(sent[0].path, u"/notes/2"_s);
        QCOMPARE(sent[0].header("Idempotency-Key"), QByteArray("k2"));
    }
};

QTEST_MAIN(tst_OutboxFile)
#include "tst_outboxfile.moc"
