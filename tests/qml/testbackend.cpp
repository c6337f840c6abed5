#include "testbackend.h"

#include <DataClient/testing/sampledata.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {
constexpr int pageSize = 5;
const QString todosPath = u"/todos"_s;
const QString productsPath = u"/products"_s;

// Records with a decimal, a comma list, a date and a nested owner (tst_entity.qml).
QJsonArray products()
{
    const QJsonObject ada {{u"id"_s, 7}, {u"name"_s, u"Ada"_s}};
    return {
        QJsonObject {{u"id"_s, 1},
                     {u"name"_s, u"Pen"_s},
                     {u"price"_s, u"1.10"_s},
                     {u"tags"_s, u"blue,office"_s},
                     {u"createdAt"_s, u"2023-05-15T15:36:43.144Z"_s},
                     {u"owner"_s, ada}},
        QJsonObject {{u"id"_s, 2},
                     {u"name"_s, u"Ink"_s},
                     {u"price"_s, u"0.30"_s},
                     {u"tags"_s, u"black"_s},
                     {u"createdAt"_s, u"2023-05-16T08:00:00.000Z"_s},
                     {u"owner"_s, ada}},
    };
}
} // namespace

TestBackend::TestBackend(QObject *parent) : QObject(parent)
{
    m_server.listen();
    m_push.listen();
    m_api.addCollection(todosPath, SampleData::todos(12, 3));
    m_api.addCollection(productsPath, products());
    // Page-number pagination where the first page is also what the list URL returns.
    m_server.route("GET", u"/pages/todos"_s, [this](const RecordedRequest &request) {
        const QJsonArray all = m_api.collection(todosPath);
        const int page = request.query.hasQueryItem(u"page"_s)
            ? request.query.queryItemValue(u"page"_s).toInt()
            : 1;
        if (page < 1)
            return ServerResponse::json(QJsonObject {{u"error"_s, u"bad page"_s}}, 400);
        QJsonArray items;
        for (int i = (page - 1) * pageSize; i < all.size() && i < page * pageSize; ++i)
            items.append(all.at(i));
        return ServerResponse::json(items);
    });
    // Django REST Framework's page numbers ({count, next, previous, results}) over the first
    // ten todos: two full pages, the second with next: null.
    m_server.route("GET", u"/drf/todos"_s, [this](const RecordedRequest &request) {
        const QJsonArray all = m_api.collection(todosPath);
        const int count = std::min<int>(int(all.size()), 2 * pageSize);
        const int page = request.query.hasQueryItem(u"page"_s)
            ? request.query.queryItemValue(u"page"_s).toInt()
            : 1;
        QJsonArray items;
        for (int i = (page - 1) * pageSize; i < count && i < page * pageSize; ++i)
            items.append(all.at(i));
        const bool more = page * pageSize < count;
        return ServerResponse::json(QJsonObject {
            {u"count"_s, count},
            {u"next"_s,
             more ? QJsonValue(m_server.url(u"/drf/todos?page=%1"_s.arg(page + 1))) : QJsonValue()},
            {u"previous"_s, QJsonValue()},
            {u"results"_s, items}});
    });
}

QString TestBackend::url() const
{
    return m_server.baseUrl().toString();
}

bool TestBackend::isListening() const
{
    return m_server.port() != 0;
}

void TestBackend::reset()
{
    m_api.setCollection(todosPath, SampleData::todos(12, 3));
    m_api.setCollection(productsPath, products());
    m_api.setLatency(0);
    if (m_api.pendingFailures() > 0)
        m_api.failNext(0);
    m_server.clearRequests();
    m_push.clearReceived();
}

QString TestBackend::pushUrl() const
{
    return m_push.url().toString();
}

int TestBackend::push(const QVariantMap &message)
{
    return m_push.send(
        QString::fromUtf8(QJsonDocument(QJsonObject::fromVariantMap(message)).toJson()));
}

int TestBackend::pushConnections() const
{
    return int(m_push.openConnections());
}

QStringList TestBackend::pushReceived() const
{
    return m_push.received();
}

void TestBackend::failNext(int count, int status)
{
    m_api.failNext(count, status);
}

void TestBackend::setLatency(int ms)
{
    m_api.setLatency(ms);
}

int TestBackend::requestCount(const QString &method, const QString &path) const
{
    return int(m_server.requests(method.toLatin1(), path).size());
}

int TestBackend::totalRequests() const
{
    return int(m_server.requestCount());
}

QVariantMap TestBackend::lastRequest() const
{
    if (m_server.requestCount() == 0)
        return {};
    const RecordedRequest request = m_server.lastRequest();
    QVariantMap headers;
    for (const auto &[name, value] : request.headers)
        headers.insert(QString::fromLatin1(name).toLower(), QString::fromUtf8(value));
    return {
        {u"method"_s, QString::fromLatin1(request.method)},
        {u"path"_s, request.path},
        {u"query"_s, request.query.toString(QUrl::FullyDecoded)},
        {u"body"_s, request.json().toVariant()},
        {u"headers"_s, headers},
    };
}

QVariantMap TestBackend::todo(int id) const
{
    return m_api.item(todosPath, id).toVariantMap();
}

void TestBackend::setTodo(const QVariantMap &todo)
{
    m_api.setItem(todosPath, QJsonObject::fromVariantMap(todo));
}
