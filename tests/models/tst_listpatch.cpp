// One changed entity in a long list. The store's memo replaces that entity's rows in
// its list and says so (listpatch_p.h); a CollectionModel showing the previous list then compares
// only those rows. Covers the store's side (which rows, found without a scan; a list nobody holds
// is patched in place) and the model's (the signals stay exactly those of a full compare).
#include "collectionmodel_p.h"
#include "modelsignals.h"
#include "storefixtures.h"

#include <DataClient/private/listpatch_p.h>
#include <DataClient/private/rowlist_p.h>

#include <QtTest/QAbstractItemModelTester>
#include <QTest>

using namespace DataClient;
using namespace Fixtures;
using namespace Qt::StringLiterals;

namespace {

QByteArray todos(const QList<int> &ids)
{
    QJsonArray array;
    for (int id : ids)
        array.append(QJsonObject {{u"id"_s, id}, {u"title"_s, u"todo %1"_s.arg(id)}});
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

QList<int> upTo(int count)
{
    QList<int> ids;
    for (int id = 1; id <= count; ++id)
        ids.append(id);
    return ids;
}

QVariantList listOf(Store &store)
{
    return store.denormalize(u"l"_s, todoList(), {}).data.toList();
}

void rename(Store &store, int id, const QString &title)
{
    const QJsonObject todo {{u"id"_s, id}, {u"title"_s, title}};
    QVERIFY(store.setResponse(u"u"_s, todoSchema(), {}, todo, at(2)).ok());
}

QString titleAt(const QVariantList &list, int row)
{
    return recordOf(list.at(row)).value(u"title"_s).toString();
}

} // namespace

class tst_ListPatch : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Store> owned;
    Store &store() { return *owned; }

    void fill(const QList<int> &ids)
    {
        owned = std::make_unique<Store>();
        QVERIFY(
            owned->setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(ids)), at(1)).ok());
    }

    // \a model showing the store's list "l" as the store reads it now.
    CollectionModelPrivate *showStoredList(CollectionModel *model)
    {
        CollectionModelPrivate *rows = CollectionModelPrivate::get(model);
        rows->configureRows(todoList());
        rows->resetRows(rowsOf(store().denormalize(u"l"_s, todoList(), {}).data));
        return rows;
    }

private Q_SLOTS:
    void oneChangedEntityIsAPatchOfTheHeldList()
    {
        fill(upTo(20));
        const QVariantList before = listOf(store()); // held, as a model holds what it shows
        QVERIFY(!detail::listPatchOf(before)); // read in full
        const quint64 heldSince = detail::listPatchClock();
        rename(store(), 7, u"renamed"_s);
        const QVariantList after = listOf(store());
        const std::optional<detail::ListPatch> patch = detail::listPatchOf(after);
        QVERIFY(patch);
        QCOMPARE(patch->from, before.constData());
        QCOMPARE(patch->rows, (QList<qsizetype> {6}));
        QVERIFY(patch->made > heldSince);
        QCOMPARE(titleAt(after, 6), u"renamed"_s);
        QCOMPARE(titleAt(before, 6), u"todo 7"_s); // the held list did not change
        // A warm read is the same list, still described by the patch.
        QVERIFY(listOf(store()).isSharedWith(after));
        QVERIFY(detail::listPatchOf(listOf(store())));
    }

    void anEntityTwiceInTheListIsPatchedInBothRows()
    {
        fill({1, 2, 1, 3});
        const QVariantList before = listOf(store());
        QCOMPARE(before.size(), 4);
        rename(store(), 1, u"both"_s);
        const QVariantList after = listOf(store());
        const std::optional<detail::ListPatch> patch = detail::listPatchOf(after);
        QVERIFY(patch);
        QCOMPARE(patch->rows, (QList<qsizetype> {0, 2}));
        QCOMPARE(titleAt(after, 0), u"both"_s);
        QCOMPARE(titleAt(after, 2), u"both"_s);
        QCOMPARE(titleAt(after, 1), u"todo 2"_s);
    }

    void aListNobodyHoldsIsPatchedInPlace()
    {
        fill(upTo(20));
        const void *data = listOf(store()).constData(); // read, then let go
        rename(store(), 3, u"in place"_s);
        const QVariantList after = listOf(store());
        QCOMPARE(after.constData(), data); // not copied: no other list to describe a patch of
        QVERIFY(!detail::listPatchOf(after));
        QCOMPARE(titleAt(after, 2), u"in place"_s);
    }

    void aChangeTheListCannotPatchIsAFullRead()
    {
        fill(upTo(5));
        const QVariantList before = listOf(store());
        QVERIFY(store()
                    .setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos({5, 1})), at(2))
                    .ok());
        const QVariantList after = listOf(store());
        QCOMPARE(after.size(), 2);
        QVERIFY(!detail::listPatchOf(after)); // a structural change: no rows to name
    }

    void theModelShowsAPatchWithOneDataChanged()
    {
        fill(upTo(20));
        CollectionModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        CollectionModelPrivate *rows = CollectionModelPrivate::get(&model);
        rows->configureRows(todoList());
        rows->resetRows(listOf(store()));
        ModelSignals spy(&model);
        rename(store(), 12, u"renamed"_s);
        const QVariantList after = listOf(store());
        QVERIFY(detail::listPatchOf(after));
        QVERIFY(rows->syncRows(after));
        QCOMPARE(spy.total(), 1);
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), 11);
        QVERIFY(spy.changed.at(0).at(2).value<QList<int>>().contains(CollectionModel::EntityRole));
        QCOMPARE(model.get(11).toMap().value(u"title"_s).toString(), u"renamed"_s);
        QVERIFY(!rows->syncRows(listOf(store()))); // the same list again: nothing
        QCOMPARE(spy.total(), 1);
    }

    void aListAdoptedAfterThePatchIsComparedInFull()
    {
        // The patch names its source by address only: a model that adopted its list after the
        // patch was made must not take it for the source (that address may have been reused).
        fill(upTo(10));
        const QVariantList before = listOf(store());
        rename(store(), 4, u"renamed"_s);
        const QVariantList after = listOf(store());
        QCOMPARE(detail::listPatchOf(after)->from, before.constData());
        CollectionModel model;
        CollectionModelPrivate *rows = CollectionModelPrivate::get(&model);
        rows->configureRows(todoList());
        rows->resetRows(before); // adopted late (the real source, but the model cannot know)
        ModelSignals spy(&model);
        QVERIFY(rows->syncRows(after));
        QCOMPARE(spy.changed.size(), 1); // found by the full compare: the same signals
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), 3);
    }

    void twoPatchesBeforeTheModelReadsAreComparedInFull()
    {
        fill(upTo(10));
        CollectionModel model;
        CollectionModelPrivate *rows = CollectionModelPrivate::get(&model);
        rows->configureRows(todoList());
        rows->resetRows(listOf(store()));
        ModelSignals spy(&model);
        rename(store(), 2, u"first"_s);
        const QVariantList middle = listOf(store()); // another reader keeps it: a second copy
        rename(store(), 9, u"second"_s);
        const QVariantList last = listOf(store());
        QCOMPARE(detail::listPatchOf(last)->rows, (QList<qsizetype> {8}));
        QVERIFY(rows->syncRows(last)); // the patch is of `middle`, not of the shown list
        QCOMPARE(spy.changed.size(), 2);
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), 1);
        QCOMPARE(spy.changed.at(1).at(0).toModelIndex().row(), 8);
    }

    // From RowList::ChunkedFrom rows the store keeps the list in chunks: a patch of a held list
    // copies the chunk of the changed row and shares every other chunk with the held list.
    void aLongHeldListIsPatchedOneChunkCopied()
    {
        const int n = int(RowList::ChunkedFrom) + 5;
        fill(upTo(n));
        const RowList before = rowsOf(store().denormalize(u"l"_s, todoList(), {}).data);
        QCOMPARE(before.size(), n);
        QCOMPARE(RowListInternals::chunkCount(before),
                 (n + RowList::ChunkRows - 1) / RowList::ChunkRows);
        const int row = 10 * int(RowList::ChunkRows) + 7;
        rename(store(), row + 1, u"renamed"_s);
        const QVariant data = store().denormalize(u"l"_s, todoList(), {}).data;
        QCOMPARE(data.metaType(), QMetaType::fromType<RowList>());
        const RowList after = rowsOf(data);
        const std::optional<detail::ListPatch> patch = detail::listPatchOf(after);
        QVERIFY(patch);
        QCOMPARE(patch->from, RowListInternals::identity(before));
        QCOMPARE(patch->rows, (QList<qsizetype> {row}));
        QCOMPARE(recordOf(after.at(row)).value(u"title"_s).toString(), u"renamed"_s);
        QCOMPARE(recordOf(before.at(row)).value(u"title"_s).toString(), u"todo %1"_s.arg(row + 1));
        // The chunk of the row was copied; the others are the held list's own storage.
        QVERIFY(&after.at(row) != &before.at(row));
        QVERIFY(&after.at(row - RowList::ChunkRows) == &before.at(row - RowList::ChunkRows));
        QVERIFY(&after.at(n - 1) == &before.at(n - 1));
        QCOMPARE(recordOf(after.at(n - 1)).pk(), QString::number(n));
        // The converted QVariantList is the whole list, in order.
        const QVariantList flat = data.toList();
        QCOMPARE(flat.size(), n);
        QCOMPARE(titleAt(flat, row), u"renamed"_s);
        QCOMPARE(recordOf(flat.at(n - 1)).pk(), QString::number(n));
    }

    void aLongListWithAMissingEntityStaysInOrder()
    {
        const int n = int(RowList::ChunkedFrom) + 5;
        fill(upTo(n));
        QVERIFY(store().denormalize(u"l"_s, todoList(), {}).found);
        QVERIFY(store()
                    .setResponse(u"del"_s, Schema::invalidate(todoSchema()), {},
                                 QJsonObject {{u"id"_s, 3}}, at(2))
                    .ok());
        const RowList rows = rowsOf(store().denormalize(u"l"_s, todoList(), {}).data);
        QCOMPARE(rows.size(), n - 1); // the deleted one dropped, the rows after it moved up
        QCOMPARE(recordOf(rows.at(2)).pk(), u"4"_s);
        QCOMPARE(recordOf(rows.at(RowList::ChunkRows)).pk(),
                 QString::number(RowList::ChunkRows + 2));
        QCOMPARE(recordOf(rows.at(n - 2)).pk(), QString::number(n));
    }

    void theModelShowsAPatchOfALongListWithOneDataChanged()
    {
        const int n = int(RowList::ChunkedFrom) + 5;
        fill(upTo(n));
        CollectionModel model;
        CollectionModelPrivate *rows = showStoredList(&model);
        ModelSignals spy(&model);
        rename(store(), n - 1, u"renamed"_s);
        QVERIFY(rows->syncRows(rowsOf(store().denormalize(u"l"_s, todoList(), {}).data)));
        QCOMPARE(spy.total(), 1);
        QCOMPARE(spy.changed.at(0).at(0).toModelIndex().row(), n - 2);
        QCOMPARE(model.get(n - 2).toMap().value(u"title"_s).toString(), u"renamed"_s);
        QCOMPARE(model.rowCount(), n);
    }

    void aLongListChangedInStructureIsDiffed()
    {
        const int n = int(RowList::ChunkedFrom) + 5;
        fill(upTo(n));
        CollectionModel model;
        CollectionModelPrivate *rows = showStoredList(&model);
        ModelSignals spy(&model);
        QList<int> ids = upTo(n);
        ids.insert(RowList::ChunkRows, n + 1); // one new todo, in the second chunk
        ids.removeLast();
        QVERIFY(store()
                    .setResponse(u"l"_s, todoList(), {}, CompactJson::parse(todos(ids)), at(3))
                    .ok());
        QVERIFY(rows->syncRows(rowsOf(store().denormalize(u"l"_s, todoList(), {}).data)));
        QCOMPARE(spy.inserted.size(), 1);
        QCOMPARE(spy.inserted.at(0).at(1).toInt(), int(RowList::ChunkRows));
        QCOMPARE(spy.removed.size(), 1);
        QCOMPARE(spy.removed.at(0).at(1).toInt(), n - 1); // the last row
        QCOMPARE(spy.total(), 2);
        QCOMPARE(model.rowCount(), n);
        QCOMPARE(model.get(int(RowList::ChunkRows)).toMap().value(u"id"_s).toInt(), n + 1);
        QCOMPARE(model.get(n - 1).toMap().value(u"id"_s).toInt(), n - 1);
    }

    void aLongListReachesQmlAsAnArrayOfMaps()
    {
        const int n = int(RowList::ChunkedFrom) + 5;
        fill(upTo(n));
        const QVariant data = store().denormalize(u"l"_s, todoList(), {}).data;
        QCOMPARE(RowListInternals::chunkCount(rowsOf(data)),
                 (n + RowList::ChunkRows - 1) / RowList::ChunkRows);
        const QVariant forQml = toQmlValue(data);
        QCOMPARE(forQml.metaType().id(), QMetaType::QVariantList);
        const QVariantList list = forQml.toList();
        QCOMPARE(list.size(), n);
        QCOMPARE(list.at(n - 1).metaType().id(), QMetaType::QVariantMap);
        QCOMPARE(list.at(n - 1).toMap().value(u"title"_s).toString(), u"todo %1"_s.arg(n));
    }

    void droppingAValueNeverClearsAListSomeoneHolds()
    {
        fill(upTo(5000)); // long enough for the prefetching release
        QVariantList held = listOf(store());
        CollectionModelPrivate::dropValue(QVariant(held));
        QCOMPARE(held.size(), 5000);
        QCOMPARE(titleAt(held, 4999), u"todo 5000"_s); // still there: the list was shared
        const Record kept = recordOf(held.at(10));
        QVariantList own(held.cbegin(), held.cend()); // a list of its own: dropValue the last
        QVERIFY(own.isDetached());
        QVariant value(own);
        own = {};
        CollectionModelPrivate::dropValue(std::move(value)); // the last holder: freed row by row
        QCOMPARE(kept.value(u"title"_s).toString(), u"todo 11"_s);
        QCOMPARE(titleAt(listOf(store()), 4999), u"todo 5000"_s); // the store's own list
    }
};

QTEST_GUILESS_MAIN(tst_ListPatch)
#include "tst_listpatch.moc"
