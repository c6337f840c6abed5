// Rails, Laravel, Spring Data and JSON:API answers emulated on the in-process test server (their
// frameworks are not in Debian in a usable form), each case labelled with the framework
// behaviour it copies; and the preset errors: a next page on another origin, a cursor that
// repeats. What the server received is read from its request log.
#include "modelids.h"
#include "readback.h"
#include "servertest.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/record.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkCookie>
#include <QtNetwork/QNetworkCookieJar>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

constexpr int rowCount = 5;
constexpr int perPage = 2;

QJsonArray rows(int page)
{
    QJsonArray result;
    for (int id = (page - 1) * perPage + 1; id <= std::min(rowCount, page * perPage); ++id)
        result.append(QJsonObject {{u"id"_s, id}, {u"user_id"_s, 1}, {u"created_at"_s, id}});
    return result;
}

constexpr int lastPage = (rowCount + perPage - 1) / perPage;

QString failureMessage(QFuture<QVariant> future)
{
    return ReadBack::failureOf(future).message();
}

// A token scheme of its own (a cookie's value and the URL's path), built where the request is:
// requestInit() gets the URL and the manager whose cookie jar holds the cookie. No global.
class SignedEndpoint : public EndpointBase<SignedEndpoint>
{
public:
    using EndpointBase::EndpointBase;
    RequestInit requestInit(const QJsonValue &body, const QUrl &url,
                            QNetworkAccessManager *network) const override
    {
        RequestInit init = RestEndpoint::requestInit(body, url, network);
        const QList<QNetworkCookie> cookies = network->cookieJar()->cookiesForUrl(url);
        for (const QNetworkCookie &cookie : cookies) {
            if (cookie.name() == "session")
                init.setHeader("X-Signature", cookie.value() + ':' + url.path().toUtf8());
        }
        return init;
    }
};

} // namespace

class tst_FrameworkEmulations : public ServerTest
{
    Q_OBJECT

    Resource todos(Pagination pagination, const Csrf &csrf = {}) const
    {
        return createResource({.path = u"/todos/:id"_s,
                               .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                               .urlPrefix = server.url(),
                               .keyCase = KeyCase::SnakeCase,
                               .csrf = csrf,
                               .pagination = pagination});
    }

    //! Loads every page the model says there is (at most 6) and returns the page values sent.
    QStringList loadEveryPage(const Resource &resource, const QString &field)
    {
        Controller controller(&network);
        CollectionModel model(&controller, resource.getList, {{u"userId"_s, 1}});
        model.setPageEndpoint(resource.getList.getPage);
        if (!QTest::qWaitFor([&] { return model.status() == CollectionModel::Ready; }))
            return {u"the first page did not load"_s};
        for (int page = 0; page < 6 && model.hasMore(); ++page) {
            model.loadMore();
            if (!QTest::qWaitFor([&] { return !model.isLoadingMore(); }))
                return {u"a page did not load"_s};
        }
        QStringList sent;
        for (const RecordedRequest &request : server.requests("GET", u"/todos"_s)) {
            const QString page = queryValue(request, field);
            sent.append(page.isEmpty() ? u"-"_s : page);
            if (request.query.queryItemValue(u"user_id"_s) != u"1")
                sent.append(u"user_id missing"_s);
        }
        if (modelIds(model) != QList<int> {1, 2, 3, 4, 5} || model.hasMore())
            sent.append(u"rows or hasMore wrong"_s);
        return sent;
    }

    static QString queryValue(const RecordedRequest &request, const QString &field)
    {
        // Decoded: JSON:API's page[number] arrives as page%5Bnumber%5D.
        const auto items = request.query.queryItems(QUrl::FullyDecoded);
        for (const auto &[key, value] : items) {
            if (key == field)
                return value;
        }
        return {};
    }
    static int pageOf(const RecordedRequest &request, const QString &field = u"page"_s)
    {
        const QString page = queryValue(request, field);
        return page.isEmpty() ? 1 : page.toInt();
    }
    QByteArray pageUrl(int page) const
    {
        return server.url(u"/todos?page=%1&user_id=1"_s.arg(page)).toUtf8();
    }

private Q_SLOTS:
    // Laravel: `Todo::paginate()` answers {data, links: {first, last, prev, next}, meta:
    // {current_page, last_page, per_page, total}}; next is null on the last page.
    void laravelPaginateWrapper()
    {
        server.route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            const int page = pageOf(request);
            return ServerResponse::json(QJsonObject {
                {u"data"_s, rows(page)},
                {u"links"_s,
                 QJsonObject {{u"first"_s, QString::fromUtf8(pageUrl(1))},
                              {u"next"_s,
                               page < lastPage ? QJsonValue(QString::fromUtf8(pageUrl(page + 1)))
                                               : QJsonValue()}}},
                {u"meta"_s,
                 QJsonObject {{u"current_page"_s, page},
                              {u"last_page"_s, lastPage},
                              {u"per_page"_s, perPage},
                              {u"total"_s, rowCount}}}});
        });
        QCOMPARE(loadEveryPage(todos(Pagination::Laravel), u"page"_s),
                 (QStringList {u"-"_s, u"2"_s, u"3"_s}));
    }

    // Rails with pagy's headers (or kaminari + api-pagination): a bare array and
    // `Link: <...?page=2>; rel="next", <...?page=3>; rel="last"`; no rel="next" on the last.
    void railsLinkHeader()
    {
        server.route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            const int page = pageOf(request);
            QByteArray link = '<' + pageUrl(1) + ">; rel=\"first\"";
            if (page < lastPage)
                link += ", <" + pageUrl(page + 1) + ">; rel=\"next\"";
            return ServerResponse::json(rows(page))
                .withHeader("Link", link)
                .withHeader("Total-Count", QByteArray::number(rowCount));
        });
        QCOMPARE(loadEveryPage(todos(Pagination::LinkHeader), u"page"_s),
                 (QStringList {u"-"_s, u"2"_s, u"3"_s}));
    }

    // Spring Data REST / a Page<T> from a controller: {content, last, totalElements, number},
    // pages numbered from 0 (no page parameter is page 0).
    void springPage()
    {
        server.route("GET", u"/todos"_s, [](const RecordedRequest &request) {
            const int number
                = pageOf(request, u"page"_s) - (request.query.hasQueryItem(u"page"_s) ? 0 : 1);
            return ServerResponse::json(QJsonObject {{u"content"_s, rows(number + 1)},
                                                     {u"last"_s, number + 1 >= lastPage},
                                                     {u"totalElements"_s, rowCount},
                                                     {u"number"_s, number}});
        });
        QCOMPARE(loadEveryPage(todos(Pagination::Spring), u"page"_s),
                 (QStringList {u"-"_s, u"1"_s, u"2"_s}));
    }

    // JSON:API: {data, links: {next}} with the page in page[number].
    void jsonApiLinksNext()
    {
        server.route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            const int page = pageOf(request, u"page[number]"_s);
            const QString next
                = server.url(u"/todos?page%5Bnumber%5D=%1&user_id=1"_s.arg(page + 1));
            return ServerResponse::json(QJsonObject {
                {u"data"_s, rows(page)},
                {u"links"_s,
                 QJsonObject {{u"next"_s, page < lastPage ? QJsonValue(next) : QJsonValue()}}}});
        });
        QCOMPARE(loadEveryPage(todos(Pagination::JsonApi), u"page[number]"_s),
                 (QStringList {u"-"_s, u"2"_s, u"3"_s}));
    }

    // A server whose base URL setting is wrong names a next page elsewhere: not followed.
    void aNextPageOnAnotherOriginIsRefused()
    {
        server.route("GET", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::json(
                QJsonObject {{u"next"_s, u"http://elsewhere.example/todos?cursor=abc"_s},
                             {u"results"_s, rows(1)}});
        });
        Controller controller(&network);
        QFuture<QVariant> read = controller.fetch(todos(Pagination::Cursor).getList, {});
        QTRY_VERIFY(read.isFinished());
        const QString message = failureMessage(read);
        QVERIFY2(message.contains(u"http://elsewhere.example/todos?cursor=abc"_s),
                 qPrintable(message));
        QCOMPARE(server.requestCount(), 1);
    }

    // A server bug: every page names the same cursor. Loading stops with an error.
    void aRepeatingCursorStopsWithAnError()
    {
        server.route("GET", u"/todos"_s, [this](const RecordedRequest &request) {
            const int page = request.query.hasQueryItem(u"cursor"_s) ? 2 : 1;
            return ServerResponse::json(QJsonObject {
                {u"next"_s, server.url(u"/todos?cursor=same"_s)}, {u"results"_s, rows(page)}});
        });
        Controller controller(&network);
        const Resource resource = todos(Pagination::Cursor);
        CollectionModel model(&controller, resource.getList, {});
        model.setPageEndpoint(resource.getList.getPage);
        QTRY_COMPARE(model.status(), CollectionModel::Ready);
        model.loadMore();
        QTRY_VERIFY(!model.isLoadingMore());
        QCOMPARE(modelIds(model), (QList<int> {1, 2, 3, 4}));
        model.loadMore();
        QVERIFY(model.pageNetworkError());
        QVERIFY2(model.pageNetworkError()->message().contains(u"'same'"_s),
                 qPrintable(model.pageNetworkError()->message()));
        QVERIFY(!model.hasMore());
        QCOMPARE(server.requests("GET", u"/todos"_s).size(), 2);
    }

    // The resource's own Collection class stays the list's under a preset.
    void aCustomCollectionIsKeptByThePreset()
    {
        struct Mine : Collection
        { };
        auto mine = std::make_shared<const Mine>();
        const Resource resource = createResource({.path = u"/todos/:id"_s,
                                                  .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                                  .collection = mine,
                                                  .pagination = Pagination::PageNumber});
        const Schema results = resource.getList->schema().fields().value(u"results"_s);
        QCOMPARE(results.collectionType().get(), mine.get());
        QCOMPARE(
            resource.getList.getPage->schema().fields().value(u"results"_s).collectionType().get(),
            mine.get());
    }

    // Laravel Sanctum: GET /sanctum/csrf-cookie sets XSRF-TOKEN (URL-encoded); unsafe requests
    // send it decoded in X-XSRF-TOKEN; a mismatch answers 419 "CSRF token mismatch.".
    void laravelCsrfCookieAndHeader()
    {
        server.route("GET", u"/sanctum/csrf-cookie"_s, [](const RecordedRequest &) {
            return ServerResponse::noContent().withHeader("Set-Cookie",
                                                          "XSRF-TOKEN=tok%3D1; Path=/");
        });
        const auto checkToken = [](const RecordedRequest &request) {
            if (request.method != "GET" && request.header("X-XSRF-TOKEN") != "tok=1")
                return ServerResponse::json(QJsonObject {{u"message"_s, u"CSRF token mismatch."_s}},
                                            419);
            return ServerResponse::json(QJsonObject {{u"id"_s, 1}, {u"user_id"_s, 1}}, 201);
        };
        server.route("*", u"/todos"_s, checkToken);
        server.route("*", u"/todos/:id"_s, checkToken);
        Controller controller(&network);
        const Resource resource = todos(Pagination::None, Csrf::laravel());
        // Before the cookie: sent without, and the refusal names the cookie.
        QFuture<QVariant> refused
            = controller.fetch(resource.getList.push, {}, QJsonObject {{u"userId"_s, 1}});
        QTRY_VERIFY(refused.isFinished());
        const QString message = failureMessage(refused);
        QVERIFY2(message.contains(u"419"_s) && message.contains(u"XSRF-TOKEN"_s),
                 qPrintable(message));
        QVERIFY(!server.lastRequest().hasHeader("X-XSRF-TOKEN"));

        const EndpointPtr cookie
            = RestEndpoint::create({.path = u"/sanctum/csrf-cookie"_s, .urlPrefix = server.url()});
        QFuture<QJsonValue> got = cookie->fetch(&network, {});
        QTRY_VERIFY(got.isFinished());
        QFuture<QVariant> read = controller.fetch(resource.get, {{u"id"_s, 1}});
        QTRY_VERIFY(read.isFinished());
        QVERIFY2(!server.lastRequest().hasHeader("X-XSRF-TOKEN"), "GET is safe: no token");
        for (const QByteArray method : {"POST", "PUT", "PATCH", "DELETE"}) {
            const EndpointPtr endpoint = method == "POST" ? resource.getList.push
                : method == "PUT"                         ? resource.update
                : method == "PATCH"                       ? resource.partialUpdate
                                                          : resource.remove;
            QFuture<QVariant> sent
                = controller.fetch(endpoint, method == "POST" ? Params() : Params {{u"id"_s, 1}},
                                   QJsonObject {{u"userId"_s, 1}});
            QTRY_VERIFY(sent.isFinished());
            QCOMPARE(failureMessage(sent), QString());
            QCOMPARE(server.lastRequest().header("X-XSRF-TOKEN"), "tok=1");
        }
    }

    // Django: a 403 "CSRF Failed" when the cookie is missing or stale; with a token path the
    // request reads it (ensure_csrf_cookie) and is sent once more. Another 403 (a permission)
    // is not retried, and a second refusal is the answer: never a loop.
    void aRefusedTokenIsReadFromTheTokenPathAndSentOnce()
    {
        QByteArray served = "fresh";
        server.route("GET", u"/csrf/"_s, [&served](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {})
                .withHeader("Set-Cookie", "csrftoken=" + served + "; Path=/");
        });
        server.route("POST", u"/todos"_s, [](const RecordedRequest &request) {
            if (request.header("X-CSRFToken") != "fresh")
                return ServerResponse::json(
                    QJsonObject {{u"detail"_s, u"CSRF Failed: CSRF cookie not set."_s}}, 403);
            return ServerResponse::json(QJsonObject {{u"id"_s, 1}}, 201);
        });
        Controller controller(&network);
        const Resource resource = todos(Pagination::None, Csrf::django(u"/csrf/"_s));
        QFuture<QVariant> created = controller.fetch(resource.getList.push, {}, QJsonObject {});
        QTRY_VERIFY(created.isFinished());
        QCOMPARE(failureMessage(created), QString());
        QList<RecordedRequest> sent = server.requests();
        QCOMPARE(sent.size(), 3);
        QVERIFY(!sent.at(0).hasHeader("X-CSRFToken"));
        QCOMPARE(sent.at(1).path, u"/csrf/"_s);
        QCOMPARE(sent.at(2).header("X-CSRFToken"), "fresh");

        // The server keeps refusing: one retry, then its refusal.
        server.clearRequests();
        served = "stale";
        network.cookieJar()->setCookiesFromUrl({QNetworkCookie("csrftoken", "old")},
                                               server.baseUrl());
        QFuture<QVariant> refused = controller.fetch(resource.getList.push, {}, QJsonObject {});
        QTRY_VERIFY(refused.isFinished());
        QVERIFY2(failureMessage(refused).contains(u"CSRF Failed"_s),
                 qPrintable(failureMessage(refused)));
        QCOMPARE(server.requestCount(), 3);

        // A 403 about something else is not the token's: no retry.
        server.clearRequests();
        server.route("POST", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::json(
                QJsonObject {{u"detail"_s, u"You do not have permission."_s}}, 403);
        });
        QFuture<QVariant> forbidden = controller.fetch(resource.getList.push, {}, QJsonObject {});
        QTRY_VERIFY(forbidden.isFinished());
        QCOMPARE(server.requestCount(), 1);
    }

    void requestInitSeesTheUrlAndTheManager()
    {
        server.route("POST", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonObject {{u"id"_s, 1}}, 201);
        });
        network.cookieJar()->setCookiesFromUrl({QNetworkCookie("session", "abc")},
                                               server.baseUrl());
        const Resource resource = createResource({.path = u"/todos/:id"_s,
                                                  .schema = Schema::entity(EntitySchema(u"Todo"_s)),
                                                  .urlPrefix = server.url(),
                                                  .endpoint = endpointFactory<SignedEndpoint>()});
        Controller controller(&network);
        QFuture<QVariant> created = controller.fetch(resource.getList.push, {}, QJsonObject {});
        QTRY_VERIFY(created.isFinished());
        QCOMPARE(server.lastRequest().header("X-Signature"), "abc:/todos");
    }

    // Rails: protect_from_forgery checks X-CSRF-Token; an API app copies the token into a
    // CSRF-TOKEN cookie. A token replaced by a later answer (a login) is read at send time.
    void railsTokenReadAtSendTime()
    {
        server.route("POST", u"/todos"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(
                QJsonObject {{u"id"_s, 1},
                             {u"token"_s, QString::fromUtf8(request.header("X-CSRF-Token"))}},
                201);
        });
        Controller controller(&network);
        const Resource resource = todos(Pagination::None, Csrf::rails());
        const QUrl site = server.baseUrl();
        for (const QByteArray token : {"first", "second"}) {
            network.cookieJar()->setCookiesFromUrl({QNetworkCookie("CSRF-TOKEN", token)}, site);
            QFuture<QVariant> sent = controller.fetch(resource.getList.push, {}, QJsonObject {});
            QTRY_VERIFY(sent.isFinished());
            QCOMPARE(server.lastRequest().header("X-CSRF-Token"), token);
        }
    }
};

QTEST_MAIN(tst_FrameworkEmulations)
#include "tst_frameworkemulations.moc"
