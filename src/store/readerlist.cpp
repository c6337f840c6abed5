// Reader (reader_p.h): lists of a collection, read whole, rebuilt, or patched where one entity
// changed (the patch is recorded for the models: listpatch_p.h).
#include "reader_p.h"

#include <DataClient/private/listpatch_p.h>
#include <DataClient/private/variantof_p.h>

namespace DataClient::detail {

namespace {

// A copy of a list of rows (Records) that a view still holds while one of its rows is replaced.
// Each copied row increments its Record's reference count: at 1M rows that is a cache miss per
// row, the Records being spread over the heap. Touching the counts some rows ahead lets those
// misses overlap instead of waiting for each in turn (what QList's own copy does).
QVariantList copyOfRows(const QVariantList &rows)
{
    constexpr qsizetype Ahead = 16;
    const QMetaType recordType = QMetaType::fromType<Record>();
    const qsizetype n = rows.size();
    const QVariant *in = rows.constData();
    const auto prefetch = [&](qsizetype i) {
        if (i < n && in[i].metaType() == recordType)
            __builtin_prefetch(*static_cast<void *const *>(in[i].constData()), 1);
    };
    QVariantList copy;
    copy.reserve(n);
    copy.resize(n);
    QVariant *out = copy.data();
    for (qsizetype i = 0; i < Ahead; ++i)
        prefetch(i);
    for (qsizetype i = 0; i < n; ++i) {
        prefetch(i + Ahead);
        if (in[i].metaType() == recordType)
            fillVariant(out[i], *static_cast<const Record *>(in[i].constData()));
        else
            out[i] = in[i];
    }
    return copy;
}

} // namespace

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
    // place. One that a model or a caller still holds is copied: N QVariants (a Record
    // reference each) - a persistent list type would be needed to avoid it.
    QVariantList rows = view.value.toList();
    const void *from = rows.constData();
    view.value = QVariant();
    if (!rows.isDetached() && rows.size() >= 65536) // shorter ones: QList's copy (measured)
        rows = copyOfRows(rows);
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
            rows[row] = QVariant::fromValue(record);
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
    view.value = rows;
    if (from != rows.constData() && !replaced.isEmpty()) {
        view.patched = rows.constData();
        recordListPatch(rows, from, std::move(replaced));
    }
    return true;
}

void Reader::rebuildRows(ListView &view, const QList<quint32> *items)
{
    QVariantList rows;
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
    // Rows are filled where they live (fillVariant()); missing entities are dropped.
    rows.reserve(items->size()); // exactly: resize() alone rounds up to a power of 2
    rows.resize(items->size());
    QVariant *row = rows.data();
    view.rowSlots.reserve(items->size());
    const quint32 itemTable = collections(view).itemTable;
    for (quint32 slot : *items) {
        Record record = entity(itemTable, slot, view.items->schema, Dependent(), false);
        if (record.isNull())
            continue;
        fillVariant(*row++, std::move(record));
        qint32 &at = view.rowOf[slot];
        at = at == ListView::NoRow ? qint32(view.rowSlots.size()) : ListView::SeveralRows;
        view.rowSlots.append(slot);
    }
    rows.resize(row - rows.constData());
    view.value = rows;
}

} // namespace DataClient::detail
