// RowList: the rows of a collection as the store hands them out - a QVariantList, or for a long
// list the same rows kept in chunks, so that a list with one row replaced shares all the others.
#pragma once

#include <DataClient/global.h>

// QDebug complete: QMetaType then finds operator<< below, and qDebug() << QVariant uses it.
#include <QtCore/QDebug>
#include <QtCore/QJsonArray>
#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QVariant>

#include <iterator>

namespace DataClient {

/*!
    The rows of a list result (`Denormalized::data` of a Collection): an implicitly shared list
    of QVariants, each row usually a Record.

    A list of up to ChunkedFrom rows is one QVariantList, and toList() gives that very list (no
    copy: `toList().constData()` identifies the result). A longer list the store keeps in chunks
    of ChunkRows rows, so that when one entity changes, the new list copies the chunk that
    holds its row and shares every other chunk with the list before: a one-row change of a
    1M-row list costs microseconds even while a model or the app still holds the previous list.
    toList() of a chunked list copies every row into one QVariantList (O(N)): read long lists
    with at() / value() / iteration, or `data.value<DataClient::RowList>()`.

    A QVariant holding a RowList converts to QVariantList (QVariant::toList(), qvariant_cast,
    value<QVariantList>()), so code written for plain lists keeps working; its typeId() is
    RowList's, not QMetaType::QVariantList: test for a list with `canConvert<QVariantList>()`
    or rowsOf(). It converts to QJsonArray and QJsonValue too (toJsonArray(),
    QVariant::toJsonArray(), `value<QJsonArray>()`; DataClient::toJsonValue() in tojson.h
    converts any value the store hands out). `qDebug() << rows` shows the rows.
*/
class DATACLIENT_SCHEMA_EXPORT RowList
{
public:
    //! Rows per chunk of a chunked list (a power of 2).
    static constexpr qsizetype ChunkRows = 1024;
    //! The store keeps a list of this many rows or more in chunks.
    static constexpr qsizetype ChunkedFrom = 65536;

    RowList() = default;
    //! The rows of \a rows, sharing it (one chunk; O(1)).
    RowList(const QVariantList &rows); // NOLINT(google-explicit-constructor): a list is rows
    //! The rows of \a chunks in order. Chunks of ChunkRows rows (the last one shorter) are
    //! shared as they are; any other split is re-cut into such chunks (a copy of the rows).
    static RowList fromChunks(QList<QVariantList> chunks);

    qsizetype size() const noexcept
    {
        const qsizetype n = m_chunks.size();
        return n <= 1 ? (n ? m_chunks.front().size() : 0)
                      : (n - 1) * ChunkRows + m_chunks.back().size();
    }
    qsizetype count() const noexcept { return size(); }
    bool isEmpty() const noexcept { return size() == 0; }
    //! Row \a i; 0 <= i < size() (checked in debug builds, as QList::at()).
    const QVariant &at(qsizetype i) const noexcept
    {
        Q_ASSERT_X(i >= 0 && i < size(), "RowList::at", "index out of range");
        return m_chunks.size() == 1 ? m_chunks.front().at(i)
                                    : m_chunks.at(i / ChunkRows).at(i % ChunkRows);
    }
    const QVariant &operator[](qsizetype i) const noexcept { return at(i); }
    //! Row \a i, or \a fallback when there is no such row.
    QVariant value(qsizetype i, const QVariant &fallback = {}) const;
    //! The rows as one QVariantList: the list itself when there is one chunk, else a copy.
    QVariantList toList() const;
    //! Rows \a pos to \a pos + \a length - 1 (to the end for -1), as QList::mid().
    QVariantList mid(qsizetype pos, qsizetype length = -1) const;
    //! The rows as JSON, each converted by DataClient::toJsonValue() (a Record an object).
    QJsonArray toJsonArray() const;
    //! Replaces row \a i. A chunk shared with another RowList is copied first (only that one).
    //! An edit outside the list is refused with a warning (dataclient.schema), nothing changed.
    void replace(qsizetype i, const QVariant &row);
    //! Structural edits (for a model following a list): a chunked list becomes one list first.
    //! Inserts \a row before row \a i (0 <= i <= size()).
    void insert(qsizetype i, const QVariant &row);
    //! Removes \a n rows from row \a i (all of them in the list).
    void remove(qsizetype i, qsizetype n = 1);

    //! True when both are copies of one list (what the store's memo preserves): nothing changed.
    bool isSharedWith(const RowList &other) const noexcept
    {
        return identity() == other.identity() && size() == other.size();
    }
    class const_iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = QVariant;
        using difference_type = qsizetype;
        using pointer = const QVariant *;
        using reference = const QVariant &;
        const_iterator() = default;
        const_iterator(const RowList *list, qsizetype i) : m_list(list), m_i(i) { }
        reference operator*() const { return m_list->at(m_i); }
        pointer operator->() const { return &m_list->at(m_i); }
        reference operator[](difference_type n) const { return m_list->at(m_i + n); }
        const_iterator &operator++()
        {
            ++m_i;
            return *this;
        }
        const_iterator operator++(int) { return {m_list, m_i++}; }
        const_iterator &operator--()
        {
            --m_i;
            return *this;
        }
        const_iterator operator--(int) { return {m_list, m_i--}; }
        const_iterator &operator+=(difference_type n)
        {
            m_i += n;
            return *this;
        }
        const_iterator &operator-=(difference_type n)
        {
            m_i -= n;
            return *this;
        }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const_iterator a, const_iterator b)
        {
            return a.m_i - b.m_i;
        }
        friend bool operator==(const_iterator a, const_iterator b) { return a.m_i == b.m_i; }
        friend bool operator!=(const_iterator a, const_iterator b) { return a.m_i != b.m_i; }
        friend bool operator<(const_iterator a, const_iterator b) { return a.m_i < b.m_i; }
        friend bool operator>(const_iterator a, const_iterator b) { return a.m_i > b.m_i; }
        friend bool operator<=(const_iterator a, const_iterator b) { return a.m_i <= b.m_i; }
        friend bool operator>=(const_iterator a, const_iterator b) { return a.m_i >= b.m_i; }

    private:
        const RowList *m_list = nullptr;
        qsizetype m_i = 0;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    //! Equal rows in the same order (however each list is chunked).
    friend DATACLIENT_SCHEMA_EXPORT bool operator==(const RowList &a, const RowList &b);
    friend bool operator!=(const RowList &a, const RowList &b) { return !(a == b); }
    void swap(RowList &other) noexcept { m_chunks.swap(other.m_chunks); }

private:
    friend struct RowListInternals; // how the store and the models tell lists apart (rowlist_p.h)
    //! How the rows are kept: 0 (empty), 1 (one list), or the number of chunks.
    qsizetype chunkCount() const noexcept { return m_chunks.size(); }

    //! This list's identity: the same for its copies (and, for one list, for copies of that
    //! QVariantList), another once a row is replaced or the list is edited.
    const void *identity() const noexcept
    {
        return m_chunks.size() == 1 ? static_cast<const void *>(m_chunks.front().constData())
                                    : m_chunks.constData();
    }
    void makeOneList();
    // Empty, one list of any length, or chunks of exactly ChunkRows rows but the last (1 to
    // ChunkRows rows): a row's place is then one division.
    QList<QVariantList> m_chunks;
};

//! The rows of \a value when it holds a list: a RowList (shared) or a QVariantList (wrapped, O(1)).
//! Sets \a isList to false (and returns an empty list) for anything else.
DATACLIENT_SCHEMA_EXPORT RowList rowsOf(const QVariant &value, bool *isList = nullptr);

//! Prints the rows JSON-like: `DataClient::RowList([{"id": 1, ...}, ...])` (as Record's).
DATACLIENT_SCHEMA_EXPORT QDebug operator<<(QDebug debug, const RowList &rows);

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::RowList)
Q_DECLARE_METATYPE(DataClient::RowList)
