// createResource() options: keys, the option errors (nothing is sent), and the extra endpoint
// options and optimistic predictions reaching every member.
#include "restfixture.h"
#include "servertest.h"

#include <DataClient/createresource.h>
#include <DataClient/store.h>

#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QTest>

using namespace DataClient;
using namespace RestFixture;
using namespace Qt::StringLiterals;

class tst_ResourceOptions : public ServerTest
{
    Q_OBJECT

private:
    Resource users(ResourceOptions options = {}) const
    {
        options.path = u"/groups/:group/users/:id"_s;
        options.schema = user();
        options.urlPrefix = server.url();
        return createResource(options);
    }

private Q_SLOTS:
    // A member's key is "METHOD url".
    void keys()
    {
        const Resource cooler = createResource({.path = u"/article-cooler/:id"_s,
                                                .schema = user(),
                                                .urlPrefix = u"http://test.com"_s});
        QCOMPARE(cooler.get->key({{u"id"_s, 5}}), u"GET http://test.com/article-cooler/5"_s);
        const Resource groups = createResource({.path = u"/groups/:group/users/:id"_s,
                                                .schema = user(),
                                                .urlPrefix = u"http://api.test"_s});
        QCOMPARE(groups.getList.push->key({{u"group"_s, u"g1"_s}}),
                 u"POST http://api.test/groups/g1/users"_s);
    }

    void optionErrors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("withSchema");
        QTest::addColumn<QString>("message");
        QTest::newRow("no schema") << u"/users/:id"_s << false << u"'schema' is required"_s;
        QTest::newRow("no path") << QString() << true << u"'path' is required"_s;
        QTest::newRow("no parameter") << u"/users"_s << true << u"'/users' has no parameter"_s;
        QTest::newRow("malformed") << u"/users/{:id"_s << true << u"never closed"_s;
    }
    void optionErrors()
    {
        QFETCH(QString, path);
        QFETCH(bool, withSchema);
        QFETCH(QString, message);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"createResource"_s));
        const Resource r = createResource(
            {.path = path, .schema = withSchema ? user() : Schema(), .urlPrefix = server.url()});
        QVERIFY(!r.isValid());
        QVERIFY2(r.errorString().startsWith(u"createResource(): "_s), qPrintable(r.errorString()));
        QVERIFY2(r.errorString().contains(message), qPrintable(r.errorString()));
        QVERIFY(!r.get && !r.getList && !r.remove);
        QVERIFY(r.memberNames().isEmpty());
        QCOMPARE(server.requestCount(), 0);
    }
    void nonEntitySchemaIsRefused()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"entity schema"_s));
        const Resource r = createResource(
            {.path = u"/users/:id"_s, .schema = Schema::array(user()), .urlPrefix = server.url()});
        QVERIFY(!r.isValid());
        QVERIFY2(r.errorString().contains(u"must be an entity schema"_s),
                 qPrintable(r.errorString()));
        QVERIFY(!Resource().isValid());
        QVERIFY(Resource().errorString().contains(u"createResource"_s));
    }

    // The extra endpoint options and optimistic: passed to every member.
    void optionsReachEveryMember()
    {
        const Resource r = users({.optimistic = true,
                                  .pollFrequency = 5000,
                                  .dataExpiryLength = 10,
                                  .errorExpiryLength = 20,
                                  .credentials = Credentials::Include,
                                  .timeout = 777});
        for (const QString &name : r.memberNames()) {
            const ResourceMember m = r.member(name);
            QCOMPARE(m->pollFrequency(), 5000);
            QCOMPARE(m->dataExpiryLength(), 10);
            QCOMPARE(m->errorExpiryLength(), 20);
            QCOMPARE(m->credentials(), Credentials::Include);
            QCOMPARE(m->timeout(), 777);
            QCOMPARE(m->optimistic(), m->sideEffect());
        }
        const Params args {{u"group"_s, u"g"_s}, {u"id"_s, u"5"_s}};
        const QJsonObject body {{u"username"_s, u"x"_s}};
        const QJsonObject expected {
            {u"group"_s, u"g"_s}, {u"id"_s, u"5"_s}, {u"username"_s, u"x"_s}};
        QCOMPARE(r.update->optimisticResponse(args, body), std::optional(QJsonValue(expected)));
        QCOMPARE(r.partialUpdate->optimisticResponse(args, body),
                 std::optional(QJsonValue(expected)));
        const QJsonObject created {{u"id"_s, u"9"_s}, {u"username"_s, u"x"_s}};
        QCOMPARE(r.getList.push->optimisticResponse({{u"group"_s, u"g"_s}}, created),
                 std::optional(QJsonValue(QJsonObject {
                     {u"group"_s, u"g"_s}, {u"id"_s, u"9"_s}, {u"username"_s, u"x"_s}})));
        // A created entity without a pk (the server assigns it): the same guess; the Controller
        // shows it under a placeholder key (tst_placeholders).
        const QJsonObject withoutPk {{u"group"_s, u"g"_s}, {u"username"_s, u"x"_s}};
        QCOMPARE(r.getList.push->optimisticResponse({{u"group"_s, u"g"_s}}, body),
                 std::optional(QJsonValue(withoutPk)));
        QCOMPARE(r.getList.unshift->optimisticResponse({{u"group"_s, u"g"_s}}, body),
                 std::optional(QJsonValue(withoutPk)));
        QCOMPARE(r.remove->optimisticResponse(args, {}),
                 std::optional(QJsonValue(QJsonObject {{u"group"_s, u"g"_s}, {u"id"_s, u"5"_s}})));
        QCOMPARE(r.get->optimisticResponse(args, {}), std::nullopt);
        // partialUpdate changes nothing when the entity is not in the store.
        const Store empty;
        QCOMPARE(r.partialUpdate->optimisticResponse(args, body, &empty), std::nullopt);
        QVERIFY(!users().update->optimistic());
    }
};

QTEST_GUILESS_MAIN(tst_ResourceOptions)
#include "tst_resourceoptions.moc"
