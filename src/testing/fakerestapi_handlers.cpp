// FakeRestApi verbs: get, create, replace, merge and delete one item of a mounted route, with
// JSON errors that say what was wrong, where, and what was expected.
#include "fakerestapi_p.h"

#include <QtCore/QJsonDocument>

#include <optional>

using namespace Qt::StringLiterals;

namespace DataClient::Testing::detail {

qsizetype StoredCollection::indexOf(const QString &id) const
{
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (jsonKeyString(items.at(i).value(idField)) == id)
            return i;
    }
    return -1;
}

void StoredCollection::noteId(const QJsonValue &id)
{
    const QJsonValue asNumber = id.isString() ? jsonFromPathParam(id.toString()) : id;
    if (asNumber.isDouble() && jsonKeyString(asNumber) == jsonKeyString(id))
        nextId = std::max(nextId, qint64(asNumber.toDouble()) + 1);
}

namespace {

QString describe(const RecordedRequest &request)
{
    return QString::fromLatin1(request.method) + u' ' + request.path;
}

QString jsonTypeName(const QJsonDocument &document)
{
    if (document.isArray())
        return u"an array"_s;
    return u"a scalar"_s;
}

// The body as a JSON object, or the 400 answer explaining why it is not one.
std::optional<ServerResponse> parseObjectBody(const RecordedRequest &request, QJsonObject *body)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &error);
    if (error.error != QJsonParseError::NoError) {
        // QJsonDocument rejects top-level scalars; say "a scalar" rather than "invalid JSON".
        const QJsonValue scalar = request.json();
        const QString got = request.body.trimmed().isEmpty() ? u"an empty body"_s
            : !scalar.isUndefined()
            ? u"a scalar"_s
            : u"invalid JSON (%1 at offset %2)"_s.arg(error.errorString()).arg(error.offset);
        return jsonError(
            400,
            u"FakeRestApi: %1 expects a JSON object body, got %2"_s.arg(describe(request), got));
    }
    if (!document.isObject()) {
        return jsonError(400,
                         u"FakeRestApi: %1 expects a JSON object body, got %2"_s.arg(
                             describe(request), jsonTypeName(document)));
    }
    *body = document.object();
    return std::nullopt;
}

ServerResponse notFound(const RecordedRequest &request, const MountedRoute &route,
                        const QString &id)
{
    return jsonError(404,
                     u"FakeRestApi: %1: no item with %2 '%3' in %4"_s.arg(
                         describe(request), route.options.idField, id, route.collectionPath));
}

// Sets the nested parent fields (e.g. userId from /users/3/todos) that the body leaves out.
void insertParentFields(QJsonObject &object, const MountedRoute &route,
                        const RecordedRequest &request, bool overwrite)
{
    for (const QString &param : route.parentParams) {
        if (overwrite || !object.contains(param))
            object.insert(param, jsonFromPathParam(request.pathParams.value(param)));
    }
}

ServerResponse create(StoredCollection &collection, const Store &store, const MountedRoute &route,
                      const RecordedRequest &request)
{
    QJsonObject body;
    if (auto error = parseObjectBody(request, &body))
        return *error;
    QJsonObject created = withoutExpansions(body, store, route);
    insertParentFields(created, route, request, true);
    const QJsonValue sentId = created.value(collection.idField);
    if (route.options.keepClientIds && !sentId.isUndefined() && !sentId.isNull()) {
        // Like json-server: the client's id is the item's id.
        const QString id = jsonKeyString(sentId);
        if (collection.indexOf(id) >= 0) {
            return jsonError(409,
                             u"FakeRestApi: %1: an item with %2 '%3' already exists in %4"_s.arg(
                                 describe(request), collection.idField, id, route.collectionPath));
        }
        collection.noteId(sentId);
    } else {
        created.insert(collection.idField, double(collection.nextId++));
    }
    collection.items.append(created);
    return ServerResponse::json(expanded(created, store, route), 201);
}

// PUT (replace) and PATCH (merge) share lookup and validation.
ServerResponse update(StoredCollection &collection, const Store &store, const MountedRoute &route,
                      const RecordedRequest &request, bool merge)
{
    const QString id = request.pathParams.value(route.idParam);
    const qsizetype index = collection.indexOf(id);
    if (index < 0 || !matchesParent(collection.items.at(index), route, request))
        return notFound(request, route, id);
    QJsonObject body;
    if (auto error = parseObjectBody(request, &body))
        return *error;
    const QJsonValue bodyId = body.value(collection.idField);
    if (!bodyId.isUndefined() && jsonKeyString(bodyId) != id) {
        return jsonError(400,
                         u"FakeRestApi: %1: the body's %2 '%3' differs from the URL's '%4'; "
                         "ids cannot change"_s.arg(describe(request), collection.idField,
                                                   jsonKeyString(bodyId), id));
    }
    body = withoutExpansions(body, store, route);
    const QJsonObject &old = collection.items.at(index);
    QJsonObject updated = merge ? old : body;
    if (merge) {
        for (auto field = body.constBegin(); field != body.constEnd(); ++field)
            updated.insert(field.key(), field.value());
    }
    updated.insert(collection.idField, old.value(collection.idField)); // keep its type
    insertParentFields(updated, route, request, false);
    collection.items[index] = updated;
    return ServerResponse::json(expanded(updated, store, route));
}

ServerResponse remove(StoredCollection &collection, const MountedRoute &route,
                      const RecordedRequest &request)
{
    const QString id = request.pathParams.value(route.idParam);
    const qsizetype index = collection.indexOf(id);
    if (index < 0 || !matchesParent(collection.items.at(index), route, request))
        return notFound(request, route, id);
    const QJsonValue storedId = collection.items.at(index).value(collection.idField);
    collection.items.removeAt(index);
    if (route.options.deleteResponse == FakeRestApi::DeleteResponse::IdObject)
        return ServerResponse::json(QJsonObject {{collection.idField, storedId}});
    return ServerResponse::noContent();
}

} // namespace

ServerResponse handleOperation(Operation operation, Store &store, const MountedRoute &route,
                               const RecordedRequest &request, const QString &fallbackBaseUrl)
{
    auto found = store.find(route.collectionPath);
    if (found == store.end()) {
        return jsonError(500,
                         u"FakeRestApi: %1: collection %2 no longer exists"_s.arg(
                             describe(request), route.collectionPath));
    }
    StoredCollection &collection = *found;
    switch (operation) {
    case Operation::List:
        return listResponse(collection, store, route, request, fallbackBaseUrl);
    case Operation::Get: {
        const QString id = request.pathParams.value(route.idParam);
        const qsizetype index = collection.indexOf(id);
        if (index < 0 || !matchesParent(collection.items.at(index), route, request))
            return notFound(request, route, id);
        return ServerResponse::json(expanded(collection.items.at(index), store, route));
    }
    case Operation::Create:
        return create(collection, store, route, request);
    case Operation::Replace:
        return update(collection, store, route, request, false);
    case Operation::Merge:
        return update(collection, store, route, request, true);
    case Operation::Delete:
        return remove(collection, route, request);
    case Operation::NotAllowed:
        break;
    }
    const bool isItem = request.pathParams.contains(route.idParam);
    const QByteArray allowed = isItem ? "GET, PUT, PATCH, DELETE" : "GET, POST";
    return jsonError(405,
                     u"FakeRestApi: %1 is not served; %2 accepts %3"_s.arg(
                         describe(request),
                         isItem ? route.pattern + u"/:"_s + route.idParam : route.pattern,
                         QString::fromLatin1(allowed)))
        .withHeader("Allow", allowed);
}

} // namespace DataClient::Testing::detail
