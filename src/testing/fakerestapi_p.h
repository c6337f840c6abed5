// Internals of FakeRestApi: the stored collections, the mounted routes, and the functions that
// answer one request (fakerestapi_handlers.cpp) on top of list queries (fakerestapi_query.cpp).
#pragma once

#include <DataClient/testing/fakerestapi.h>

#include <QtCore/QHash>
#include <QtCore/QList>

namespace DataClient::Testing::detail {

//! The string form used to compare ids, path parameters and filter values.
QString jsonKeyString(const QJsonValue &value);
//! A path parameter as a stored field: an integer when it spells one, else the string.
QJsonValue jsonFromPathParam(const QString &value);
//! `{"error": message, "status": status}` with that status.
ServerResponse jsonError(int status, const QString &message);

struct StoredCollection
{
    QString idField;
    QList<QJsonObject> items;
    qint64 nextId = 1; //!< one more than the largest integer id ever stored

    qsizetype indexOf(const QString &id) const;
    //! Keeps nextId past \a id if it is an integer.
    void noteId(const QJsonValue &id);
};
using Store = QHash<QString, StoredCollection>;

struct MountedRoute
{
    QString pattern; //!< e.g. "/users/:userId/todos"
    QString collectionPath; //!< e.g. "/todos"
    FakeRestApi::Options options;
    QStringList parentParams; //!< the `:name` segments of pattern, e.g. {"userId"}
    QString idParam; //!< the `:name` of the item segment, not clashing with parentParams
};

enum class Operation { List, Create, Get, Replace, Merge, Delete, NotAllowed };

inline bool isMutating(Operation operation)
{
    return operation == Operation::Create || operation == Operation::Replace
        || operation == Operation::Merge || operation == Operation::Delete;
}

//! Answers \a request for \a route, reading and changing \a store. \a fallbackBaseUrl is used
//! for Link headers when the request carries no Host header.
ServerResponse handleOperation(Operation operation, Store &store, const MountedRoute &route,
                               const RecordedRequest &request, const QString &fallbackBaseUrl);

// --- list queries (fakerestapi_query.cpp) ---

//! True when \a item belongs to the route's nested parent (its `:name` segments).
bool matchesParent(const QJsonObject &item, const MountedRoute &route,
                   const RecordedRequest &request);
//! Items of the route matching the parent and the query filters.
QList<QJsonObject> filteredItems(const StoredCollection &collection, const MountedRoute &route,
                                 const RecordedRequest &request);
//! \a item with every Options::expand field embedded from \a store.
QJsonObject expanded(const QJsonObject &item, const Store &store, const MountedRoute &route);
//! Removes embedded fields from a request body, keeping (or deriving) their foreign keys.
QJsonObject withoutExpansions(QJsonObject body, const Store &store, const MountedRoute &route);
//! The GET list answer: filtering, pagination (page or cursor with Link), expansion.
ServerResponse listResponse(const StoredCollection &collection, const Store &store,
                            const MountedRoute &route, const RecordedRequest &request,
                            const QString &fallbackBaseUrl);

} // namespace DataClient::Testing::detail
