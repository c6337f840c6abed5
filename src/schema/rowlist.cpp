// RowList (rowlist.h): rows in one list or in chunks of ChunkRows. Reads are one branch and a
// division; replace() copies at most one chunk; structural edits go through one list.
#include "logging_p.h"

#include <DataClient/rowlist.h>

using namespace Qt::StringLiterals;

namespace DataClient {

RowList::RowList(const QVariantList &rows)
{
    if (!rows.isEmpty())
        m_chunks.append(rows);
}

RowList RowList::fromChunks(QList<QVariantList> chunks)
{
    chunks.removeIf([](const QVariantList &chunk) { return chunk.isEmpty(); });
    bool cut = true; // already cut as a chunked list is
    for (qsizetype c = 0; cut && c + 1 < chunks.size(); ++c)
        cut = chunks.at(c).size() == ChunkRows;
    cut = cut && (chunks.size() <= 1 || chunks.back().size() <= ChunkRows);
    RowList list;
    if (cut) {
        list.m_chunks = std::move(chunks);
        return list;
    }
    QVariantList chunk;
    for (const QVariantList &in : std::as_const(chunks)) {
        for (const QVariant &row : in) {
            if (chunk.isEmpty())
                chunk.reserve(ChunkRows);
            chunk.append(row);
            if (chunk.size() == ChunkRows)
                list.m_chunks.append(std::exchange(chunk, {}));
        }
    }
    if (!chunk.isEmpty())
        list.m_chunks.append(std::move(chunk));
    return list;
}

QVariant RowList::value(qsizetype i, const QVariant &fallback) const
{
    return i >= 0 && i < size() ? at(i) : fallback;
}

QVariantList RowList::toList() const
{
    if (m_chunks.size() <= 1)
        return m_chunks.isEmpty() ? QVariantList() : m_chunks.front();
    return mid(0);
}

QVariantList RowList::mid(qsizetype pos, qsizetype length) const
{
    const qsizetype n = size();
    if (pos < 0) {
        if (length >= 0)
            length += pos;
        pos = 0;
    }
    if (pos >= n || length == 0 || (length < 0 && length != -1))
        return {};
    const qsizetype end = length == -1 || length > n - pos ? n : pos + length;
    if (m_chunks.size() == 1)
        return m_chunks.front().mid(pos, end - pos);
    QVariantList rows;
    rows.reserve(end - pos);
    for (qsizetype i = pos; i < end;) {
        const QVariantList &chunk = m_chunks.at(i / ChunkRows);
        const qsizetype from = i % ChunkRows;
        const qsizetype take = std::min(chunk.size() - from, end - i);
        rows.append(chunk.mid(from, take));
        i += take;
    }
    return rows;
}

namespace {
// Edits with a bad index are refused with a warning, the list unchanged (not undefined behaviour:
// one compare per edit). Reads through at() stay unchecked in release builds, as QList::at().
template<typename Describe> bool refused(bool fits, Describe describe)
{
    if (!fits)
        qCWarning(lcSchema).noquote() << u"RowList::%1; the list is unchanged"_s.arg(describe());
    return !fits;
}
} // namespace

void RowList::replace(qsizetype i, const QVariant &row)
{
    if (refused(i >= 0 && i < size(),
                [&] { return u"replace: no row %1 in a list of %2 rows"_s.arg(i).arg(size()); }))
        return;
    if (m_chunks.size() == 1)
        m_chunks.front()[i] = row;
    else
        m_chunks[i / ChunkRows][i % ChunkRows] = row;
}

void RowList::makeOneList()
{
    if (m_chunks.size() > 1)
        m_chunks = {mid(0)};
}

void RowList::insert(qsizetype i, const QVariant &row)
{
    if (refused(i >= 0 && i <= size(), [&] {
            return u"insert: position %1 is not between 0 and the size, %2"_s.arg(i).arg(size());
        }))
        return;
    makeOneList();
    if (m_chunks.isEmpty())
        m_chunks.append(QVariantList {row});
    else
        m_chunks.front().insert(i, row);
}

void RowList::remove(qsizetype i, qsizetype n)
{
    if (refused(i >= 0 && n >= 0 && i + n <= size(), [&] {
            return u"remove: %1 rows from row %2 are not all in a list of %3 rows"_s.arg(n)
                .arg(i)
                .arg(size());
        }))
        return;
    if (n == 0)
        return;
    makeOneList();
    m_chunks.front().remove(i, n);
    if (m_chunks.front().isEmpty())
        m_chunks.clear();
}

bool operator==(const RowList &a, const RowList &b)
{
    if (a.isSharedWith(b))
        return true;
    const qsizetype n = a.size();
    if (n != b.size())
        return false;
    for (qsizetype i = 0; i < n; ++i) {
        if (a.at(i) != b.at(i))
            return false;
    }
    return true;
}

RowList rowsOf(const QVariant &value, bool *isList)
{
    const QMetaType type = value.metaType();
    const bool list
        = type == QMetaType::fromType<RowList>() || type.id() == QMetaType::QVariantList;
    if (isList)
        *isList = list;
    if (!list)
        return {};
    if (type.id() == QMetaType::QVariantList)
        return RowList(*static_cast<const QVariantList *>(value.constData()));
    return *static_cast<const RowList *>(value.constData());
}

namespace {
void registerRowListConverters()
{
    QMetaType::registerConverter<RowList, QVariantList>(&RowList::toList);
}
} // namespace
Q_CONSTRUCTOR_FUNCTION(registerRowListConverters)

} // namespace DataClient
