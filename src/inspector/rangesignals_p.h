// The smallest model signals for the inspector's models: a sorted list brought to another one
// row by row, and changed rows reported as contiguous runs.
#pragma once

#include <QtCore/QList>
#include <QtCore/QStringList>

#include <algorithm>

namespace DataClient::detail {

/*!
    Brings \a shown (sorted) to \a wanted (sorted): calls \a remove(row) for each element of
    \a shown that \a wanted lacks and \a insert(row, element) for each one it adds, at the row
    the element takes at that moment. The callbacks change the model (and \a shown's copy is
    not used after).
*/
template<typename Remove, typename Insert>
void syncSortedRows(const QStringList &shown, const QStringList &wanted, Remove remove,
                    Insert insert)
{
    int row = 0; // in the model as it is being changed
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < shown.size() || j < wanted.size()) {
        if (j >= wanted.size() || (i < shown.size() && shown.at(i) < wanted.at(j))) {
            remove(row);
            ++i;
        } else if (i >= shown.size() || wanted.at(j) < shown.at(i)) {
            insert(row, wanted.at(j));
            ++row;
            ++j;
        } else {
            ++row;
            ++i;
            ++j;
        }
    }
}

//! Calls \a emitRun(first, last) for each run of consecutive rows in \a rows (any order).
template<typename EmitRun> void emitRuns(QList<int> rows, EmitRun emitRun)
{
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (qsizetype i = 0; i < rows.size();) {
        qsizetype last = i;
        while (last + 1 < rows.size() && rows.at(last + 1) == rows.at(last) + 1)
            ++last;
        emitRun(rows.at(i), rows.at(last));
        i = last + 1;
    }
}

} // namespace DataClient::detail
