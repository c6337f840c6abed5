// SampleData: deterministic users and todos of the documented shape, and install() on a
// FakeRestApi as the demo uses it.
#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/sampledata.h>

#include "httpcall.h"

#include <QtCore/QDateTime>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QTest>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_SampleData : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameSeedSameDataOtherSeedOtherData()
    {
        QCOMPARE(SampleData::users(20, 3), SampleData::users(20, 3));
        QCOMPARE(SampleData::todos(50, 5, 3), SampleData::todos(50, 5, 3));
        QVERIFY(SampleData::users(20, 3) != SampleData::users(20, 4));
        QVERIFY(SampleData::todos(50, 5, 3) != SampleData::todos(50, 5, 4));
        // A longer list starts like the shorter one: counts do not reshuffle the data.
        const QJsonArray longer = SampleData::todos(80, 5, 3);
        const QJsonArray shorter = SampleData::todos(50, 5, 3);
        for (qsizetype i = 0; i < shorter.size(); ++i)
            QCOMPARE(longer.at(i), shorter.at(i));
    }

    void usersHaveIdNameUsernameEmail()
    {
        const QJsonArray users = SampleData::users(30);
        QCOMPARE(users.size(), 30);
        QSet<QString> names;
        for (qsizetype i = 0; i < users.size(); ++i) {
            const QJsonObject user = users.at(i).toObject();
            QCOMPARE(user.keys(), (QStringList {u"email"_s, u"id"_s, u"name"_s, u"username"_s}));
            QCOMPARE(user.value(u"id"_s).toInt(), i + 1);
            const QString username = user.value(u"username"_s).toString();
            QVERIFY2(username.endsWith(QString::number(i + 1)), qPrintable(username));
            QCOMPARE(user.value(u"email"_s).toString(), username + u"@example.com"_s);
            QVERIFY(user.value(u"name"_s).toString().contains(u' '));
            names.insert(user.value(u"name"_s).toString());
        }
        QVERIFY(names.size() > 5); // varied, not one name repeated
    }

    void todosHaveTheBenchmarkShape()
    {
        const int userCount = 7;
        const QJsonArray todos = SampleData::todos(100, userCount);
        QCOMPARE(todos.size(), 100);
        const QRegularExpression iso(u"^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$"_s);
        QDateTime previous;
        QSet<int> completed;
        for (qsizetype i = 0; i < todos.size(); ++i) {
            const QJsonObject todo = todos.at(i).toObject();
            QCOMPARE(
                todo.keys(),
                (QStringList {u"completed"_s, u"createdAt"_s, u"id"_s, u"title"_s, u"userId"_s}));
            QCOMPARE(todo.value(u"id"_s).toInt(), i + 1);
            const int userId = todo.value(u"userId"_s).toInt();
            if (i < userCount)
                QCOMPARE(userId, i + 1); // every user appears first
            QVERIFY(userId >= 1 && userId <= userCount);
            QVERIFY(!todo.value(u"title"_s).toString().isEmpty());
            QVERIFY(todo.value(u"completed"_s).isBool());
            completed.insert(todo.value(u"completed"_s).toBool());
            const QString text = todo.value(u"createdAt"_s).toString();
            QVERIFY2(iso.match(text).hasMatch(), qPrintable(text));
            const QDateTime createdAt = QDateTime::fromString(text, Qt::ISODateWithMs);
            QVERIFY(createdAt.isValid());
            QCOMPARE(createdAt.toString(Qt::ISODateWithMs), text);
            QVERIFY(!previous.isValid() || previous < createdAt);
            previous = createdAt;
        }
        QCOMPARE(completed.size(), 2);
    }

    void badCountsWarnAndGiveNothing()
    {
        QTest::ignoreMessage(QtWarningMsg, "SampleData::users: expected a count >= 0, got -1");
        QVERIFY(SampleData::users(-1).isEmpty());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^SampleData::todos: expected"_s));
        QVERIFY(SampleData::todos(5, 0).isEmpty());
        QVERIFY(SampleData::todos(0, 0).isEmpty()); // no todos need no users: no warning
    }

    void installServesUsersPagedTodosWithAuthorsAndNestedTodos()
    {
        TestServer server;
        QVERIFY(server.listen());
        FakeRestApi api(&server);
        QVERIFY(SampleData::install(&api, 5, 45));
        QNetworkAccessManager network;
        auto get
            = [&](const QString &path) { return httpCall(network, QUrl(server.url(path)), "GET"); };

        QCOMPARE(get(u"/users"_s).array(), SampleData::users(5, 1));
        QCOMPARE(get(u"/todos"_s).array().size(), 45);
        const QJsonArray page3 = get(u"/todos?page=3"_s).array();
        QCOMPARE(page3.size(), 5);
        const QJsonObject todo = page3.at(0).toObject();
        QCOMPARE(todo.value(u"id"_s).toInt(), 41);
        QCOMPARE(todo.value(u"author"_s).toObject().value(u"id"_s), todo.value(u"userId"_s));

        const QJsonArray ofUser2 = get(u"/users/2/todos"_s).array();
        QVERIFY(!ofUser2.isEmpty());
        for (const QJsonValue &item : ofUser2)
            QCOMPARE(item[u"author"_s][u"id"_s].toInt(), 2);

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^SampleData::install: expected"_s));
        QVERIFY(!SampleData::install(&api));
        QCOMPARE(api.collection(u"/todos"_s).size(), 45);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^SampleData::install: expected"_s));
        QVERIFY(!SampleData::install(nullptr));
    }
};

QTEST_GUILESS_MAIN(tst_SampleData)
#include "tst_sampledata.moc"
