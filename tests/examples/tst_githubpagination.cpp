// examples/github-pagination: follows Link rel="next" headers (docs/pagination.md) until
// the last page, and every page ends up in one stored list without duplicates.
#include "processrun.h"

#include <DataClient/testing/fakerestapi.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

class tst_GithubPagination : public QObject
{
    Q_OBJECT

private:
    static ProcessRun run(const QStringList &arguments)
    {
        return runProcess(QStringLiteral(PAGINATION_EXECUTABLE), arguments);
    }

private Q_SLOTS:
    void followsEveryNextLink_data()
    {
        QTest::addColumn<int>("users");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<int>("pages");
        QTest::newRow("95 by 30") << 95 << 30 << 4;
        QTest::newRow("exact pages") << 60 << 20 << 3;
        QTest::newRow("one short page") << 7 << 30 << 1;
    }
    void followsEveryNextLink()
    {
        QFETCH(int, users);
        QFETCH(int, pageSize);
        QFETCH(int, pages);
        const ProcessRun result = run(
            {u"--users"_s, QString::number(users), u"--page-size"_s, QString::number(pageSize)});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err + result.out));
        for (int page = 1; page <= pages; ++page) {
            const int held = std::min(users, page * pageSize);
            QVERIFY2(
                result.out.contains(u"page %1: the list now holds %2 users"_s.arg(page).arg(held)),
                qPrintable(result.out));
        }
        QVERIFY2(!result.out.contains(u"page %1:"_s.arg(pages + 1)), qPrintable(result.out));
        QVERIFY2(
            result.out.contains(
                u"%1 users in the stored list (%2 pages, %1 distinct)"_s.arg(users).arg(pages)),
            qPrintable(result.out));
    }

    void stopsAtMaxPages()
    {
        const ProcessRun result = run({u"--max-pages"_s, u"2"_s});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.contains(u"60 users in the stored list (2 pages, 60 distinct)"_s));
    }

    // --url: a server that is not the embedded one; requests carry the cursor from the Link.
    void urlFollowsAnotherServersLinks()
    {
        TestServer server;
        QVERIFY(server.listen());
        FakeRestApi api(&server);
        FakeRestApi::Options options;
        options.pagination = FakeRestApi::Pagination::Cursor;
        options.cursorField = u"since"_s;
        options.pageSize = 4;
        QJsonArray users;
        for (int id = 1; id <= 10; ++id)
            users.append(QJsonObject {{u"id"_s, id}, {u"login"_s, u"user%1"_s.arg(id)}});
        QVERIFY(api.addCollection(u"/users"_s, users, options));

        QProcess process;
        process.start(QStringLiteral(PAGINATION_EXECUTABLE), {u"--url"_s, server.url()});
        QSignalSpy finished(&process, &QProcess::finished);
        QVERIFY(finished.wait(60000));
        const QString out = QString::fromLocal8Bit(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0,
                 qPrintable(out + QString::fromLocal8Bit(process.readAllStandardError())));
        QVERIFY(out.contains(u"10 users in the stored list (3 pages, 10 distinct)"_s));
        const auto requests = server.requests("GET", u"/users"_s);
        QCOMPARE(requests.size(), 3);
        QVERIFY(!requests.at(0).query.hasQueryItem(u"since"_s));
        QCOMPARE(requests.at(1).query.queryItemValue(u"since"_s), u"4"_s);
        QCOMPARE(requests.at(2).query.queryItemValue(u"since"_s), u"8"_s);
    }

    void badCountsAreUsageErrors()
    {
        const ProcessRun result = run({u"--page-size"_s, u"0"_s});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(u"--page-size expects a whole number >= 1, got '0'"_s),
                 qPrintable(result.err));
    }
};

QTEST_GUILESS_MAIN(tst_GithubPagination)
#include "tst_githubpagination.moc"
