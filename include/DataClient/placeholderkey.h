// Placeholder keys: the primary key a row created optimistically shows under until the server
// answers its create (docs/optimistic-updates.md).
#pragma once

#include <QtCore/QString>
#include <QtCore/QStringView>

namespace DataClient {

/*!
    Whether \a pk is a placeholder key: the primary key the library gives a new row whose create
    (getList.push, unshift) has no primary key in its body, until the server answers with the
    real one. Placeholder keys start with U+0001, which the store refuses in any primary key a
    server sends, so they can never collide with one. They are never sent: a write that names
    one waits until the create is confirmed and is then sent with the server's key; a read of
    one is answered from the store.
*/
inline bool isPlaceholderKey(QStringView pk)
{
    return !pk.isEmpty() && pk.front() == QChar(u'\u0001');
}

//! The placeholder key number \a n ("\u0001new:<n>", short enough to be stored inline).
inline QString placeholderKey(quint64 n)
{
    return QStringLiteral("\u0001new:") + QString::number(n);
}

} // namespace DataClient
