// The code of docs/testing.md, compiled and run (tst_docsnippets checks the page quotes it).
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_TestingDocs : public QObject
{
    Q_OBJECT

    static QByteArray get(QNetworkAccessManager &network, const QString &url)
    {
        std::unique_ptr<QNetworkReply> reply(network.get(QNetworkRequest(QUrl(url))));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        if (!reply->isFinished() && !finished.wait(5000))
            return {};
        return reply->readAll();
    }

private Q_SLOTS:
    void testServerSnippet()
    {
        // clang-format off
        DataClient::Testing::TestServer server;
        QVERIFY(server.listen());
        server.route("GET", u"/todos/:id"_s, [](const RecordedRequest &request) {
            return ServerResponse::json(QJsonObject{{u"id"_s, request.pathParams.value(u"id"_s)}});
        });
        // clang-format on
        QNetworkAccessManager network;
        QCOMPARE(get(network, server.url(u"/todos/5"_s)), R"({"id":"5"})"_ba);
        QCOMPARE(server.lastRequest().method, "GET"_ba);
    }

    void fakeRestApiSnippet()
    {
        // clang-format off
        TestServer server;
        QVERIFY(server.listen());
        FakeRestApi api(&server);

        FakeRestApi::Options todoOptions;
        todoOptions.pagination = FakeRestApi::Pagination::PageNumber; // ?page=N, pageSize 20
        todoOptions.expand = {{u"author"_s, u"/users"_s, u"userId"_s}}; // embed users by userId
        api.addCollection(u"/users"_s, SampleData::users(10));
        api.addCollection(u"/todos"_s, SampleData::todos(200, 10), todoOptions);
        api.mount(u"/users/:userId/todos"_s, u"/todos"_s);             // same data, nested
        // or all of the above: SampleData::install(&api, 10, 200);
        // clang-format on

        QNetworkAccessManager network;
        const QJsonArray page2
            = QJsonDocument::fromJson(get(network, server.url(u"/todos?page=2"_s))).array();
        QCOMPARE(page2.size(), 20);
        QCOMPARE(page2.first().toObject().value(u"id"_s).toInt(), 21);
        const QJsonObject author = page2.first().toObject().value(u"author"_s).toObject();
        QCOMPARE(author.value(u"id"_s).toInt(),
                 page2.first().toObject().value(u"userId"_s).toInt());
        const QJsonArray nested
            = QJsonDocument::fromJson(get(network, server.url(u"/users/3/todos"_s))).array();
        QVERIFY(!nested.isEmpty());
        for (const QJsonValue &todo : nested)
            QCOMPARE(todo.toObject().value(u"userId"_s).toInt(), 3);
    }
};

QTEST_GUILESS_MAIN(tst_TestingDocs)
#include "tst_testingdocs.moc"
