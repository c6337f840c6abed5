// The outbox file where the disk fails (docs/offline-outbox.md), on a 64 KiB tmpfs mounted when
// the test runs as root: on a full disk the previous file stays whole, one warning says what
// failed and where, the outbox keeps working in memory and the file catches up once space returns
// (or when the Controller ends); with a persisted store, offline, across restarts on a full disk,
// no change written before the disk filled is lost and one made while full survives the next
// restart once it could be written. A symbolic link at the outbox's path is replaced, never
// followed.
#include "outboxfile_p.h"
#include "outboxfixture.h"
#include "smalltmpfs.h"
#include "warningcounter.h"

#include <QtCore/QFileInfo>
#include <QTest>

using namespace ControllerFixture;
using namespace DataClient::Testing;
using DataClient::detail::OutboxFile;
using DataClient::detail::OutboxItem;

class tst_OutboxDisk : public OutboxTest
{
    Q_OBJECT

    //! The titles of the changes the outbox file at \a path holds, in order; {"unreadable"}
    //! when it does not load.
    static QStringList titlesIn(const QString &path)
    {
        QFile file(path);
        QString why;
        const std::optional<QList<OutboxItem>> items = file.open(QIODevice::ReadOnly)
            ? OutboxFile::decode(file.readAll(), &why)
            : std::nullopt;
        if (!items)
            return {u"unreadable"_s};
        QStringList titles;
        for (const OutboxItem &item : *items)
            titles.append(item.body.toObject().value(u"title"_s).toString());
        return titles;
    }
    QFuture<QVariant> rename(int note, const QString &text)
    {
        return controller->fetch(notes.partialUpdate, id(note), title(text));
    }
    //! The titles of the PATCHes the server received, in order.
    QStringList sentTitles() const
    {
        QStringList titles;
        const auto sent = mutations();
        for (const RecordedRequest &request : sent)
            titles.append(request.json().toObject().value(u"title"_s).toString());
        return titles;
    }
    //! A restart: a new Controller on \a store (its outbox beside it) with the notes registered.
    void restartOn(const QString &store)
    {
        controller.reset();
        newController();
        notes = makeNotes();
        controller->outbox()->registerResource(notes);
        controller->setPersistence(store);
    }

private Q_SLOTS:
    void aFullDiskKeepsTheFileAndWritesTheChangesOnceSpaceReturns()
    {
        SmallTmpfs disk;
        if (!disk.error().isEmpty())
            QSKIP(qPrintable(disk.error()));
        const QString path = disk.filePath(u"store.outbox"_s);
        seed();
        DataClient::detail::setOutboxFile(controller.get(), path);
        connectivity->setOnline(false);
        rename(1, u"before"_s);
        QCOMPARE(titlesIn(path), QStringList {u"before"_s});

        QVERIFY(disk.fill());
        WarningCounter warnings(u"cannot write the outbox file"_s);
        rename(2, u"while full"_s);
        QFuture<QVariant> last = rename(1, u"still full"_s);
        QCOMPARE(warnings.count, 1);
        const QString message = warnings.messages.constFirst();
        QVERIFY2(message.contains(path), qPrintable(message));
        QVERIFY2(message.contains(u"No space left on device"_s), qPrintable(message));
        QVERIFY2(message.contains(u"the previous file is kept"_s), qPrintable(message));
        QVERIFY2(message.contains(u"stay in memory"_s), qPrintable(message));
        QCOMPARE(titlesIn(path), QStringList {u"before"_s}); // the previous file, whole
        QCOMPARE(outboxCount(), 3); // the outbox works in memory
        QCOMPARE(shownTitle(2), u"while full"_s);

        disk.release(); // nothing changes meanwhile: the retry writes the file
        QCOMPARE(controller->nextTimerDue(), clock->now() + 2000); // the second failure's wait
        clock->advance(2000);
        QCOMPARE(titlesIn(path), (QStringList {u"before"_s, u"while full"_s, u"still full"_s}));
        QCOMPARE(warnings.count, 1);

        connectivity->setOnline(true);
        QVERIFY(await(last).value);
        QCOMPARE(sentTitles(), (QStringList {u"before"_s, u"while full"_s, u"still full"_s}));
        QCOMPARE(titlesIn(path), QStringList());
    }

    void aChangeWhoseWriteFailedIsWrittenWhenTheControllerEnds()
    {
        SmallTmpfs disk;
        if (!disk.error().isEmpty())
            QSKIP(qPrintable(disk.error()));
        const QString path = disk.filePath(u"store.outbox"_s);
        DataClient::detail::setOutboxFile(controller.get(), path);
        connectivity->setOnline(false);
        QVERIFY(disk.fill());
        WarningCounter warnings(u"cannot write the outbox file"_s);
        rename(1, u"while full"_s);
        QCOMPARE(warnings.count, 1);
        disk.release();
        controller.reset(); // before the retry was due
        QCOMPARE(titlesIn(path), QStringList {u"while full"_s});
    }

    void aLinkAtTheOutboxPathIsReplacedNotFollowed()
    {
        const QString unrelated = directory->filePath(u"notes.txt"_s);
        {
            QFile file(unrelated);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("the user's own notes");
        }
        const QFileDevice::Permissions shared = QFileDevice::ReadOwner | QFileDevice::WriteOwner
            | QFileDevice::ReadGroup | QFileDevice::ReadOther;
        QVERIFY(QFile::setPermissions(unrelated, shared));
        QVERIFY(QFile::link(unrelated, outboxPath()));

        WarningCounter dropped(u"outbox file .* dropped: not JSON"_s);
        DataClient::detail::setOutboxFile(controller.get(), outboxPath());
        QCOMPARE(dropped.count, 1); // what the link names is no outbox: not read as one
        connectivity->setOnline(false);
        rename(1, u"x"_s);

        QFile file(unrelated);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("the user's own notes"));
        QVERIFY(QFile::permissions(unrelated).testFlags(shared)); // not made owner-only
        QVERIFY(!QFileInfo(outboxPath()).isSymLink());
        QCOMPARE(titlesIn(outboxPath()), QStringList {u"x"_s});
        QVERIFY(!QFile::permissions(outboxPath()).testFlag(QFileDevice::ReadOther));
    }

    void aFullDiskOfflineAndRestartsLoseNoWrittenChange()
    {
        SmallTmpfs disk;
        if (!disk.error().isEmpty())
            QSKIP(qPrintable(disk.error()));
        const QString store = disk.filePath(u"store.dcstore"_s);
        const QString outbox = store + u".outbox"_s;
        controller->setPersistence(store);
        connectivity->setOnline(false);
        seed();
        clock->advance(0); // the store's snapshot is written
        QTRY_VERIFY(QFileInfo(store).size() > 0);
        rename(1, u"before"_s);
        QCOMPARE(titlesIn(outbox), QStringList {u"before"_s});

        QVERIFY(disk.fill());
        WarningCounter warnings(u"cannot write the outbox file"_s);
        rename(2, u"made while full"_s); // kept in memory only: the disk stays full to the end
        QCOMPARE(warnings.count, 1);

        restartOn(store); // offline, still full
        QCOMPARE(outboxCount(), 1); // the file written before the disk filled
        QCOMPARE(shownTitle(1), u"before"_s); // the hydrated note, with the change on it
        rename(2, u"made after the restart"_s);
        QCOMPARE(warnings.count, 2); // one per Controller
        QCOMPARE(titlesIn(outbox), QStringList {u"before"_s});

        disk.release();
        clock->advance(
            2000); // the retry (after the second failure: the start's rewrite failed too)
        QCOMPARE(titlesIn(outbox), (QStringList {u"before"_s, u"made after the restart"_s}));

        connectivity->setOnline(true);
        restartOn(store); // the next start, online: both go, in order
        QCOMPARE(outboxCount(), 2);
        QVERIFY(waitForMutations(2));
        QTRY_COMPARE(outboxCount(), 0);
        QCOMPARE(sentTitles(), (QStringList {u"before"_s, u"made after the restart"_s}));
        QCOMPARE(warnings.count, 2);
        controller.reset(); // its lock file goes before the disk does
    }
};

QTEST_GUILESS_MAIN(tst_OutboxDisk)
#include "tst_outboxdisk.moc"
