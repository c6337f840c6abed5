// Headers: HTTP header pairs in order, as RequestInit, RequestContext and Response carry them.
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPair>

namespace DataClient {

//! Request headers in order, names as given (case-insensitive where they are looked up).
using Headers = QList<QPair<QByteArray, QByteArray>>;

} // namespace DataClient
