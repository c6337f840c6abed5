// The option `keyCase` against the test server: what the server received (query keys, bodies at
// every depth) and what the app reads (answers at every depth, arrays included), a field whose
// contents keep their keys (EntitySchema::withKeysKept), the endpoint level over the resource
// level, and the refusal of two server keys that read as one app key (nothing stored).
#include "readback.h"
#include "servertest.h"

#include <DataClient/controller.h>
#include <DataClient/createresource.h>
#include <DataClient/record.h>
#include <DataClient/responsestate.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QTest>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;
using ReadBack::toMap;

namespace {

// A Django-style row: snake_case at every depth, a list of objects inside.
const QJsonObject serverRow {
    {u"id"_s, 1},
    {u"user_id"_s, 2},
    {u"due_date"_s, u"2026-01-01"_s},
    {u"check_list"_s, QJsonArray {QJsonObject {{u"item_name"_s, u"milk"_s}, {u"is_done"_s, true}}}},
    {u"labels_by_id"_s, QJsonObject {{u"label_7"_s, u"home"_s}}},
};

} // namespace

class tst_KeyCase : public ServerTest
{
    Q_OBJECT

    Resource todos(KeyCase keyCase, EntitySchema entity = EntitySchema(u"Todo"_s)) const
    {
        return createResource({.path = u"/todos/:id"_s,
                               .schema = Schema::entity(entity),
                               .urlPrefix = server.url(),
                               .paginationField = u"pageNumber"_s,
                               .keyCase = keyCase});
    }

    void setUp() override
    {
        server.route("GET", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonArray {serverRow});
        });
        server.route("GET", u"/todos/:id"_s,
                     [](const RecordedRequest &) { return ServerResponse::json(serverRow); });
        server.route("POST", u"/todos"_s, [](const RecordedRequest &request) {
            QJsonObject created = request.json().toObject();
            created.insert(u"id"_s, 9);
            return ServerResponse::json(created, 201);
        });
    }

private Q_SLOTS:
    void queryKeysAndThePageFieldGoOutInTheServersCase()
    {
        Controller controller(&network);
        const Resource resource = todos(KeyCase::SnakeCase);
        QFuture<QVariant> read
            = controller.fetch(resource.getList.getPage, {{u"userId"_s, 2}, {u"pageNumber"_s, 3}});
        QTRY_VERIFY(read.isFinished());
        const RecordedRequest sent = server.lastRequest();
        QCOMPARE(sent.query.queryItemValue(u"user_id"_s), u"2"_s);
        QCOMPARE(sent.query.queryItemValue(u"page_number"_s), u"3"_s);
        QVERIFY(!sent.query.hasQueryItem(u"userId"_s));
    }

    void bodiesGoOutInTheServersCaseAtEveryDepth()
    {
        Controller controller(&network);
        const Resource resource = todos(KeyCase::SnakeCase);
        const QJsonObject body {
            {u"userId"_s, 2},
            {u"checkList"_s, QJsonArray {QJsonObject {{u"itemName"_s, u"milk"_s}}}},
        };
        QFuture<QVariant> created = controller.fetch(resource.getList.push, {}, body);
        QTRY_VERIFY(created.isFinished());
        const QJsonObject received = server.lastRequest().json().toObject();
        QCOMPARE(received.value(u"user_id"_s).toInt(), 2);
        QCOMPARE(received.value(u"check_list"_s)[0][u"item_name"_s].toString(), u"milk"_s);
        // ... and the answer reads back in the app's case.
        const QVariantMap row = toMap(created.result());
        QCOMPARE(row.value(u"userId"_s).toInt(), 2);
        QCOMPARE(row.value(u"checkList"_s).toList().value(0).toMap().value(u"itemName"_s),
                 QVariant(u"milk"_s));
    }

    void answersReadInTheAppsCaseAtEveryDepth()
    {
        Controller controller(&network);
        const Resource resource = todos(KeyCase::SnakeCase);
        QFuture<QVariant> read = controller.fetch(resource.get, {{u"id"_s, 1}});
        QTRY_VERIFY(read.isFinished());
        const QVariantMap row = toMap(read.result());
        QCOMPARE(row.value(u"userId"_s).toInt(), 2);
        QCOMPARE(row.value(u"dueDate"_s).toString(), u"2026-01-01"_s);
        const QVariantMap item = row.value(u"checkList"_s).toList().value(0).toMap();
        QCOMPARE(item.value(u"itemName"_s).toString(), u"milk"_s);
        QCOMPARE(item.value(u"isDone"_s).toBool(), true);
        // Not kept: a map keyed by ids is converted like any object.
        QVERIFY(row.value(u"labelsById"_s).toMap().contains(u"label7"_s));
    }

    void aKeptFieldKeepsItsContents()
    {
        Controller controller(&network);
        const Resource resource
            = todos(KeyCase::SnakeCase, EntitySchema(u"Todo"_s).withKeysKept({u"labelsById"_s}));
        QFuture<QVariant> read = controller.fetch(resource.get, {{u"id"_s, 1}});
        QTRY_VERIFY(read.isFinished());
        const QVariantMap labels = toMap(read.result()).value(u"labelsById"_s).toMap();
        QCOMPARE(labels.keys(), QStringList {u"label_7"_s});
    }

    void kebabCaseBothWays()
    {
        server.route("GET", u"/todos"_s, [](const RecordedRequest &) {
            return ServerResponse::json(QJsonArray {QJsonObject {{u"id"_s, 1}, {u"user-id"_s, 5}}});
        });
        Controller controller(&network);
        const Resource resource = todos(KeyCase::KebabCase);
        QFuture<QVariant> read = controller.fetch(resource.getList, {{u"userId"_s, 5}});
        QTRY_VERIFY(read.isFinished());
        QCOMPARE(server.lastRequest().query.queryItemValue(u"user-id"_s), u"5"_s);
        QCOMPARE(toMap(read.result().value<RowList>().value(0)).value(u"userId"_s).toInt(), 5);
    }

    // The endpoint level wins over the resource's: one member of a snake_case API that is not.
    void anEndpointsKeyCaseOverridesTheResources()
    {
        Controller controller(&network);
        const Resource resource
            = todos(KeyCase::SnakeCase).extend({{u"get"_s, {.keyCase = KeyCase::AsIs}}});
        QFuture<QVariant> read = controller.fetch(resource.get, {{u"id"_s, 1}});
        QTRY_VERIFY(read.isFinished());
        QVERIFY(toMap(read.result()).contains(u"user_id"_s));
        QFuture<QVariant> list = controller.fetch(resource.getList, {{u"userId"_s, 2}});
        QTRY_VERIFY(list.isFinished());
        QCOMPARE(server.lastRequest().query.queryItemValue(u"user_id"_s), u"2"_s);
    }

    void twoServerKeysReadingAsOneAppKeyAreRefused()
    {
        server.route("GET", u"/todos/:id"_s, [](const RecordedRequest &) {
            return ServerResponse::json(
                QJsonObject {{u"id"_s, 1}, {u"user_id"_s, 2}, {u"userId"_s, 3}});
        });
        Controller controller(&network);
        const Resource resource = todos(KeyCase::SnakeCase);
        QFuture<QVariant> read = controller.fetch(resource.get, {{u"id"_s, 1}});
        QTRY_VERIFY(read.isFinished());
        const QString message = ReadBack::failureOf(read).message();
        QVERIFY2(message.contains(u"'user_id'"_s) && message.contains(u"'userId'"_s),
                 qPrintable(message));
        QVERIFY(!controller.getResponse(resource.get, {{u"id"_s, 1}}).data.isValid());
    }
};

QTEST_MAIN(tst_KeyCase)
#include "tst_keycase.moc"
