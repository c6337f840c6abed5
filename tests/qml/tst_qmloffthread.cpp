// Large answers of a QML Resource go off the GUI thread like those of a C++ endpoint (no
// GUI stall over 16 ms for a 10k-entity answer), unless a JS function has to see them: a JS
// parseResponse keeps the whole answer on the GUI thread, a JS primaryKey keeps normalizing there.
// Which path was taken is read from the library's debug messages, never from timings.
#include "logcapture.h"

#include <DataClient/collectionmodel.h>
#include <DataClient/controller.h>
#include <DataClient/qmlcontroller.h>
#include <DataClient/testing/sampledata.h>
#include <DataClient/testing/testserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>
#include <QTest>

#include <memory>

using namespace DataClient;
using namespace DataClient::Testing;
using namespace Qt::StringLiterals;

namespace {

constexpr int TodoCount = 1500; // about 200 KB of JSON: well above RestEndpoint::OffThreadBodySize
constexpr int UserCount = 7;

const QString parsedOff = u"bytes off the GUI thread"_s; // RestEndpoint::fetchCompact()
const QString normalizedOff = u"off the GUI thread"_s; // also "normalizing <key> off the ..."

// Todos that embed their author, as many REST APIs answer.
QJsonArray todosWithAuthors()
{
    const QJsonArray users = SampleData::users(UserCount);
    QJsonArray todos = SampleData::todos(TodoCount, UserCount);
    for (qsizetype i = 0; i < todos.size(); ++i) {
        QJsonObject todo = todos.at(i).toObject();
        todo.insert(u"author"_s, users.at(todo.value(u"userId"_s).toInt() - 1));
        todos[i] = todo;
    }
    return todos;
}

// A User <-> Todo pair of entities that refer to each other, a Resource on them and a
// Suspense on its list. RESOURCE_EXTRA (more Resource properties) and PK vary per test.
QByteArray screen(const QString &url, const QByteArray &resourceExtra, const QByteArray &pk)
{
    QByteArray qml = R"(
import QtQml
import DataClient
QtObject {
    id: root
    property Entity user: Entity { key: "User"; primaryKey: "id"
        fields: ({ id: 0, name: "", todos: [todo] }) }
    property Entity todo: Entity { key: "Todo"; primaryKey: PK
        fields: ({ id: 0, title: "", author: user, createdAt: Deserialize.dateTime }) }
    property Resource todos: Resource { urlPrefix: "URL"; path: "/todos/:id"; schema: todo
        RESOURCE_EXTRA }
    property int parsed: 0
    property Suspense query: Suspense { endpoint: todos.getList; params: ({}) }
}
)";
    qml.replace("URL", url.toUtf8());
    qml.replace("RESOURCE_EXTRA", resourceExtra);
    qml.replace("PK", pk);
    return qml;
}

} // namespace

class tst_QmlOffThread : public QObject
{
    Q_OBJECT

private:
    TestServer server;
    QJsonArray todos = todosWithAuthors();
    std::unique_ptr<Controller> controller;
    std::unique_ptr<QQmlEngine> engine;

    std::unique_ptr<QObject> load(const QByteArray &resourceExtra = {},
                                  const QByteArray &pk = "\"id\"")
    {
        QQmlComponent component(engine.get());
        component.setData(screen(server.url(), resourceExtra, pk),
                          QUrl::fromLocalFile(u"offthread.qml"_s));
        std::unique_ptr<QObject> root(component.create());
        if (!root)
            qWarning() << component.errors();
        return root;
    }
    static CollectionModel *queryOf(QObject *root)
    {
        return root->property("query").value<CollectionModel *>();
    }
    // The list arrived and reads as the server sent it, authors and dates resolved; the authors
    // were stored as User entities unless \a normalized is false.
    void checkShown(CollectionModel *query, bool normalized = true)
    {
        QTRY_COMPARE_WITH_TIMEOUT(query->count(), int(TodoCount), 30000);
        QCOMPARE(query->status(), CollectionModel::Ready);
        for (const int row : {0, 1, TodoCount - 1}) {
            const QVariantMap shown = query->get(row).toMap();
            const QJsonObject sent = todos.at(row).toObject();
            QCOMPARE(shown.value(u"id"_s).toInt(), sent.value(u"id"_s).toInt());
            QCOMPARE(shown.value(u"title"_s).toString(), sent.value(u"title"_s).toString());
            QCOMPARE(
                shown.value(u"createdAt"_s).toDateTime(),
                QDateTime::fromString(sent.value(u"createdAt"_s).toString(), Qt::ISODateWithMs));
            const QVariantMap author = shown.value(u"author"_s).toMap();
            QCOMPARE(author.value(u"name"_s).toString(),
                     sent.value(u"author"_s).toObject().value(u"name"_s).toString());
        }
        if (!normalized)
            return;
        // The authors were normalized into User entities, not stored inside each todo.
        const int firstAuthor = todos.at(0).toObject().value(u"userId"_s).toInt();
        const Denormalized user = controller->get(Schema::entity(EntitySchema(u"User"_s, u"id"_s)),
                                                  {{u"id"_s, firstAuthor}});
        QVERIFY(user.found);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(server.listen());
        server.route("GET", u"/todos"_s,
                     [this](const RecordedRequest &) { return ServerResponse::json(todos); });
    }
    void init()
    {
        controller = std::make_unique<Controller>();
        engine = std::make_unique<QQmlEngine>();
        setQmlController(engine.get(), controller.get());
    }
    void cleanup()
    {
        engine.reset();
        controller.reset();
    }

    void plainEntitiesParseAndNormalizeOffTheGuiThread()
    {
        LogCapture log;
        const auto root = load();
        QVERIFY(root);
        checkShown(queryOf(root.get()));
        QVERIFY(log.contains(parsedOff));
        QVERIFY(log.contains(u"normalizing"_s));
        QVERIFY(log.count(normalizedOff) >= 2); // parsed and normalized
    }

    void aJsResponseHookKeepsTheAnswerOnTheGuiThread_data()
    {
        QTest::addColumn<QByteArray>("hook");
        QTest::newRow("parseResponse")
            << "parseResponse: function(response) { "
               "root.parsed = root.parsed + 1; return response.value }"_ba;
        QTest::newRow("process") << "process: function(value, params) { "
                                    "root.parsed = root.parsed + 1; return value }"_ba;
    }
    void aJsResponseHookKeepsTheAnswerOnTheGuiThread()
    {
        QFETCH(QByteArray, hook);
        LogCapture log;
        const auto root = load(hook);
        QVERIFY(root);
        checkShown(queryOf(root.get()));
        QCOMPARE(root->property("parsed").toInt(), 1);
        QVERIFY(!log.contains(parsedOff));
        QVERIFY(!log.contains(normalizedOff));
    }

    void aJsPrimaryKeyKeepsNormalizingOnTheGuiThread()
    {
        LogCapture log;
        const auto root
            = load({}, "function(todo) { root.parsed = root.parsed + 1; return todo.id }");
        QVERIFY(root);
        checkShown(queryOf(root.get()));
        QVERIFY(root->property("parsed").toInt() >= TodoCount); // the JS function saw every todo
        QVERIFY(log.contains(parsedOff)); // parsing needs no JS
        QVERIFY(!log.contains(u"normalizing"_s));
    }

    void destroyingTheScreenWhileAWorkerRunsIsSafe()
    {
        LogCapture log;
        auto root = load();
        QVERIFY(root);
        QVERIFY(log.waitFor(parsedOff));
        root.reset(); // the entities (whose schemas the worker reads) go with it
        engine.reset();
        // Nothing crashed or leaked (ASan), and a new screen still gets the list. Whether its
        // authors became User entities depends on whether the old Entities were gone before the
        // worker read their schemas (then they stay inside each todo, as on the GUI thread).
        engine = std::make_unique<QQmlEngine>();
        setQmlController(engine.get(), controller.get());
        root = load();
        QVERIFY(root);
        checkShown(queryOf(root.get()), /*normalized*/ false);
    }
};

QTEST_MAIN(tst_QmlOffThread)
#include "tst_qmloffthread.moc"
