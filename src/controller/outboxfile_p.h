// The outbox file: the waiting mutations as one small JSON document, written whole
// with VerifiedWrite (a crash or a full disk leaves the previous file, never half of a new one),
// owner-only (0600).
//
//   { "format": "DataClient outbox", "version": 1,
//     "items": [ { "endpoint": "PATCH /todos/:id partialUpdate", "method": "PATCH",
//                  "url": "http://host/todos/3", "params": { "id": 3 },
//                  "body": { "title": "x" },             (absent: no body)
//                  "since": 1764056400000, "idempotencyKey": "9f0c...",
//                  "placeholder": "\u0001new:1",         (a create shown under that key)
//                  "waitingFor": ["\u0001new:1"] } ] }    (a write held for that row)
//
// Items with "waitingFor" are writes held until those rows are created (not queue items); both
// optional fields came after version 1's first files, which simply have neither.
//
// Anything else (not JSON, another format or version, a field of the wrong type) is refused
// whole with a reason; the Controller then starts with an empty outbox.
#pragma once

#include <DataClient/private/testexport_p.h>
#include "outboxqueue_p.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QString>

#include <optional>

namespace DataClient::detail {

struct DATACLIENT_TEST_EXPORT OutboxFile
{
    static constexpr int Version = 1;

    static QByteArray encode(const QList<OutboxItem> &items);
    //! The items of \a bytes, or nullopt with \a why saying what is wrong and where.
    static std::optional<QList<OutboxItem>> decode(const QByteArray &bytes, QString *why);

    //! The file's bytes; empty (and no error) when it does not exist; nullopt with \a why when
    //! it cannot be read.
    static std::optional<QByteArray> read(const QString &path, QString *why);
    //! Replaces the file with \a bytes atomically, readable and writable by the owner only (a
    //! symbolic link at \a path is replaced, never followed). False with \a why (what failed,
    //! where, the system's reason) when it cannot: the previous file is then left as it was.
    static bool write(const QString &path, const QByteArray &bytes, QString *why);
};

} // namespace DataClient::detail
