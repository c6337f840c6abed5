// FakeRestApi: collections and routes, direct access for tests, fault injection. The HTTP verbs
// live in fakerestapi_handlers.cpp, list queries in fakerestapi_query.cpp.
#include <DataClient/testing/fakerestapi.h>

#include "fakerestapi_p.h"
#include "logging_p.h"
#include "mulberry32_p.h"

#include <QtCore/QPointer>
#include <QtCore/QSet>

#include <cmath>

using namespace Qt::StringLiterals;

namespace DataClient::Testing {

using detail::MountedRoute;
using detail::Operation;
using detail::StoredCollection;

namespace {

QStringList segmentsOf(const QString &path)
{
    return path.split(u'/', Qt::SkipEmptyParts);
}

// "/users/:userId/todos/" -> "/users/:userId/todos"
QString normalizedPath(const QString &path)
{
    return u'/' + segmentsOf(path).join(u'/');
}

// Two patterns differing only in parameter names serve the same requests.
QString routeShape(const QString &pattern)
{
    QStringList segments = segmentsOf(pattern);
    for (QString &segment : segments) {
        if (segment.startsWith(u':'))
            segment = u":"_s;
    }
    return u'/' + segments.join(u'/');
}

// Empty if \a pattern is usable as a route, else what is wrong with it.
QString patternProblem(const QString &pattern)
{
    if (!pattern.startsWith(u'/'))
        return u"the path must start with '/'"_s;
    QSet<QString> names;
    for (const QString &segment : segmentsOf(pattern)) {
        if (segment.contains(u'*') || segment.contains(u'?'))
            return u"'*' and '?' are not supported in paths"_s;
        if (segment == u":"_s)
            return u"a ':' segment needs a parameter name"_s;
        if (segment.startsWith(u':') && names.contains(segment))
            return u"parameter %1 appears twice"_s.arg(segment);
        names.insert(segment);
    }
    return {};
}

QString optionsProblem(const FakeRestApi::Options &options)
{
    if (options.idField.isEmpty())
        return u"options.idField is empty"_s;
    if (options.pageSize < 1)
        return u"options.pageSize must be at least 1, got %1"_s.arg(options.pageSize);
    if (options.pagination == FakeRestApi::Pagination::PageNumber && options.pageField.isEmpty())
        return u"options.pageField is empty"_s;
    if (options.pagination == FakeRestApi::Pagination::Cursor && options.cursorField.isEmpty())
        return u"options.cursorField is empty"_s;
    for (const FakeRestApi::Expansion &expansion : options.expand) {
        if (expansion.field.isEmpty() || expansion.collectionPath.isEmpty()
            || expansion.foreignKey.isEmpty()) {
            return u"an expansion needs field, collectionPath and foreignKey"_s;
        }
    }
    return {};
}

// Empty if \a items can be stored with \a idField, else what is wrong (and where).
QString itemsProblem(const QJsonArray &items, const QString &idField)
{
    QSet<QString> ids;
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (!items.at(i).isObject())
            return u"item [%1] is not a JSON object"_s.arg(i);
        const QJsonValue id = items.at(i).toObject().value(idField);
        if (id.isUndefined() || id.isNull())
            return u"item [%1] has no '%2' field"_s.arg(i).arg(idField);
        const QString key = detail::jsonKeyString(id);
        if (ids.contains(key))
            return u"item [%1] repeats %2 '%3'"_s.arg(i).arg(idField, key);
        ids.insert(key);
    }
    return {};
}

void warn(const char *function, const QString &path, const QString &problem)
{
    qCWarning(lcTesting).noquote().nospace()
        << "FakeRestApi::" << function << "(" << path << "): " << problem;
}

} // namespace

struct FakeRestApi::Private
{
    FakeRestApi *q = nullptr;
    QPointer<TestServer> server;
    detail::Store store;
    QList<MountedRoute> routes; // indices are captured by the server's route handlers
    QSet<QString> routeShapes;
    int latencyMs = 0;
    double failureRate = 0;
    detail::Mulberry32 failureRandom;
    int failNextCount = 0;
    int failNextStatus = 500;

    // True if the list or item routes of \a pattern would collide with served ones.
    bool isTaken(const QString &pattern) const
    {
        return routeShapes.contains(routeShape(pattern))
            || routeShapes.contains(routeShape(pattern + u"/:"_s));
    }
    StoredCollection *find(const QString &path)
    {
        auto found = store.find(normalizedPath(path));
        return found == store.end() ? nullptr : &*found;
    }
    void addRoutes(const QString &pattern, const QString &collectionPath, const Options &options);
    ServerResponse serve(Operation operation, qsizetype routeIndex, const RecordedRequest &request);
};

FakeRestApi::FakeRestApi(TestServer *server, QObject *parent)
    : QObject(parent), d(std::make_unique<Private>())
{
    d->q = this;
    d->server = server;
    if (!server)
        qCWarning(lcTesting) << "FakeRestApi: constructed without a TestServer; it serves nothing";
}

FakeRestApi::~FakeRestApi() = default;

TestServer *FakeRestApi::server() const
{
    return d->server;
}

void FakeRestApi::Private::addRoutes(const QString &pattern, const QString &collectionPath,
                                     const Options &options)
{
    MountedRoute route {pattern, collectionPath, options, {}, {}};
    route.options.idField = store.value(collectionPath).idField;
    for (Expansion &expansion : route.options.expand)
        expansion.collectionPath = normalizedPath(expansion.collectionPath);
    for (const QString &segment : segmentsOf(pattern)) {
        if (segment.startsWith(u':'))
            route.parentParams.append(segment.mid(1));
    }
    route.idParam = route.options.idField;
    while (route.parentParams.contains(route.idParam))
        route.idParam.prepend(u'_');
    const qsizetype index = routes.size();
    const QString itemPattern = (pattern == u"/"_s ? QString() : pattern) + u"/:"_s + route.idParam;
    routes.append(route);
    routeShapes.insert(routeShape(pattern));
    routeShapes.insert(routeShape(itemPattern));
    if (!server)
        return;

    auto add = [this, index](const QByteArray &method, const QString &path, Operation operation) {
        server->route(
            method, path,
            [api = QPointer<FakeRestApi>(q), index, operation](const RecordedRequest &request) {
                if (!api) {
                    return detail::jsonError(
                        503, u"FakeRestApi: the api serving %1 was destroyed"_s.arg(request.path));
                }
                return api->d->serve(operation, index, request);
            });
    };
    // Registered first so that the specific routes below take precedence.
    add("*", pattern, Operation::NotAllowed);
    add("*", itemPattern, Operation::NotAllowed);
    add("GET", pattern, Operation::List);
    add("POST", pattern, Operation::Create);
    add("GET", itemPattern, Operation::Get);
    add("PUT", itemPattern, Operation::Replace);
    add("PATCH", itemPattern, Operation::Merge);
    add("DELETE", itemPattern, Operation::Delete);
}

ServerResponse FakeRestApi::Private::serve(Operation operation, qsizetype routeIndex,
                                           const RecordedRequest &request)
{
    const QString collectionPath = routes.at(routeIndex).collectionPath;
    const QString where = QString::fromLatin1(request.method) + u' ' + request.path;
    ServerResponse response;
    if (failNextCount > 0) {
        --failNextCount;
        response = detail::jsonError(failNextStatus,
                                     u"FakeRestApi: %1: injected failure (failNext)"_s.arg(where));
    } else if (detail::isMutating(operation) && failureRate > 0
               && failureRandom.nextDouble() < failureRate) {
        response = detail::jsonError(500,
                                     u"FakeRestApi: %1: injected failure (failure rate %2)"_s.arg(
                                         where, QString::number(failureRate)));
    } else {
        response = detail::handleOperation(operation, store, routes.at(routeIndex), request,
                                           server ? server->url() : QString());
    }
    if (latencyMs > 0)
        response.withDelay(latencyMs);
    // Slots may call back into the api (even add routes), so nothing below uses references.
    Q_EMIT q->requestServed(request.method, request.path, response.status);
    if (detail::isMutating(operation) && response.status < 300)
        Q_EMIT q->collectionChanged(collectionPath);
    return response;
}

bool FakeRestApi::addCollection(const QString &path, const QJsonArray &seed, const Options &options)
{
    QString problem = patternProblem(path);
    if (problem.isEmpty() && d->isTaken(path))
        problem = u"that path is already served"_s;
    if (problem.isEmpty())
        problem = optionsProblem(options);
    if (problem.isEmpty())
        problem = itemsProblem(seed, options.idField);
    if (!problem.isEmpty()) {
        warn("addCollection", path, problem);
        return false;
    }
    const QString key = normalizedPath(path);
    StoredCollection collection;
    collection.idField = options.idField;
    for (const QJsonValue &value : seed) {
        collection.items.append(value.toObject());
        collection.noteId(value.toObject().value(options.idField));
    }
    d->store.insert(key, collection);
    d->addRoutes(key, key, options);
    return true;
}

bool FakeRestApi::mount(const QString &pathPattern, const QString &collectionPath,
                        const Options &options)
{
    QString problem = patternProblem(pathPattern);
    if (problem.isEmpty() && d->isTaken(pathPattern))
        problem = u"that path is already served"_s;
    if (problem.isEmpty() && !d->find(collectionPath))
        problem = u"there is no collection %1 (addCollection it first)"_s.arg(collectionPath);
    if (problem.isEmpty())
        problem = optionsProblem(options);
    if (!problem.isEmpty()) {
        warn("mount", pathPattern, problem);
        return false;
    }
    d->addRoutes(normalizedPath(pathPattern), normalizedPath(collectionPath), options);
    return true;
}

bool FakeRestApi::hasCollection(const QString &path) const
{
    return d->find(path) != nullptr;
}

QJsonArray FakeRestApi::collection(const QString &path) const
{
    QJsonArray items;
    if (const StoredCollection *collection = d->find(path)) {
        for (const QJsonObject &item : collection->items)
            items.append(item);
    }
    return items;
}

bool FakeRestApi::setCollection(const QString &path, const QJsonArray &items)
{
    StoredCollection *collection = d->find(path);
    const QString problem
        = collection ? itemsProblem(items, collection->idField) : u"there is no such collection"_s;
    if (!problem.isEmpty()) {
        warn("setCollection", path, problem);
        return false;
    }
    collection->items.clear();
    for (const QJsonValue &value : items) {
        collection->items.append(value.toObject());
        collection->noteId(value.toObject().value(collection->idField));
    }
    Q_EMIT collectionChanged(normalizedPath(path));
    return true;
}

QJsonObject FakeRestApi::item(const QString &path, const QJsonValue &id) const
{
    const StoredCollection *collection = d->find(path);
    const qsizetype index = collection ? collection->indexOf(detail::jsonKeyString(id)) : -1;
    return index < 0 ? QJsonObject() : collection->items.at(index);
}

bool FakeRestApi::setItem(const QString &path, const QJsonObject &item)
{
    StoredCollection *collection = d->find(path);
    if (!collection) {
        warn("setItem", path, u"there is no such collection"_s);
        return false;
    }
    const QJsonValue id = item.value(collection->idField);
    if (id.isUndefined() || id.isNull()) {
        warn("setItem", path, u"the item has no '%1' field"_s.arg(collection->idField));
        return false;
    }
    const qsizetype index = collection->indexOf(detail::jsonKeyString(id));
    if (index < 0)
        collection->items.append(item);
    else
        collection->items[index] = item;
    collection->noteId(id);
    Q_EMIT collectionChanged(normalizedPath(path));
    return true;
}

bool FakeRestApi::removeItem(const QString &path, const QJsonValue &id)
{
    StoredCollection *collection = d->find(path);
    const qsizetype index = collection ? collection->indexOf(detail::jsonKeyString(id)) : -1;
    if (index < 0)
        return false;
    collection->items.removeAt(index);
    Q_EMIT collectionChanged(normalizedPath(path));
    return true;
}

void FakeRestApi::setLatency(int ms)
{
    if (ms < 0) {
        qCWarning(lcTesting) << "FakeRestApi::setLatency: expected milliseconds >= 0, got" << ms
                             << "; keeping" << d->latencyMs;
        return;
    }
    d->latencyMs = ms;
}

int FakeRestApi::latency() const
{
    return d->latencyMs;
}

void FakeRestApi::setFailureRate(double probability, quint32 seed)
{
    if (!(probability >= 0 && probability <= 1)) { // also rejects NaN
        qCWarning(lcTesting) << "FakeRestApi::setFailureRate: expected a probability in [0, 1], got"
                             << probability << "; keeping" << d->failureRate;
        return;
    }
    d->failureRate = probability;
    d->failureRandom = detail::Mulberry32(seed);
}

double FakeRestApi::failureRate() const
{
    return d->failureRate;
}

void FakeRestApi::failNext(int count, int status)
{
    if (count < 0 || status < 400 || status > 599) {
        qCWarning(lcTesting) << "FakeRestApi::failNext: expected count >= 0 and an error status "
                                "(400..599), got"
                             << count << status << "; ignored";
        return;
    }
    d->failNextCount = count;
    d->failNextStatus = status;
}

int FakeRestApi::pendingFailures() const
{
    return d->failNextCount;
}

} // namespace DataClient::Testing
