// Reader (reader_p.h): lists of a collection, read whole, rebuilt, or patched where one entity
// changed (the patch is recorded for the models: listpatch_p.h).
#include "reader_p.h"

#include <DataClient/private/listpatch_p.h>
#include <DataClient/private/variantof_p.h>
#include <DataClient/rowlist.h>
#include <DataClient/private/rowlist_p.h>

namespace DataClient::detail {

QVariant Reader::list(ListView &view)
{
    if (!view.dirty)
        return view.value;
    const CollectionTable &collections = *m_store.collectionTables[view.collectionTable];
    const QList<quint32> *items = collections.effective(view.collectionSlot);
    bool rebuild = view.structural || !view.value.isValid() || !items;
    if (view.patched) // the previous value's patch no longer describes the value
        forgetListPatch(std::exchange(view.patched, nullptr));
    if (!rebuild)
        rebuild = !patchRows(view);
    if (rebuild)
        rebuildRows(view, items);
    view.dirty = false;
    view.structural = false;
    view.dirtySlots.clear();
    return view.value;
}

bool Reader::patchRows(ListView &view)
{
    // The rows of the entities that changed are replaced; anything else re-reads the list.
    // The list is taken out of the view first, so that one nobody else holds is patched in
    // place. One that a model or a caller still holds is copied: all of it when it is one
    // list, one chunk per replaced row when it is chunked (RowList::ChunkedFrom rows and more).
    RowList rows = rowsOf(view.value);
    const void *from = RowListInternals::identity(rows);
    view.value = QVariant();
    QList<qsizetype> replaced;
    for (quint32 slot : std::as_const(view.dirtySlots)) {
        const qint32 at = slot < view.rowOf.size() ? view.rowOf[slot] : ListView::NoRow;
        if (at == ListView::NoRow) {
            if (slot < view.members.size() && view.members[slot])
                return false; // an entity that was missing came back
            continue;
        }
        const Record record
            = entity(collections(view).itemTable, slot, view.items->schema, Dependent(), false);
        if (record.isNull())
            return false; // the entity is gone: its row goes
        const auto replace = [&](qsizetype row) {
            rows.replace(row, QVariant::fromValue(record));
            replaced.append(row);
        };
        if (at >= 0) {
            replace(at);
        } else { // in several rows: rare, scanned
            for (qsizetype row = 0; row < view.rowSlots.size(); ++row) {
                if (view.rowSlots.at(row) == slot)
                    replace(row);
            }
        }
    }
    std::sort(replaced.begin(), replaced.end());
    view.value = QVariant::fromValue(rows);
    if (from != RowListInternals::identity(rows) && !replaced.isEmpty()) {
        view.patched = RowListInternals::identity(rows);
        recordListPatch(rows, from, std::move(replaced));
    }
    return true;
}

void Reader::rebuildRows(ListView &view, const QList<quint32> *items)
{
    view.rowSlots.clear();
    view.members.clear();
    view.rowOf.clear();
    if (!items) {
        view.value = QVariant();
        return;
    }
    for (quint32 slot : *items) {
        if (view.members.size() <= slot)
            view.members.resize(std::max<size_t>(slot + 1, view.members.size() * 2), false);
        view.members[slot] = true;
    }
    view.rowOf.assign(view.members.size(), ListView::NoRow);
    // Rows are filled where they live (fillVariant()); missing entities are dropped. A long list
    // is cut into chunks as it is filled, so that a later patch copies one chunk, not N rows.
    const qsizetype n = items->size();
    const qsizetype chunkRows = n >= RowList::ChunkedFrom ? RowList::ChunkRows : n;
    QList<QVariantList> chunks;
    chunks.reserve(chunkRows ? (n + chunkRows - 1) / chunkRows : 0);
    QVariant *row = nullptr;
    QVariant *chunkEnd = nullptr;
    view.rowSlots.reserve(n);
    const quint32 itemTable = collections(view).itemTable;
    for (quint32 slot : *items) {
        Record record = entity(itemTable, slot, view.items->schema, Dependent(), false);
        if (record.isNull())
            continue;
        if (row == chunkEnd) {
            QVariantList &chunk = chunks.emplace_back();
            const qsizetype size = std::min(chunkRows, n - chunkRows * (chunks.size() - 1));
            chunk.reserve(size); // exactly: resize() alone rounds up to a power of 2
            chunk.resize(size);
            row = chunk.data();
            chunkEnd = row + size;
        }
        fillVariant(*row++, std::move(record));
        qint32 &at = view.rowOf[slot];
        at = at == ListView::NoRow ? qint32(view.rowSlots.size()) : ListView::SeveralRows;
        view.rowSlots.append(slot);
    }
    if (!chunks.isEmpty()) // the last chunk is short by the missing entities
        chunks.back().resize(row - chunks.back().constData());
    view.value = QVariant::fromValue(RowList::fromChunks(std::move(chunks)));
}

} // namespace DataClient::detail
