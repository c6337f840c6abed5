#include "embeddedserver.h"

#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>
#include <DataClient/testing/websockettestserver.h>

#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtCore/QUrlQuery>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using DataClient::Testing::FakeRestApi;
using DataClient::Testing::RecordedRequest;
using DataClient::Testing::SampleData;
using DataClient::Testing::ServerResponse;
using DataClient::Testing::TestServer;

namespace {

constexpr int userCount = 10;
constexpr int todoCount = 600; // about 60 per user: three pages each
constexpr int recentLimit = 8;

QString isoNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

// The string a query value is compared with: 5 and "5" match, booleans are true/false.
QString filterString(const QJsonValue &value)
{
    if (value.isBool())
        return value.toBool() ? u"true"_s : u"false"_s;
    if (value.isDouble() && std::trunc(value.toDouble()) == value.toDouble())
        return QString::number(qint64(value.toDouble()));
    return value.toVariant().toString();
}

// A todo's creation time (invalid, so last, if it has none): the order of the lists.
QDateTime createdAt(const QJsonObject &todo)
{
    return QDateTime::fromString(todo[u"createdAt"_s].toString(), Qt::ISODateWithMs);
}

ServerResponse jsonError(int status, const QString &message)
{
    return ServerResponse::json(QJsonObject {{u"error"_s, message}, {u"status"_s, status}}, status);
}

} // namespace

EmbeddedServer::EmbeddedServer(QObject *parent)
    : QObject(parent),
      m_server(new TestServer(this)),
      m_api(new FakeRestApi(m_server, this)),
      m_push(new DataClient::Testing::WebSocketTestServer(this))
{ }

EmbeddedServer::~EmbeddedServer() = default;

bool EmbeddedServer::start(int latencyMs, double failRate, QString *error)
{
    m_latencyMs = latencyMs;
    m_failRate = failRate;
    m_startedAt = QDateTime::currentDateTimeUtc();
    if (!SampleData::install(m_api, userCount, todoCount)) {
        *error = u"could not seed the embedded server's sample data"_s;
        return false;
    }
    m_api->setLatency(latencyMs);
    m_api->setFailureRate(failRate);
    connect(m_api, &FakeRestApi::requestServed, this, &EmbeddedServer::recordActivity);
    connect(m_api, &FakeRestApi::requestServed, this, &EmbeddedServer::pushChange);
    // Emitted just before the route's handler runs: a refusal set here answers this request.
    connect(m_server, &TestServer::requestReceived, this, &EmbeddedServer::maybeRefuse);

    // Later routes win over FakeRestApi's: lists are paged by default, so that getList is the
    // first page and getList.getPage appends the next ones (FakeRestApi returns the whole list
    // when no page is asked for).
    m_server->route("GET", u"/todos"_s,
                    [this](const RecordedRequest &request) { return todoPage(request); });
    // The live panel's entity: /status/server (a resource needs a path parameter); /status too.
    m_server->route("GET", u"/status"_s,
                    [this](const RecordedRequest &) { return status().withDelay(m_latencyMs); });
    m_server->route("GET", u"/status/:id"_s, [this](const RecordedRequest &request) {
        if (request.pathParams.value(u"id"_s) != "server"_L1)
            return jsonError(404, u"GET %1: the only status is /status/server"_s.arg(request.path));
        return status().withDelay(m_latencyMs);
    });

    if (!(m_preferredPort && m_server->listen(m_preferredPort)) && !m_server->listen()) {
        *error = u"the embedded server could not listen on 127.0.0.1"_s;
        return false;
    }
    if (!m_push->listen()) {
        *error = u"the embedded server's push socket could not listen on 127.0.0.1"_s;
        return false;
    }
    return true;
}

bool EmbeddedServer::startAndReport(int latencyMs, double failRate, const QString &program)
{
    QString error;
    if (!start(latencyMs, failRate, &error)) {
        QTextStream(stderr) << program << ": error: " << error << Qt::endl;
        return false;
    }
    QTextStream(stdout) << "Embedded REST server: " << url() << " (latency " << latencyMs
                        << " ms, fail rate " << failRate << ", refuse rate " << m_refuseRate << ")"
                        << Qt::endl
                        << "Changes pushed (WebSocket): " << pushUrl() << Qt::endl;
    return true;
}

QString EmbeddedServer::url() const
{
    return m_server->url();
}

QString EmbeddedServer::pushUrl() const
{
    return m_push->url().toString();
}

void EmbeddedServer::pushChange(const QByteArray &method, const QString &path, int status)
{
    if (status >= 400 || method == "GET" || !path.startsWith(u"/todos"_s))
        return;
    const QString id = path.section(u'/', 2, 2);
    if (method == "DELETE" && !id.isEmpty()) {
        m_push->sendJson(
            QJsonObject {{u"type"_s, u"deleted"_s}, {u"entity"_s, u"Todo"_s}, {u"pk"_s, id}});
    } else if (method == "POST" && id.isEmpty()) {
        const QJsonArray all = m_api->collection(u"/todos"_s);
        const QJsonObject created = all.isEmpty() ? QJsonObject() : all.last().toObject();
        m_push->sendJson(
            QJsonObject {{u"type"_s, u"added"_s},
                         {u"collection"_s, u"todos"_s},
                         {u"args"_s, QJsonObject {{u"userId"_s, created.value(u"userId"_s)}}},
                         {u"position"_s, u"start"_s},
                         {u"data"_s, created}});
    } else if (!id.isEmpty()) {
        m_push->sendJson(QJsonObject {{u"type"_s, u"updated"_s},
                                      {u"entity"_s, u"Todo"_s},
                                      {u"data"_s, m_api->item(u"/todos"_s, id.toInt())}});
    }
}

void EmbeddedServer::setFailureRate(double failRate)
{
    m_failRate = failRate;
    m_api->setFailureRate(failRate);
}

void EmbeddedServer::maybeRefuse(const RecordedRequest &request)
{
    const bool write = request.method == "POST" || request.method == "PUT"
        || request.method == "PATCH" || request.method == "DELETE";
    if (write && m_refuseRate > 0 && request.path.startsWith(u"/todos"_s)
        && m_refusals.generateDouble() < m_refuseRate)
        m_api->failNext(1, 422);
}

ServerResponse EmbeddedServer::todoPage(const RecordedRequest &request)
{
    auto answer = [&](ServerResponse response) {
        const QString query = request.query.toString(QUrl::FullyDecoded);
        recordActivity(request.method, query.isEmpty() ? request.path : request.path + u'?' + query,
                       response.status);
        return response.withDelay(m_latencyMs);
    };
    int page = 1;
    if (request.query.hasQueryItem(u"page"_s)) {
        const QString text = request.query.queryItemValue(u"page"_s, QUrl::FullyDecoded);
        bool ok = false;
        page = text.toInt(&ok);
        if (!ok || page < 1)
            return answer(jsonError(
                400,
                u"GET /todos expects 'page' to be a page number (1, 2, ...), got '%1'"_s.arg(
                    text)));
    }
    if (m_failRate > 0 && m_listFailures.generateDouble() < m_failRate)
        return answer(jsonError(500, u"injected failure (--fail-rate %1)"_s.arg(m_failRate)));

    const QJsonArray all = m_api->collection(u"/todos"_s);
    const auto filters = request.query.queryItems(QUrl::FullyDecoded);
    QList<QJsonObject> matching;
    for (const QJsonValue &value : all) {
        const QJsonObject todo = value.toObject();
        bool matches = true;
        for (const auto &filter : filters) {
            if (filter.first != "page"_L1 && todo.contains(filter.first)
                && filterString(todo.value(filter.first)) != filter.second)
                matches = false;
        }
        if (matches)
            matching.append(todo);
    }
    // Newest first, like most todo apps: a todo added now belongs at the top of page 1, where
    // the demo puts it (getList.unshift), and stays there when later pages load.
    std::stable_sort(
        matching.begin(), matching.end(),
        [](const QJsonObject &a, const QJsonObject &b) { return createdAt(a) > createdAt(b); });
    QJsonArray result;
    const qsizetype start = qsizetype(page - 1) * pageSize;
    for (qsizetype i = start; i < std::min(start + pageSize, matching.size()); ++i) {
        QJsonObject todo = matching.at(i);
        const QJsonObject author = m_api->item(u"/users"_s, todo.value(u"userId"_s));
        todo.insert(u"author"_s, author.isEmpty() ? QJsonValue(QJsonValue::Null) : author);
        result.append(todo);
    }
    return answer(ServerResponse::json(result).withHeader("X-Total-Count",
                                                          QByteArray::number(matching.size())));
}

ServerResponse EmbeddedServer::status() const
{
    return ServerResponse::json(QJsonObject {
        {u"id"_s, u"server"_s},
        {u"time"_s, isoNow()},
        {u"startedAt"_s, m_startedAt.toString(Qt::ISODateWithMs)},
        {u"requestCount"_s, double(m_requestCount)},
        {u"latency"_s, m_latencyMs},
        {u"failRate"_s, m_failRate},
        {u"refuseRate"_s, m_refuseRate},
        {u"recent"_s, m_recent},
    });
}

void EmbeddedServer::recordActivity(const QByteArray &method, const QString &path, int status)
{
    ++m_requestCount;
    m_recent.prepend(QJsonObject {{u"id"_s, double(m_requestCount)},
                                  {u"method"_s, QString::fromLatin1(method)},
                                  {u"path"_s, path},
                                  {u"status"_s, status},
                                  {u"at"_s, isoNow()}});
    while (m_recent.size() > recentLimit)
        m_recent.removeLast();
}
