// FakeRestApi over real HTTP: each route, filters, pages, cursor Link header, nested routes,
// embedded authors, and the JSON errors for unknown ids and bad bodies.
#include <DataClient/testing/fakerestapi.h>

#include "fakeapitest.h"

#include <QTest>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

QJsonObject todo(int id, int userId, const QString &title, bool completed)
{
    return {{u"id"_s, id}, {u"userId"_s, userId}, {u"title"_s, title}, {u"completed"_s, completed}};
}

QJsonArray todoSeed()
{
    return {todo(1, 1, u"buy milk"_s, false),   todo(2, 2, u"walk dog"_s, true),
            todo(3, 1, u"write tests"_s, true), todo(4, 2, u"buy milk"_s, false),
            todo(5, 1, u"read book"_s, false),  todo(6, 3, u"call mum"_s, false)};
}

QJsonArray userSeed()
{
    return {QJsonObject {{u"id"_s, 1}, {u"username"_s, u"ada"_s}},
            QJsonObject {{u"id"_s, 2}, {u"username"_s, u"alan"_s}}};
}

} // namespace

class tst_FakeRestApi : public FakeApiTest
{
    Q_OBJECT

public:
    tst_FakeRestApi() : FakeApiTest(todoSeed()) { }

private Q_SLOTS:
    void listReturnsEveryItemInOrder()
    {
        const HttpAnswer answer = call("GET", u"/todos"_s);
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.array(), todoSeed());
        QCOMPARE(answer.header("Content-Type"), "application/json"_ba);
        QCOMPARE(answer.header("X-Total-Count"), "6"_ba);
    }

    void getFindsAnItemByIdAndAnswers404ForUnknownIds()
    {
        HttpAnswer answer = call("GET", u"/todos/3"_s);
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.object(), todo(3, 1, u"write tests"_s, true));

        answer = call("GET", u"/todos/42"_s);
        QCOMPARE(answer.status, 404);
        QVERIFY2(answer.error().contains(u"no item with id '42' in /todos"_s),
                 qPrintable(answer.error()));
        QCOMPARE(answer.object().value(u"status"_s).toInt(), 404);
    }

    void queryKeysNamingAFieldFilterByStringEquality_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QList<int>>("ids");
        QTest::newRow("number") << u"userId=1"_s << QList<int> {1, 3, 5};
        QTest::newRow("bool") << u"completed=true"_s << QList<int> {2, 3};
        QTest::newRow("encoded string") << u"title=buy%20milk"_s << QList<int> {1, 4};
        QTest::newRow("two keys") << u"title=buy%20milk&userId=2"_s << QList<int> {4};
        QTest::newRow("repeated key") << u"userId=2&userId=3"_s << QList<int> {2, 4, 6};
        QTest::newRow("no match") << u"userId=9"_s << QList<int> {};
        QTest::newRow("unknown key ignored") << u"orderBy=title"_s << QList<int> {1, 2, 3, 4, 5, 6};
    }
    void queryKeysNamingAFieldFilterByStringEquality()
    {
        QFETCH(QString, query);
        QFETCH(QList<int>, ids);
        const HttpAnswer answer = call("GET", u"/todos?"_s + query);
        QCOMPARE(answer.status, 200);
        QCOMPARE(idsOf(answer.array()), ids);
        QCOMPARE(answer.header("X-Total-Count"), QByteArray::number(ids.size()));
    }

    void ignoredQueryKeysNeverFilter()
    {
        FakeRestApi::Options options;
        options.ignoredQueryKeys = {u"title"_s};
        QVERIFY(api->addCollection(u"/notes"_s, todoSeed(), options));
        QCOMPARE(idsOf(call("GET", u"/notes?title=x&userId=3"_s).array()), QList<int> {6});
    }

    void pageNumberReturnsThatPage_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QList<int>>("ids");
        QTest::newRow("page 1") << u"page=1"_s << QList<int> {1, 2, 3, 4};
        QTest::newRow("page 2") << u"page=2"_s << QList<int> {5, 6};
        QTest::newRow("past the end") << u"page=3"_s << QList<int> {};
        QTest::newRow("no page: everything") << QString() << QList<int> {1, 2, 3, 4, 5, 6};
        QTest::newRow("filtered") << u"userId=1&page=1"_s << QList<int> {1, 3, 5};
    }
    void pageNumberReturnsThatPage()
    {
        QFETCH(QString, query);
        QFETCH(QList<int>, ids);
        FakeRestApi::Options options;
        options.pagination = FakeRestApi::Pagination::PageNumber;
        options.pageSize = 4;
        QVERIFY(api->addCollection(u"/paged"_s, todoSeed(), options));
        const HttpAnswer answer = call("GET", u"/paged?"_s + query);
        QCOMPARE(answer.status, 200);
        QCOMPARE(idsOf(answer.array()), ids);
        QVERIFY(answer.header("Link").isEmpty());
    }

    void badPageNumberIs400()
    {
        FakeRestApi::Options options;
        options.pagination = FakeRestApi::Pagination::PageNumber;
        options.pageField = u"p"_s;
        QVERIFY(api->addCollection(u"/paged"_s, todoSeed(), options));
        for (const QString &value : {u"0"_s, u"-1"_s, u"two"_s}) {
            const HttpAnswer answer = call("GET", u"/paged?p="_s + value);
            QCOMPARE(answer.status, 400);
            QVERIFY2(answer.error().contains(u"expects 'p' to be a page number"_s)
                         && answer.error().contains(u"got '%1'"_s.arg(value)),
                     qPrintable(answer.error()));
        }
    }

    void cursorPagesFollowTheLinkHeader()
    {
        FakeRestApi::Options options;
        options.pagination = FakeRestApi::Pagination::Cursor;
        options.pageSize = 2;
        QVERIFY(api->addCollection(u"/feed"_s, todoSeed(), options));

        // Filters stay in every next link; the last page has none.
        QUrl next(server->url(u"/feed?userId=1"_s));
        QList<int> seen;
        QList<QByteArray> links;
        for (int pages = 0; next.isValid() && pages < 10; ++pages) {
            const HttpAnswer answer = httpCall(network, next, "GET");
            QCOMPARE(answer.status, 200);
            seen += idsOf(answer.array());
            const QByteArray link = answer.header("Link");
            links.append(link);
            next = QUrl();
            if (!link.isEmpty()) {
                QVERIFY2(link.startsWith('<') && link.endsWith(">; rel=\"next\""),
                         link.constData());
                next = QUrl::fromEncoded(link.mid(1, link.indexOf('>') - 1));
            }
        }
        QCOMPARE(seen, (QList<int> {1, 3, 5}));
        QCOMPARE(links.size(), 2);
        QVERIFY2(links.first().contains("userId=1"), links.first().constData());
        QVERIFY(links.last().isEmpty());

        const HttpAnswer first = call("GET", u"/feed"_s);
        QCOMPARE(idsOf(first.array()), (QList<int> {1, 2}));
        const QUrl link = QUrl::fromEncoded(first.header("Link").mid(1).chopped(13));
        QCOMPARE(link.toString(), server->url(u"/feed?cursor=2"_s));
        QCOMPARE(idsOf(httpCall(network, link, "GET").array()), (QList<int> {3, 4}));
    }

    void badCursorIs400()
    {
        FakeRestApi::Options options;
        options.pagination = FakeRestApi::Pagination::Cursor;
        QVERIFY(api->addCollection(u"/feed"_s, todoSeed(), options));
        const HttpAnswer answer = call("GET", u"/feed?cursor=abc"_s);
        QCOMPARE(answer.status, 400);
        QVERIFY2(answer.error().contains(u"expects 'cursor' to be a cursor"_s),
                 qPrintable(answer.error()));
    }

    void postCreatesWithTheNextIdAndNeverReusesIds()
    {
        HttpAnswer answer = call("POST", u"/todos"_s,
                                 toJson({{u"id"_s, u"optimistic-1"_s}, {u"title"_s, u"new"_s}}));
        QCOMPARE(answer.status, 201);
        const QJsonObject created {{u"id"_s, 7}, {u"title"_s, u"new"_s}};
        QCOMPARE(answer.object(), created);
        QCOMPARE(api->item(u"/todos"_s, 7), created);
        QCOMPARE(api->collection(u"/todos"_s).size(), 7);

        QCOMPARE(call("DELETE", u"/todos/7"_s).status, 204);
        answer = call("POST", u"/todos"_s, toJson({{u"title"_s, u"again"_s}}));
        QCOMPARE(answer.object().value(u"id"_s).toInt(), 8);
    }

    void keepClientIdsStoresTheSentIdAndRefusesADuplicate()
    {
        DataClient::Testing::FakeRestApi::Options options;
        options.keepClientIds = true;
        QVERIFY(api->addCollection(u"/notes"_s, QJsonArray {QJsonObject {{u"id"_s, 3}}}, options));
        HttpAnswer answer
            = call("POST", u"/notes"_s, toJson({{u"id"_s, -1}, {u"title"_s, u"sent id"_s}}));
        QCOMPARE(answer.status, 201);
        const QJsonObject kept {{u"id"_s, -1}, {u"title"_s, u"sent id"_s}};
        QCOMPARE(answer.object(), kept);
        QCOMPARE(api->item(u"/notes"_s, -1), kept);

        answer = call("POST", u"/notes"_s, toJson({{u"id"_s, 3}, {u"title"_s, u"taken"_s}}));
        QCOMPARE(answer.status, 409);
        QVERIFY2(answer.error().contains(u"an item with id '3' already exists in /notes"_s),
                 qPrintable(answer.error()));
        QCOMPARE(api->collection(u"/notes"_s).size(), 2);

        // Without an id in the body the server still assigns one (past every id it has seen).
        answer = call("POST", u"/notes"_s, toJson({{u"title"_s, u"no id"_s}}));
        QCOMPARE(answer.status, 201);
        QCOMPARE(answer.object().value(u"id"_s).toInt(), 4);
    }

    void putReplacesKeepingTheId()
    {
        const HttpAnswer answer
            = call("PUT", u"/todos/2"_s, toJson({{u"id"_s, u"2"_s}, {u"title"_s, u"renamed"_s}}));
        QCOMPARE(answer.status, 200);
        const QJsonObject replaced {{u"id"_s, 2}, {u"title"_s, u"renamed"_s}};
        QCOMPARE(answer.object(), replaced);
        QCOMPARE(api->item(u"/todos"_s, 2), replaced);
    }

    void patchMergesTopLevelKeys()
    {
        QVERIFY(api->setItem(u"/todos"_s,
                             QJsonObject {{u"id"_s, 9},
                                          {u"title"_s, u"t"_s},
                                          {u"meta"_s, QJsonObject {{u"a"_s, 1}}}}));
        const HttpAnswer answer
            = call("PATCH", u"/todos/9"_s,
                   toJson({{u"completed"_s, true}, {u"meta"_s, QJsonObject {{u"b"_s, 2}}}}));
        QCOMPARE(answer.status, 200);
        const QJsonObject merged {{u"id"_s, 9},
                                  {u"title"_s, u"t"_s},
                                  {u"completed"_s, true},
                                  {u"meta"_s, QJsonObject {{u"b"_s, 2}}}};
        QCOMPARE(answer.object(), merged);
        QCOMPARE(api->item(u"/todos"_s, 9), merged);
    }

    void deleteAnswers204OrTheIdObject()
    {
        HttpAnswer answer = call("DELETE", u"/todos/1"_s);
        QCOMPARE(answer.status, 204);
        QVERIFY(answer.body.isEmpty());
        QVERIFY(api->item(u"/todos"_s, 1).isEmpty());
        QCOMPARE(call("DELETE", u"/todos/1"_s).status, 404);

        FakeRestApi::Options options;
        options.deleteResponse = FakeRestApi::DeleteResponse::IdObject;
        QVERIFY(api->addCollection(
            u"/tags"_s, {QJsonObject {{u"id"_s, u"red"_s}}, QJsonObject {{u"id"_s, 3}}}, options));
        answer = call("DELETE", u"/tags/red"_s);
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.object(), (QJsonObject {{u"id"_s, u"red"_s}}));
        QCOMPARE(call("DELETE", u"/tags/3"_s).object(), (QJsonObject {{u"id"_s, 3}}));
        QVERIFY(api->collection(u"/tags"_s).isEmpty());
    }

    void mutationsOfUnknownIdsAre404AndChangeNothing()
    {
        for (const QByteArray &verb : {"PUT"_ba, "PATCH"_ba, "DELETE"_ba}) {
            const HttpAnswer answer = call(verb, u"/todos/99"_s, toJson({{u"x"_s, 1}}));
            QCOMPARE(answer.status, 404);
            QVERIFY2(answer.error().startsWith(u"FakeRestApi: "_s + QString::fromLatin1(verb)
                                               + u" /todos/99: no item with id '99'"_s),
                     qPrintable(answer.error()));
        }
        QCOMPARE(api->collection(u"/todos"_s), todoSeed());
    }

    void bodiesThatAreNotJsonObjectsAre400_data()
    {
        QTest::addColumn<QByteArray>("verb");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("got");
        QTest::newRow("POST array") << "POST"_ba
                                    << "[1,2]"_ba << u"got an array"_s;
        QTest::newRow("POST invalid") << "POST"_ba
                                      << "{\"a\":"_ba << u"got invalid JSON"_s;
        QTest::newRow("POST empty") << "POST"_ba << QByteArray() << u"got an empty body"_s;
        QTest::newRow("PUT scalar") << "PUT"_ba
                                    << "5"_ba << u"got a scalar"_s;
        QTest::newRow("PATCH text") << "PATCH"_ba
                                    << "hello"_ba << u"got invalid JSON"_s;
    }
    void bodiesThatAreNotJsonObjectsAre400()
    {
        QFETCH(QByteArray, verb);
        QFETCH(QByteArray, body);
        QFETCH(QString, got);
        const QString path = verb == "POST" ? u"/todos"_s : u"/todos/1"_s;
        const HttpAnswer answer = call(verb, path, body);
        QCOMPARE(answer.status, 400);
        QVERIFY2(answer.error().contains(u"expects a JSON object body, "_s + got),
                 qPrintable(answer.error()));
        QCOMPARE(api->collection(u"/todos"_s), todoSeed());
    }

    void changingTheIdIs400()
    {
        const HttpAnswer answer = call("PATCH", u"/todos/1"_s, toJson({{u"id"_s, 2}}));
        QCOMPARE(answer.status, 400);
        QVERIFY2(answer.error().contains(u"the body's id '2' differs from the URL's '1'"_s),
                 qPrintable(answer.error()));
        QCOMPARE(api->collection(u"/todos"_s), todoSeed());
    }

    void unservedMethodsAre405()
    {
        HttpAnswer answer = call("POST", u"/todos/1"_s, "{}");
        QCOMPARE(answer.status, 405);
        QCOMPARE(answer.header("Allow"), "GET, PUT, PATCH, DELETE"_ba);
        answer = call("DELETE", u"/todos"_s);
        QCOMPARE(answer.status, 405);
        QCOMPARE(answer.header("Allow"), "GET, POST"_ba);
        QVERIFY2(answer.error().contains(u"DELETE /todos is not served"_s),
                 qPrintable(answer.error()));
    }

    void nestedMountFiltersAndFillsTheParent()
    {
        QVERIFY(api->mount(u"/users/:userId/todos"_s, u"/todos"_s));
        QCOMPARE(idsOf(call("GET", u"/users/2/todos"_s).array()), (QList<int> {2, 4}));
        QCOMPARE(idsOf(call("GET", u"/users/2/todos?completed=true"_s).array()), QList<int> {2});
        QCOMPARE(call("GET", u"/users/2/todos/4"_s).status, 200);
        QCOMPARE(call("GET", u"/users/2/todos/1"_s).status, 404); // todo 1 belongs to user 1
        QCOMPARE(call("DELETE", u"/users/2/todos/1"_s).status, 404);

        const HttpAnswer created
            = call("POST", u"/users/3/todos"_s, toJson({{u"title"_s, u"x"_s}}));
        QCOMPARE(created.status, 201);
        QCOMPARE(created.object().value(u"userId"_s), QJsonValue(3)); // a number, like the seed
        QCOMPARE(idsOf(call("GET", u"/todos?userId=3"_s).array()), (QList<int> {6, 7}));
    }

    void expandEmbedsTheRelatedEntity()
    {
        QVERIFY(api->addCollection(u"/users"_s, userSeed()));
        FakeRestApi::Options options;
        options.expand = {{u"author"_s, u"/users"_s, u"userId"_s}};
        QVERIFY(api->mount(u"/with-authors"_s, u"/todos"_s, options));

        const QJsonArray list = call("GET", u"/with-authors?userId=2"_s).array();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(0)[u"author"_s].toObject(), userSeed().at(1).toObject());
        // No such user: null, like a dangling reference.
        QCOMPARE(call("GET", u"/with-authors/6"_s).object().value(u"author"_s), QJsonValue());
        QVERIFY(call("GET", u"/with-authors/6"_s).object().contains(u"author"_s));

        // Embedded entities are not stored: a changed user shows in the next response.
        QVERIFY(api->setItem(u"/users"_s, QJsonObject {{u"id"_s, 2}, {u"username"_s, u"al"_s}}));
        QCOMPARE(call("GET", u"/with-authors/2"_s).object()[u"author"_s][u"username"_s],
                 QJsonValue(u"al"_s));

        // A client echoing an entity back: the foreign key comes from the embedded object.
        const HttpAnswer created
            = call("POST", u"/with-authors"_s,
                   toJson({{u"title"_s, u"t"_s}, {u"author"_s, QJsonObject {{u"id"_s, 1}}}}));
        QCOMPARE(created.status, 201);
        QCOMPARE(created.object()[u"author"_s].toObject(), userSeed().at(0).toObject());
        QCOMPARE(api->item(u"/todos"_s, 7),
                 (QJsonObject {{u"id"_s, 7}, {u"title"_s, u"t"_s}, {u"userId"_s, 1}}));
        // The plain route does not expand.
        QVERIFY(!call("GET", u"/todos/7"_s).object().contains(u"author"_s));
    }
};

QTEST_GUILESS_MAIN(tst_FakeRestApi)
#include "tst_fakerestapi.moc"
