// FakeRestApi list queries: string forms of JSON values, nested-parent and query filters,
// embedded entities, and the two pagination modes (page number, cursor + Link header).
#include "fakerestapi_p.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QSet>
#include <QtCore/QUrl>
#include <QtCore/QUrlQuery>

#include <cmath>

using namespace Qt::StringLiterals;

namespace DataClient::Testing::detail {

QString jsonKeyString(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double: {
        const double number = value.toDouble();
        // Integral values print without a fraction so that 5 and "5" compare equal.
        if (std::trunc(number) == number && std::abs(number) < 9007199254740992.0)
            return QString::number(qint64(number));
        return QString::number(number, 'g', 17);
    }
    case QJsonValue::Bool:
        return value.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

QJsonValue jsonFromPathParam(const QString &value)
{
    bool isInteger = false;
    const qint64 number = value.toLongLong(&isInteger);
    if (isInteger && std::abs(number) < 9007199254740992LL && QString::number(number) == value)
        return double(number);
    return value;
}

ServerResponse jsonError(int status, const QString &message)
{
    return ServerResponse::json(QJsonObject {{u"error"_s, message}, {u"status"_s, status}}, status);
}

bool matchesParent(const QJsonObject &item, const MountedRoute &route,
                   const RecordedRequest &request)
{
    for (const QString &param : route.parentParams) {
        if (jsonKeyString(item.value(param)) != request.pathParams.value(param))
            return false;
    }
    return true;
}

QList<QJsonObject> filteredItems(const StoredCollection &collection, const MountedRoute &route,
                                 const RecordedRequest &request)
{
    const FakeRestApi::Options &options = route.options;
    QSet<QString> skipped(options.ignoredQueryKeys.cbegin(), options.ignoredQueryKeys.cend());
    if (options.pagination == FakeRestApi::Pagination::PageNumber)
        skipped.insert(options.pageField);
    if (options.pagination == FakeRestApi::Pagination::Cursor)
        skipped.insert(options.cursorField);

    // A key filters only if it names a field, so that `orderBy=...` does not empty the list.
    QHash<QString, QStringList> filters;
    const auto queryItems = request.query.queryItems(QUrl::FullyDecoded);
    for (const auto &queryItem : queryItems) {
        // (no structured binding: clang 14 cannot capture one in the lambda)
        const QString &key = queryItem.first;
        if (skipped.contains(key))
            continue;
        const bool isField
            = std::any_of(collection.items.cbegin(), collection.items.cend(),
                          [&key](const QJsonObject &item) { return item.contains(key); });
        if (isField)
            filters[key].append(queryItem.second);
    }

    QList<QJsonObject> result;
    for (const QJsonObject &item : collection.items) {
        if (!matchesParent(item, route, request))
            continue;
        bool matches = true;
        for (auto filter = filters.cbegin(); matches && filter != filters.cend(); ++filter)
            matches = filter.value().contains(jsonKeyString(item.value(filter.key())));
        if (matches)
            result.append(item);
    }
    return result;
}

QJsonObject expanded(const QJsonObject &item, const Store &store, const MountedRoute &route)
{
    QJsonObject result = item;
    for (const FakeRestApi::Expansion &expansion : route.options.expand) {
        const auto related = store.constFind(expansion.collectionPath);
        QJsonValue embedded = QJsonValue::Null;
        if (related != store.cend()) {
            const qsizetype index
                = related->indexOf(jsonKeyString(item.value(expansion.foreignKey)));
            if (index >= 0)
                embedded = related->items.at(index);
        }
        result.insert(expansion.field, embedded);
    }
    return result;
}

QJsonObject withoutExpansions(QJsonObject body, const Store &store, const MountedRoute &route)
{
    for (const FakeRestApi::Expansion &expansion : route.options.expand) {
        const QJsonValue embedded = body.value(expansion.field);
        if (embedded.isUndefined())
            continue;
        // A client echoing a whole entity back sends the embedded object; keep only its key.
        const auto related = store.constFind(expansion.collectionPath);
        if (!body.contains(expansion.foreignKey) && embedded.isObject() && related != store.cend()
            && embedded.toObject().contains(related->idField)) {
            body.insert(expansion.foreignKey, embedded.toObject().value(related->idField));
        }
        body.remove(expansion.field);
    }
    return body;
}

namespace {

// A non-negative integer query value; -1 when it is not one.
qint64 parseCount(const QString &text)
{
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    return ok && value >= 0 ? value : -1;
}

QJsonArray expandedPage(const QList<QJsonObject> &items, qsizetype start, qsizetype count,
                        const Store &store, const MountedRoute &route)
{
    QJsonArray page;
    for (qsizetype i = start; i < items.size() && i < start + count; ++i)
        page.append(expanded(items.at(i), store, route));
    return page;
}

QByteArray nextLink(const RecordedRequest &request, const MountedRoute &route, qsizetype cursor,
                    const QString &fallbackBaseUrl)
{
    const QByteArray host = request.header("host");
    QUrl url(host.isEmpty() ? fallbackBaseUrl : u"http://"_s + QString::fromLatin1(host));
    url.setPath(request.path);
    QUrlQuery query = request.query;
    query.removeAllQueryItems(route.options.cursorField);
    query.addQueryItem(route.options.cursorField, QString::number(cursor));
    url.setQuery(query);
    return '<' + url.toEncoded() + ">; rel=\"next\"";
}

} // namespace

ServerResponse listResponse(const StoredCollection &collection, const Store &store,
                            const MountedRoute &route, const RecordedRequest &request,
                            const QString &fallbackBaseUrl)
{
    const FakeRestApi::Options &options = route.options;
    const QList<QJsonObject> items = filteredItems(collection, route, request);
    const QByteArray total = QByteArray::number(items.size());
    const qsizetype pageSize = std::max(1, options.pageSize);

    if (options.pagination == FakeRestApi::Pagination::PageNumber
        && request.query.hasQueryItem(options.pageField)) {
        const QString text = request.query.queryItemValue(options.pageField, QUrl::FullyDecoded);
        const qint64 page = parseCount(text);
        if (page < 1) {
            return jsonError(400,
                             u"FakeRestApi: GET %1 expects '%2' to be a page number (1, 2, ...), "
                             "got '%3'"_s.arg(request.path, options.pageField, text));
        }
        const qsizetype start = std::min<qint64>((page - 1) * pageSize, items.size());
        return ServerResponse::json(expandedPage(items, start, pageSize, store, route))
            .withHeader("X-Total-Count", total);
    }

    if (options.pagination == FakeRestApi::Pagination::Cursor) {
        qint64 cursor = 0;
        if (request.query.hasQueryItem(options.cursorField)) {
            const QString text
                = request.query.queryItemValue(options.cursorField, QUrl::FullyDecoded);
            cursor = parseCount(text);
            if (cursor < 0) {
                return jsonError(
                    400,
                    u"FakeRestApi: GET %1 expects '%2' to be a cursor from a Link "
                    "header (0, 20, ...), got '%3'"_s.arg(request.path, options.cursorField, text));
            }
        }
        const qsizetype start = std::min<qint64>(cursor, items.size());
        ServerResponse response
            = ServerResponse::json(expandedPage(items, start, pageSize, store, route));
        response.withHeader("X-Total-Count", total);
        if (start + pageSize < items.size())
            response.withHeader("Link",
                                nextLink(request, route, start + pageSize, fallbackBaseUrl));
        return response;
    }

    return ServerResponse::json(expandedPage(items, 0, items.size(), store, route))
        .withHeader("X-Total-Count", total);
}

} // namespace DataClient::Testing::detail
