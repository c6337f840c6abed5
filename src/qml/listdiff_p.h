// The list diff behind every DataClient list model: turns an old and a new list of row keys into
// the smallest sequence of remove / move / insert steps, so models emit rowsRemoved, rowsMoved and
// rowsInserted for what really changed and never a reset (the idea of KDToolBox's UpdateableModel).
#pragma once

#include <DataClient/private/testexport_p.h>

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace DataClient::Qml {

//! One structural step. Steps apply in order, each to the list as the previous steps left it.
struct ListDiffStep
{
    enum Kind {
        Remove, //!< rows first..last disappear
        //! rows first..last move before row `destination` (QAbstractItemModel::beginMoveRows)
        Move,
        Insert, //!< new rows first..last appear; they are rows first..last of the new list
    };
    Kind kind = Remove;
    int first = 0;
    int last = 0;
    int destination = 0;

    friend bool operator==(const ListDiffStep &a, const ListDiffStep &b)
    {
        return a.kind == b.kind && a.first == b.first && a.last == b.last
            && a.destination == b.destination;
    }
};

/*!
    Steps that turn \a oldKeys into \a newKeys. Keys must be unique within each list (see
    uniqueRowKeys()). Order of the steps: every Remove (from the end, contiguous rows merged), then
    Moves (rows outside a longest increasing subsequence of the survivors; rows that move together
    move as one block), then Inserts in ascending new position (contiguous rows merged). After the
    steps, row i holds newKeys[i]; rows present in both lists keep their identity, so a model
    compares their values afterwards and emits dataChanged only for those that differ.
*/
DATACLIENT_TEST_EXPORT QList<ListDiffStep> diffListKeys(const QStringList &oldKeys,
                                                        const QStringList &newKeys);

//! Applies \a steps to \a keys, taking inserted keys from \a newKeys (used by tests and asserts).
DATACLIENT_TEST_EXPORT QStringList applyListDiff(QStringList keys, const QList<ListDiffStep> &steps,
                                                 const QStringList &newKeys);

//! Makes keys unique by suffixing repeated ones with "\x1f<n>" (a list may hold an entity twice).
DATACLIENT_TEST_EXPORT void uniqueRowKeys(QStringList &keys);

} // namespace DataClient::Qml
